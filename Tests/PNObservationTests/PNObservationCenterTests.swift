import Foundation
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
        // Identity only: nothing is registered on or delivered to the shared center here (STYLE.md keeps that
        // to the serialized shared-client suite).
        let center = PNObservationCenter.defaultCenter()
        #expect(center === PNObservationCenter.defaultCenter())
        #expect(center !== PNObservationCenter())
    }
}
