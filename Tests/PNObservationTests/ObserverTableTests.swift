import Dispatch
import PlatformSupport
import PubNubLegacy
import Testing

@testable import PNObservation

@Suite struct ObserverTableTests {
    typealias Table = ObserverTable<(String) -> Void>

    private func deliver(_ table: Table, _ event: String) {
        table.forEachBlock { $0(event) }
    }

    // MARK: - Registration

    @Test func removeReportsWhetherARegistrationWasRemoved() {
        let table = Table()
        let observer = TestObserver()
        table.add(observer) { _ in }
        table.add(observer) { _ in }

        #expect(table.remove(observer))
        #expect(table.remove(observer))
        #expect(!table.remove(observer))
        #expect(!table.remove(TestObserver("stranger")))
        #expect(table.count == 0)
    }

    @Test func countLeavesOutObserversThatWentAway() {
        let table = Table()
        let kept = TestObserver("kept")
        table.add(kept) { _ in }
        self.addShortLivedObserver(to: table, log: CallLog())

        #expect(table.count == 1)
        withExtendedLifetime(kept) {}
    }

    @discardableResult
    private func addShortLivedObserver(to table: Table, log: CallLog) -> WeakReference<TestObserver> {
        let observer = TestObserver("short-lived")
        table.add(observer) { log.append("short-lived: \($0)") }
        return WeakReference(observer)
    }

    // MARK: - Changes during a delivery round

    @Test func observerAddedDuringARoundStartsWithTheNextEvent() {
        let table = Table()
        let log = CallLog()
        let adder = TestObserver("adder")
        let late = TestObserver("late")
        table.add(adder) { [weak table] event in
            log.append("adder: \(event)")
            if event == "e1" {
                table?.add(late) { log.append("late: \($0)") }
            }
        }

        self.deliver(table, "e1")
        self.deliver(table, "e2")
        #expect(log.calls == ["adder: e1", "adder: e2", "late: e2"])
        withExtendedLifetime((adder, late)) {}
    }

    @Test func observerRemovedDuringARoundGetsNothingMoreEvenInThatRound() {
        let table = Table()
        let log = CallLog()
        let remover = TestObserver("remover")
        let victim = TestObserver("victim")
        let bystander = TestObserver("bystander")
        table.add(remover) { [weak table] event in
            log.append("remover: \(event)")
            table?.remove(victim)
        }
        table.add(victim) { log.append("victim: \($0)") }
        table.add(bystander) { log.append("bystander: \($0)") }

        self.deliver(table, "e1")
        self.deliver(table, "e2")
        #expect(log.calls == ["remover: e1", "bystander: e1", "remover: e2", "bystander: e2"])
        withExtendedLifetime((remover, victim, bystander)) {}
    }

    @Test func removingAnObserverThatAlreadyRanDoesNotSkipTheOthers() {
        let table = Table()
        let log = CallLog()
        let first = TestObserver("first")
        let remover = TestObserver("remover")
        let last = TestObserver("last")
        table.add(first) { log.append("first: \($0)") }
        table.add(remover) { [weak table] event in
            log.append("remover: \(event)")
            table?.remove(first)
        }
        table.add(last) { log.append("last: \($0)") }

        self.deliver(table, "e1")
        self.deliver(table, "e2")
        #expect(log.calls == ["first: e1", "remover: e1", "last: e1", "remover: e2", "last: e2"])
        withExtendedLifetime((first, remover, last)) {}
    }

    @Test func blockThatRemovesItsOwnRegistrationRunsOnce() {
        let table = Table()
        let log = CallLog()
        let once = TestObserver("once")
        table.add(once) { [weak table, weak once] event in
            log.append("once: \(event)")
            if let once {
                table?.remove(once)
            }
        }
        table.add(once) { log.append("duplicate: \($0)") }

        self.deliver(table, "e1")
        self.deliver(table, "e2")
        // The self-removal takes the first entry only; the duplicate registration stays.
        #expect(log.calls == ["once: e1", "duplicate: e1", "duplicate: e2"])
        withExtendedLifetime(once) {}
    }

    @Test func observerThatGoesAwayDuringARoundIsSkipped() {
        let table = Table()
        let log = CallLog()
        let dropper = TestObserver("dropper")
        let box = StrongBox(TestObserver("doomed"))
        let doomed = WeakReference(box.object!)
        table.add(dropper) { event in
            log.append("dropper: \(event)")
            box.object = nil
        }
        table.add(box.object!) { log.append("doomed: \($0)") }

        self.deliver(table, "e1")
        #expect(doomed.object == nil)
        #expect(log.calls == ["dropper: e1"])
        #expect(table.count == 1)
        withExtendedLifetime(dropper) {}
    }

    @Test func observerStaysAliveWhileItsOwnBlockRuns() {
        let table = Table()
        let log = CallLog()
        let box = StrongBox(TestObserver("self-dropping"))
        let observer = WeakReference(box.object!)
        table.add(box.object!) { event in
            box.object = nil
            log.append("\(event): alive=\(observer.object != nil)")
        }

        self.deliver(table, "e1")
        #expect(log.calls == ["e1: alive=true"])
        #expect(observer.object == nil)
        self.deliver(table, "e2")
        #expect(log.calls == ["e1: alive=true"])
    }

    // MARK: - Releasing blocks outside the lock

    @Test func releasingARemovedBlockMayCallBackIntoTheTable() throws {
        let table = Table()
        let log = CallLog()
        let observer = TestObserver("removed")
        let newcomer = TestObserver("newcomer")
        self.addBlockCapturingProbe(to: table, observer: observer) {
            table.add(newcomer) { log.append("newcomer: \($0)") }
        }

        // A probe `deinit` that ran inside the lock would deadlock here; the table is then unusable.
        try #require(finishesWithin(seconds: 30) { table.remove(observer) })
        self.deliver(table, "e1")
        #expect(log.calls == ["newcomer: e1"])
        withExtendedLifetime((observer, newcomer)) {}
    }

    @Test func pruningTheBlockOfAnObserverThatWentAwayMayCallBackIntoTheTable() throws {
        let table = Table()
        let log = CallLog()
        let kept = TestObserver("kept")
        let removedByProbe = TestObserver("removed-by-probe")
        table.add(kept) { log.append("kept: \($0)") }
        table.add(removedByProbe) { log.append("removed-by-probe: \($0)") }
        self.addShortLivedObserverCapturingProbe(to: table) {
            table.remove(removedByProbe)
        }

        try #require(finishesWithin(seconds: 30) { self.deliver(table, "e1") })
        self.deliver(table, "e2")
        // The dead entry is pruned after its round, so the probe's removal shows from the next event on.
        #expect(log.calls == ["kept: e1", "removed-by-probe: e1", "kept: e2"])
        withExtendedLifetime((kept, removedByProbe)) {}
    }

    private func addBlockCapturingProbe(to table: Table, observer: AnyObject, onRelease: @escaping () -> Void) {
        let probe = DeinitProbe(onDeinit: onRelease)
        table.add(observer) { _ in withExtendedLifetime(probe) {} }
    }

    private func addShortLivedObserverCapturingProbe(to table: Table, onRelease: @escaping () -> Void) {
        self.addBlockCapturingProbe(to: table, observer: TestObserver("short-lived"), onRelease: onRelease)
    }
}

// MARK: - Concurrency

@Suite struct ObserverTableConcurrencyTests {
    typealias Table = ObserverTable<() -> Void>

    /// Eight worker threads add, duplicate, remove and abandon observers while one delivery thread runs rounds
    /// back to back; the never-removed sentinel must see every round once, and only it may be left at the end.
    ///
    /// With `changesFromInsideBlocks` on, blocks also remove themselves and add registrations from inside the
    /// round. With it off, the delivery thread takes the table's lock only at the start and end of a round and
    /// once per entry, which leaves ThreadSanitizer the most room to see a worker's change that is not ordered
    /// with the round's reads. (`PNObservationCenterConcurrencyTests` drives the tables through the center, where
    /// they are specialised; ThreadSanitizer sees more of those than of this generic table.)
    @Test(.timeLimit(.minutes(2)), arguments: [false, true])
    func changesFromManyThreadsDuringDeliveryKeepTheTableConsistent(changesFromInsideBlocks: Bool) throws {
        let table = Table()
        let sentinel = TestObserver("sentinel")
        let sentinelCalls = Locked(0)
        table.add(sentinel) {
            sentinelCalls.withLock { $0 += 1 }
            busyWork()  // widens each round, so that workers change entries that the round has yet to reach
        }

        let workersDone = Locked(false)
        let rounds = Locked(0)
        let delivery = startThreads(1) { _ in
            while !workersDone.current || rounds.current < 100 {
                table.forEachBlock { $0() }
                rounds.withLock { $0 += 1 }
            }
        }

        let overlapped = Locked(0)
        let workers = startThreads(8) { worker in
            if Self.churn(table, worker: worker, changesFromInsideBlocks: changesFromInsideBlocks) {
                overlapped.withLock { $0 += 1 }
            }
        }
        let workersFinished = workers.wait(timeout: .now() + 90) == .success
        workersDone.withLock { $0 = true }
        try #require(workersFinished)
        try #require(delivery.wait(timeout: .now() + 30) == .success)

        #expect(overlapped.current == 8)
        #expect(sentinelCalls.current == rounds.current)
        #expect(table.count == 1)
        withExtendedLifetime(sentinel) {}
    }

    /// One worker's churn. Returns whether its anchor observer was called while it worked, which shows that the
    /// changes really overlapped with delivery rounds.
    private static func churn(_ table: Table, worker: Int, changesFromInsideBlocks: Bool) -> Bool {
        let anchor = TestObserver("anchor \(worker)")
        let heard = DispatchSemaphore(value: 0)
        let flag = OnceFlag()
        table.add(anchor) {
            if flag.raise() {
                heard.signal()
            }
        }
        // Most observers stay registered for a while (`window`), long enough to be in the list a delivery round
        // on the other thread is walking when this worker removes them.
        let calls = Locked(0)
        var window: [TestObserver] = []
        for iteration in 0..<1_000 {
            let observer = TestObserver("worker \(worker) #\(iteration)")
            let count = { calls.withLock { $0 += 1 } }
            switch (iteration % 5, changesFromInsideBlocks) {
            case (1, _):
                table.add(observer, block: count)
                table.add(observer, block: count)  // the duplicate stays until its observer goes away
            case (2, _):
                table.add(observer, block: count)
                table.remove(observer)
            case (3, true):
                table.add(observer) { [weak table, weak observer] in
                    count()
                    if let table, let observer {
                        table.remove(observer)
                    }
                }
            case (4, true):
                // Adds, from inside a delivery round, a registration whose observer is already gone.
                table.add(observer) { [weak table] in
                    table?.add(TestObserver("transient"), block: count)
                }
            default:
                table.add(observer, block: count)
            }
            window.append(observer)
            if window.count > 64 {
                let oldest = window.removeFirst()
                if iteration.isMultiple(of: 2) {
                    table.remove(oldest)
                }  // otherwise it just goes away
            }
        }
        for observer in window {
            table.remove(observer)
        }
        window.removeAll()
        let overlapped = heard.wait(timeout: .now() + 30) == .success
        table.remove(anchor)
        return overlapped
    }
}
