import Dispatch
import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct TimerQueueTests {
    /// An object whose release the tests observe through a weak reference.
    final class Captured {}

    /// Runs `body` on the queue and waits (60 s at most) until `done` is called from work the body scheduled.
    static func run(
        on timers: TimerQueue,
        _ body: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void
    ) async throws {
        let finished = DispatchSemaphore(value: 0)
        timers.queue.async { body { finished.signal() } }
        let signalled = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: finished.wait(timeout: .now() + 60) == .success)
            }
        }
        #expect(signalled, "the timer queue ran the last work within 60 s")
    }

    @Test func runsWorkInDeadlineOrderAndSameDeadlinesInSchedulingOrder() async throws {
        let timers = TimerQueue(queue: DispatchQueue(label: "timers-under-test"))
        let log = Locked<[String]>([])
        try await Self.run(on: timers) { done in
            let base = DispatchTime.now().uptimeNanoseconds
            let millisecond: UInt64 = 1_000_000
            timers.schedule(at: base + 30 * millisecond) { log.withLock { $0.append("c") } }
            timers.schedule(at: base + 10 * millisecond) { log.withLock { $0.append("a") } }
            timers.schedule(at: base + 20 * millisecond) { log.withLock { $0.append("b1") } }
            timers.schedule(at: base + 20 * millisecond) { log.withLock { $0.append("b2") } }
            timers.schedule(at: base) { log.withLock { $0.append("now") } }
            timers.schedule(at: base + 40 * millisecond) { done() }
        }
        #expect(log.current == ["now", "a", "b1", "b2", "c"])
        #expect(timers.queue.sync { timers.count } == 0)
    }

    @Test func cancelledWorkNeverRunsAndWhatItCapturedIsReleasedAtOnce() async throws {
        let timers = TimerQueue(queue: DispatchQueue(label: "timers-under-test"))
        let ran = Locked(false)
        weak var released: Captured?
        let pendingAfterCancel: Int = timers.queue.sync {
            let captured = Captured()
            released = captured
            let timer = timers.schedule(after: 3_600) {
                _ = captured
                ran.withLock { $0 = true }
            }
            #expect(timer.isPending)
            timer.cancel()
            #expect(!timer.isPending)
            timer.cancel()  // a second cancel changes nothing
            return timers.count
        }
        #expect(pendingAfterCancel == 0)
        #expect(released == nil, "the cancelled closure's captures are gone before its deadline")
        try await Self.run(on: timers) { done in timers.schedule(after: 0.01) { done() } }
        #expect(!ran.current)
    }

    @Test func workCanScheduleAndCancelOtherWorkWhileTimersFire() async throws {
        let timers = TimerQueue(queue: DispatchQueue(label: "timers-under-test"))
        let log = Locked<[String]>([])
        try await Self.run(on: timers) { done in
            let base = DispatchTime.now().uptimeNanoseconds
            var doomed: ScheduledTimer?
            timers.schedule(at: base + 5_000_000) {
                log.withLock { $0.append("first") }
                doomed?.cancel()
                timers.schedule(after: 0) {
                    log.withLock { $0.append("scheduled by first") }
                    done()
                }
            }
            doomed = timers.schedule(at: base + 5_000_000) { log.withLock { $0.append("doomed") } }
        }
        #expect(log.current == ["first", "scheduled by first"])
    }

    /// The source stays armed for a cancelled timer's deadline: it fires then for nothing and is armed for the next
    /// live timer, which runs at its own deadline, not before.
    @Test func aCancelledEarliestTimerNeitherRunsNorHurriesTheNextOne() async throws {
        let timers = TimerQueue(queue: DispatchQueue(label: "timers-under-test"))
        let ranAt = Locked<[String: UInt64]>([:])
        let millisecond: UInt64 = 1_000_000
        let base = DispatchTime.now().uptimeNanoseconds
        try await Self.run(on: timers) { done in
            let early = timers.schedule(at: base + 5 * millisecond) {
                ranAt.withLock { $0["early"] = DispatchTime.now().uptimeNanoseconds }
            }
            timers.schedule(at: base + 40 * millisecond) {
                ranAt.withLock { $0["late"] = DispatchTime.now().uptimeNanoseconds }
                done()
            }
            early.cancel()
            #expect(timers.count == 1)
            #expect(timers.heldCount == 2, "a cancelled timer waits in the heap")
        }
        #expect(ranAt.current["early"] == nil)
        let late = try #require(ranAt.current["late"])
        #expect(late >= base + 40 * millisecond)
        #expect(timers.queue.sync { timers.heldCount } == 0)
    }

    /// Random schedules and cancels: every timer that was not cancelled runs exactly once, in deadline order, and
    /// the heap ends empty.
    @Test(arguments: [1, 2, 3]) func randomSchedulesAndCancelsRunEachSurvivorOnceInOrder(seed: UInt64) async throws {
        var generator = SplitMix64(seed: seed)
        let timers = TimerQueue(queue: DispatchQueue(label: "timers-under-test"))
        let log = Locked<[Int]>([])
        let plan = (0..<500).map { _ in (offset: UInt64.random(in: 0...20, using: &generator), cancel: Bool.random()) }
        let expected: [Int] = plan.indices.filter { !plan[$0].cancel }.sorted {
            (plan[$0].offset, $0) < (plan[$1].offset, $1)
        }
        try await Self.run(on: timers) { done in
            let base = DispatchTime.now().uptimeNanoseconds
            let handles = plan.indices.map { index in
                timers.schedule(at: base + plan[index].offset * 1_000_000) { log.withLock { $0.append(index) } }
            }
            for (index, step) in plan.enumerated() where step.cancel {
                handles[index].cancel()
            }
            // Cancelled timers stay only until they make up half of the heap.
            #expect(timers.heldCount <= 2 * timers.count + 1)
            timers.schedule(at: base + 25_000_000) { done() }
        }
        #expect(log.current == expected)
        #expect(timers.queue.sync { timers.count } == 0)
    }
}
