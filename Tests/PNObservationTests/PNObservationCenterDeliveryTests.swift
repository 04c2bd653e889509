import Testing

@testable import PNObservation

@Suite struct PNObservationCenterDeliveryTests {
    @Test(arguments: BucketCase.all)
    func eventReachesTheObserversOfItsOwnBucketOnly(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        for each in BucketCase.all {
            each.add(center, observer, each.name, log)
        }

        bucket.deliver(center)
        #expect(log.calls == [bucket.expected(bucket.name)])
        withExtendedLifetime(observer) {}
    }

    @Test(arguments: BucketCase.all)
    func removingFromOneBucketLeavesTheOtherBucketsOfTheSameObserver(bucket: BucketCase) {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        for each in BucketCase.all {
            each.add(center, observer, each.name, log)
        }

        bucket.remove(center, observer)
        for each in BucketCase.all {
            each.deliver(center)
        }
        let expected = BucketCase.all.filter { $0.name != bucket.name }.map { $0.expected($0.name) }
        #expect(log.calls == expected)
        withExtendedLifetime(observer) {}
    }

    @Test func deliveryWithNoObserversDoesNothing() {
        let center = PNObservationCenter()
        for bucket in BucketCase.all {
            bucket.deliver(center)
            #expect(bucket.registrationCount(center) == 0)
        }
    }
}
