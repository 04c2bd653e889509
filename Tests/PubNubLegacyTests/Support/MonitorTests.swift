import Foundation
import PlatformSupport
import Testing

/// `Monitor`, the condition box of PlatformSupport: the lock, the waiting loop's calls and what wakes whom.
@Suite struct MonitorTests {
    /// Far enough away that a test reaching it has failed.
    private static let patience: Double = 20

    @Test func concurrentUpdatesAreNotLostAndWithLockReturnsTheResult() {
        let counter = Monitor(0)
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
            counter.withLock { $0 += 1 }
        }
        let doubled = counter.withLock { value -> Int in
            value *= 2
            return value
        }
        #expect(doubled == 2_000)
        #expect(counter.withLock { $0 } == 2_000)
    }

    @Test func aDoneFirstCallReturnsWithoutWaiting() {
        let monitor = Monitor(["ready"])
        var wakes: [MonitorWake] = []
        let result = monitor.wait { state, wake -> MonitorStep<String> in
            wakes.append(wake)
            state.append("taken")
            return .done(state[0])
        }
        #expect(result == "ready")
        #expect(wakes == [.first])
        #expect(monitor.withLock { $0 } == ["ready", "taken"])
    }

    @Test func aDeadlineWithNobodySignallingEndsInTimedOutUnderTheLock() {
        let monitor = Monitor(0)
        let deadline = Date(timeIntervalSinceNow: 0.05)
        var wakes: [MonitorWake] = []
        let result = monitor.wait { state, wake -> MonitorStep<Int> in
            wakes.append(wake)
            if wake == .timedOut {
                state = 7  // the closure still holds the lock after a timeout
                return .done(state)
            }
            return .waitUntil(deadline)
        }
        #expect(result == 7)
        #expect(Date() >= deadline)
        // Spurious wake-ups may add `.woken` calls in between; the first and the last are certain.
        #expect(wakes.first == .first)
        #expect(wakes.last == .timedOut)
        #expect(!wakes.dropFirst().contains(.first))
        #expect(monitor.withLock { $0 } == 7)
    }

    @Test func aDeadlineAlreadyPassedTimesOutAtOnce() {
        let monitor = Monitor(false)
        let wakes = monitor.wait { _, wake -> MonitorStep<MonitorWake> in
            wake == .first ? .waitUntil(Date(timeIntervalSinceNow: -1)) : .done(wake)
        }
        #expect(wakes == .timedOut)
    }

    @Test func aSignalWakesAWaiterBeforeItsDeadline() {
        struct Gate {
            var waiting = false
            var open = false
        }
        let monitor = Monitor(Gate())
        let seen = Locked<[MonitorWake]>([])
        let finished = Latch()
        let deadline = Date(timeIntervalSinceNow: Self.patience)
        Thread.detachNewThread {
            monitor.wait { gate, wake -> MonitorStep<Void> in
                seen.withLock { $0.append(wake) }
                if gate.open || wake == .timedOut { return .done(()) }
                gate.waiting = true
                if wake == .first { monitor.broadcast() }  // tells the test thread (waking inside the lock is allowed)
                return .waitUntil(deadline)
            }
            finished.open()
        }
        // Waits, with the same box, until the waiter is waiting: a signal then has someone to wake.
        let waiting = monitor.wait { gate, wake -> MonitorStep<Bool> in
            gate.waiting || wake == .timedOut ? .done(gate.waiting) : .waitUntil(deadline)
        }
        #expect(waiting)
        monitor.withLock { $0.open = true }
        monitor.signal()  // after the lock, as the transports do
        #expect(finished.wait(timeout: Self.patience))
        let wakes = seen.current
        #expect(wakes.first == .first)
        #expect(wakes.last == .woken)
        #expect(!wakes.contains(.timedOut))
    }

    @Test func signalsWithOneTokenEachLetThatManyWaitersThroughAndBroadcastReleasesTheRest() {
        struct Tokens {
            var waiting = 0
            var tokens = 0
            var taken = 0
            var closed = false
        }
        let waiterCount = 4
        let monitor = Monitor(Tokens())
        let finished = (0..<waiterCount).map { _ in Latch() }
        let results = Locked<[Bool]>([])
        let deadline = Date(timeIntervalSinceNow: Self.patience)
        for latch in finished {
            Thread.detachNewThread {
                let gotToken = monitor.wait { state, wake -> MonitorStep<Bool> in
                    if wake != .first { state.waiting -= 1 }
                    if state.tokens > 0 {
                        state.tokens -= 1
                        state.taken += 1
                        monitor.broadcast()  // for the test thread
                        return .done(true)
                    }
                    if state.closed || wake == .timedOut { return .done(false) }
                    state.waiting += 1
                    // Only when it starts waiting: broadcasting again after each wake would wake the others forever.
                    if wake == .first { monitor.broadcast() }
                    return .waitUntil(deadline)
                }
                results.withLock { $0.append(gotToken) }
                latch.open()
            }
        }
        func waitUntil(_ done: (Tokens) -> Bool) -> Bool {
            monitor.wait { state, wake -> MonitorStep<Bool> in
                done(state) || wake == .timedOut ? .done(done(state)) : .waitUntil(deadline)
            }
        }
        #expect(waitUntil { $0.waiting == waiterCount })
        // Two tokens, each with one signal: two waiters take one each (a token is never taken twice).
        for _ in 0..<2 {
            monitor.withLock { $0.tokens += 1 }
            monitor.signal()
        }
        #expect(waitUntil { $0.taken == 2 && $0.waiting == waiterCount - 2 })
        // One broadcast with no token: every waiter left wakes and sees the box closed.
        monitor.withLock { $0.closed = true }
        monitor.broadcast()
        #expect(finished.allSatisfy { $0.wait(timeout: Self.patience) })
        #expect(results.current.sorted { !$0 && $1 } == [false, false, true, true])
        #expect(monitor.withLock { ($0.tokens, $0.taken, $0.waiting) } == (0, 2, 0))
    }

    @Test func aWaitWithoutDeadlineEndsWhenBroadcastChangesTheState() {
        let monitor = Monitor<String?>(nil)
        let answer = Locked<String?>(nil)
        let finished = Latch()
        Thread.detachNewThread {
            let text = monitor.wait { value, _ in value.map { .done($0) } ?? .wait }
            answer.set(text)
            finished.open()
        }
        monitor.withLock { value in
            value = "ready"
            monitor.broadcast()
        }
        #expect(finished.wait(timeout: Self.patience))
        #expect(answer.current == "ready")
    }

    @Test func aThrowingClosureReleasesTheLock() {
        struct Refused: Error {}
        let monitor = Monitor(1)
        #expect(throws: Refused.self) {
            try monitor.wait { _, _ -> MonitorStep<Int> in throw Refused() }
        }
        #expect(throws: Refused.self) {
            try monitor.withLock { _ in throw Refused() }
        }
        // Both locks were released: a third acquisition does not block.
        #expect(monitor.withLock { $0 } == 1)
    }

    @Test func aLatchOpensForEveryWaiterAndTimesOutWhenClosed() {
        let latch = Latch()
        #expect(!latch.wait(timeout: 0.01))
        let joined = (0..<3).map { _ in Latch() }
        for done in joined {
            Thread.detachNewThread {
                latch.wait()
                done.open()
            }
        }
        latch.open()
        latch.open()  // again: harmless
        #expect(joined.allSatisfy { $0.wait(timeout: Self.patience) })
        #expect(latch.wait(timeout: 0))
    }

    // MARK: - Deadlines no clock can hold (issue 31: `NSCondition.wait(until:)` trapped past 2262)

    /// Dates `NSCondition.wait(until:)` cannot convert: it traps (SIGILL) for each of them on Linux.
    static let farDeadlines: [(String, Date)] = [
        ("1e10 s from now", Date(timeIntervalSinceNow: 1e10)),
        ("Date.distantFuture", .distantFuture),
        ("an infinite interval", Date(timeIntervalSinceNow: .infinity)),
        ("Double.greatestFiniteMagnitude", Date(timeIntervalSinceNow: .greatestFiniteMagnitude)),
    ]

    @Test(arguments: 0..<farDeadlines.count)
    func aFarDeadlineWaitsUntilSignalledInsteadOfTrapping(index: Int) {
        let deadline = Self.farDeadlines[index].1
        let monitor = Monitor((waiting: false, open: false))
        let wakes = Locked<[MonitorWake]>([])
        let finished = Latch()
        Thread.detachNewThread {
            monitor.wait { state, wake -> MonitorStep<Void> in
                wakes.withLock { $0.append(wake) }
                if state.open || wake == .timedOut { return .done(()) }
                state.waiting = true
                monitor.broadcast()
                return .waitUntil(deadline)
            }
            finished.open()
        }
        let near = Date(timeIntervalSinceNow: Self.patience)
        let waiting = monitor.wait { state, wake -> MonitorStep<Bool> in
            state.waiting || wake == .timedOut ? .done(state.waiting) : .waitUntil(near)
        }
        #expect(waiting, "\(Self.farDeadlines[index].0)")
        monitor.withLock { $0.open = true }
        monitor.broadcast()
        #expect(finished.wait(timeout: Self.patience), "\(Self.farDeadlines[index].0)")
        #expect(!wakes.current.contains(.timedOut), "\(Self.farDeadlines[index].0): \(wakes.current)")
    }

    @Test func aLatchTakesAnyTimeout() {
        let closed = Latch()
        // Not a number, negative or minus infinity: no time to wait, answered at once.
        for timeout in [Double.nan, -1, -Double.infinity, -1e300] {
            #expect(!closed.wait(timeout: timeout), "\(timeout)")
        }
        // Far or infinite: waits until opened.
        for timeout in [1e10, Double.infinity, Double.greatestFiniteMagnitude] {
            let latch = Latch()
            let answered = Latch()
            let result = Locked<Bool?>(nil)
            Thread.detachNewThread {
                result.set(latch.wait(timeout: timeout))
                answered.open()
            }
            latch.open()
            #expect(answered.wait(timeout: Self.patience), "\(timeout)")
            #expect(result.current == true, "\(timeout)")
        }
    }
}
