import Foundation
import PlatformSupport
import PubNubLegacy
import Testing

@testable import PNObservation

@Suite struct PNObservationCenterTests {
    // MARK: - Every bucket, one by one

    @Test(arguments: BucketCase.all)
    func addedObserverReceivesEveryEventUntilRemoved(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        bucket.add(center, observer, "o", log)

        bucket.deliver(center)
        bucket.deliver(center)
        #expect(log.calls == [bucket.expected("o"), bucket.expected("o")])

        bucket.remove(center, observer)
        bucket.deliver(center)
        #expect(log.calls == [bucket.expected("o"), bucket.expected("o")])
        withExtendedLifetime(observer) {}
    }

    @Test(arguments: BucketCase.all)
    func observersFireInRegistrationOrder(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let observers = (0..<5).map { TestObserver("o\($0)") }
        for index in [2, 1, 0, 4, 3] {
            bucket.add(center, observers[index], observers[index].name, log)
        }

        bucket.deliver(center)
        #expect(log.calls == ["o2", "o1", "o0", "o4", "o3"].map(bucket.expected))
        withExtendedLifetime(observers) {}
    }

    @Test(arguments: BucketCase.all)
    func duplicateRegistrationsBothFireAndEachRemovalTakesTheFirst(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let twice = TestObserver("twice")
        let other = TestObserver("other")
        bucket.add(center, twice, "first", log)
        bucket.add(center, other, "other", log)
        bucket.add(center, twice, "second", log)

        bucket.deliver(center)
        #expect(log.calls == ["first", "other", "second"].map(bucket.expected))

        bucket.remove(center, twice)
        bucket.deliver(center)
        #expect(log.calls.suffix(2) == ["other", "second"].map(bucket.expected))

        bucket.remove(center, twice)
        bucket.deliver(center)
        #expect(log.calls.suffix(1) == ["other"].map(bucket.expected))
        #expect(log.count == 6)
        withExtendedLifetime((twice, other)) {}
    }

    @Test(arguments: BucketCase.all)
    func removingAnObserverThatIsNotRegisteredChangesNothing(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        bucket.add(center, observer, "o", log)

        bucket.remove(center, TestObserver("stranger"))
        bucket.deliver(center)
        #expect(log.calls == [bucket.expected("o")])
        withExtendedLifetime(observer) {}
    }

    @Test(arguments: BucketCase.all)
    func observerThatWentAwayStopsReceivingAndItsBlockIsReleased(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let survivor = TestObserver("survivor")
        bucket.add(center, survivor, "survivor", log)
        let (observer, blockLog) = self.registerShortLivedObserver(bucket: bucket, center: center, log: log)

        #expect(observer.object == nil)
        bucket.deliver(center)
        #expect(log.calls == [bucket.expected("survivor")])
        #expect(blockLog.object == nil)
        #expect(bucket.registrationCount(center) == 1)
        withExtendedLifetime(survivor) {}
    }

    // The observer dies at the end of this scope. Its second block captures a log nothing else holds, so that
    // log going away shows the table released the block.
    private func registerShortLivedObserver(
        bucket: BucketCase,
        center: PNObservationCenter,
        log: CallLog
    ) -> (observer: WeakReference<TestObserver>, blockLog: WeakReference<CallLog>) {
        let observer = TestObserver("short-lived")
        let blockLog = CallLog()
        bucket.add(center, observer, "short-lived", log)
        bucket.add(center, observer, "short-lived", blockLog)
        return (WeakReference(observer), WeakReference(blockLog))
    }

    // MARK: - Centers

    @Test func eachCenterCallsOnlyItsOwnObservers() {
        let first = PNObservationCenter()
        let second = PNObservationCenter()
        let log = CallLog()
        let shared = TestObserver("shared")
        first.addMessageReceiveObserver(shared) { _ in log.append("first") }
        second.addMessageReceiveObserver(shared) { _ in log.append("second") }

        first.deliverMessageReceive(sampleMessage())
        #expect(log.calls == ["first"])
        second.deliverMessageReceive(sampleMessage())
        #expect(log.calls == ["first", "second"])

        first.removeMessageReceiveObserver(shared)
        first.deliverMessageReceive(sampleMessage())
        second.deliverMessageReceive(sampleMessage())
        #expect(log.calls == ["first", "second", "second"])
        withExtendedLifetime(shared) {}
    }

    @Test func defaultCenterIsOneInstanceDistinctFromCreatedCenters() {
        // Identity only: nothing is registered on or delivered to the shared center here (the test conventions keep
        // that to the serialized shared-client suite).
        let center = PNObservationCenter.defaultCenter()
        #expect(center === PNObservationCenter.defaultCenter())
        #expect(center !== PNObservationCenter())
    }
}

// MARK: - Concurrency

@Suite struct PNObservationCenterConcurrencyTests {
    /// Three centers, each delivering every bucket's event on its own thread (standing for its client's delivery
    /// queue), while twelve workers register, duplicate, remove and abandon observers in all 15 buckets, some from
    /// inside a block. Every center's never-removed sentinels must see every round exactly once.
    ///
    /// Meant to run under `swift test --sanitize=thread` too. Checked: an optimised ThreadSanitizer build
    /// (`-c release --sanitize=thread -Xswiftc -enable-testing`) reports a data race here when a delivery round
    /// walks a copy-on-write share of the locked list instead of a copy of its own.
    @Test(.timeLimit(.minutes(2)))
    func centersStayConsistentWhileManyThreadsChangeObserversDuringDelivery() throws {
        let centers = (0..<3).map { _ in PNObservationCenter() }
        let sentinel = TestObserver("sentinel")
        let sentinelLogs = centers.map { center in
            BucketCase.all.map { bucket in
                let log = CallLog(keepingCalls: false)
                bucket.add(center, sentinel, "sentinel", log)
                return log
            }
        }

        let workersDone = Locked(false)
        let rounds = centers.map { _ in Locked(0) }
        let deliveries = startThreads(centers.count) { index in
            // Each center's delivery thread stands for its client's delivery queue.
            while !workersDone.current || rounds[index].current < 50 {
                for bucket in BucketCase.all {
                    bucket.deliver(centers[index])
                }
                rounds[index].withLock { $0 += 1 }
            }
        }

        let overlapped = Locked(0)
        let workers = startThreads(12) { worker in
            if Self.churn(centers[worker % centers.count], worker: worker) {
                overlapped.withLock { $0 += 1 }
            }
        }
        let workersFinished = workers.wait(timeout: .now() + 90) == .success
        workersDone.withLock { $0 = true }
        try #require(workersFinished)
        try #require(deliveries.wait(timeout: .now() + 30) == .success)

        #expect(overlapped.current == 12)
        for (centerIndex, center) in centers.enumerated() {
            for (bucketIndex, bucket) in BucketCase.all.enumerated() {
                #expect(sentinelLogs[centerIndex][bucketIndex].count == rounds[centerIndex].current, "\(bucket)")
                #expect(bucket.registrationCount(center) == 1, "\(bucket)")
            }
        }
        withExtendedLifetime(sentinel) {}
    }

    /// One worker's churn. Returns whether its anchor observer was called while it worked, which shows that the
    /// changes really overlapped with delivery rounds.
    private static func churn(_ center: PNObservationCenter, worker: Int) -> Bool {
        let anchor = TestObserver("anchor \(worker)")
        let heard = DispatchSemaphore(value: 0)
        let flag = OnceFlag()
        center.addTimeTokenReceivingObserver(anchor) { _, _ in
            if flag.raise() {
                heard.signal()
            }
        }
        // Most observers stay registered for a while (`window`), so that workers remove entries that delivery
        // rounds on the other thread are walking at that moment.
        let log = CallLog(keepingCalls: false)
        var window: [(observer: TestObserver, bucket: BucketCase)] = []
        for iteration in 0..<600 {
            let bucket = BucketCase.all[(worker + iteration) % BucketCase.all.count]
            let observer = TestObserver("worker \(worker) #\(iteration)")
            switch iteration % 4 {
            case 0:
                bucket.add(center, observer, "w", log)
            case 1:
                bucket.add(center, observer, "w", log)
                bucket.add(center, observer, "w", log)  // the duplicate stays until its observer goes away
            case 2:
                bucket.add(center, observer, "w", log)
                bucket.remove(center, observer)
            default:
                // A received message removes it from its bucket, from inside the delivery round.
                bucket.add(center, observer, "w", log)
                center.addMessageReceiveObserver(observer) { [weak observer] _ in
                    guard let observer else {
                        return
                    }
                    bucket.remove(center, observer)
                    center.removeMessageReceiveObserver(observer)
                }
            }
            window.append((observer, bucket))
            if window.count > 16 {
                let oldest = window.removeFirst()
                if iteration.isMultiple(of: 2) {
                    oldest.bucket.remove(center, oldest.observer)
                }  // otherwise it just goes away
            }
        }
        for entry in window {
            entry.bucket.remove(center, entry.observer)
        }
        window.removeAll()
        let overlapped = heard.wait(timeout: .now() + 30) == .success
        center.removeTimeTokenReceivingObserver(anchor)
        return overlapped
    }
}

/// `PNObservationCenter` is an `NSObject`, as in 3.4: centers compare and hash by identity.
@Suite struct PNObservationCenterObjectTests {
    @Test func centersAreNSObjectsComparedByIdentity() {
        let center = PNObservationCenter()
        let other = PNObservationCenter()
        let object: NSObject = center
        #expect(object.isEqual(center))
        #expect(!center.isEqual(other))
        #expect(Set<NSObject>([center, other, center]).count == 2)
    }
}
