import Foundation
import LocalOrigin
import PubNubLegacy
import TestSupport
import Testing

@testable import PNObservation

/// `PNObservationCenter` fed by real clients against an in-process LocalOrigin: weak release, removal, duplicate
/// registration, changes during delivery, one center per client, and concurrent registration while events flow.
/// Each test uses instance centers and its own clients; the default center is tested in `SharedClientTests`.
@Suite struct ObservationCenterAdapterTests {
    /// A connected client on `origin` whose events arrive on a private serial queue.
    static func connectedClient(_ origin: LocalOrigin) async throws -> PubNub {
        let configuration = PNConfiguration(
            origin: origin.address,
            publishKey: "pub-c-test",
            subscribeKey: "sub-c-test",
            secretKey: nil,
            cipherKey: nil,
            authorizationKey: nil
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = DispatchQueue(label: "observation-test-delivery")
        let client = PubNub(configuration: configuration)
        let connected = CallLog()
        client.connectWithSuccessBlock({ _ in connected.append("connected") }, errorBlock: nil)
        try await eventually("connected.count == 1") { connected.count == 1 }
        return client
    }

    /// Requests a time token and waits for its completion block, which runs after every observer of the event.
    static func timeRound(_ client: PubNub) async throws {
        let done = CallLog()
        client.requestServerTimeTokenWithCompletionBlock { _, _ in done.append("done") }
        try await eventually("done.count == 1") { done.count == 1 }
    }

    struct WaitTimeout: Error {}

    @Test func anObserverThatGoesAwayStopsReceiving() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await Self.connectedClient(origin)
        let center = PNObservationCenter(client: client)
        let log = CallLog()
        var observer: TestObserver? = TestObserver("weak")
        center.addTimeTokenReceivingObserver(observer!) { token, _ in log.append("time \(token != nil)") }
        try await Self.timeRound(client)
        #expect(log.calls == ["time true"])
        weak let gone = observer
        observer = nil
        #expect(gone == nil)
        try await Self.timeRound(client)
        #expect(log.calls == ["time true"])
        #expect(center.timeTokenObservers.count == 0)
        client.disconnect()
    }

    @Test func removedObserversStopAndDuplicatesFireOncePerRegistration() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await Self.connectedClient(origin)
        let center = PNObservationCenter(client: client)
        let log = CallLog()
        let observer = TestObserver("dup")
        center.addTimeTokenReceivingObserver(observer) { _, _ in log.append("first") }
        center.addTimeTokenReceivingObserver(observer) { _, _ in log.append("second") }
        try await Self.timeRound(client)
        #expect(log.calls == ["first", "second"])
        center.removeTimeTokenReceivingObserver(observer)
        try await Self.timeRound(client)
        #expect(log.calls == ["first", "second", "second"])
        center.removeTimeTokenReceivingObserver(observer)
        try await Self.timeRound(client)
        #expect(log.calls == ["first", "second", "second"])
        client.disconnect()
    }

    @Test func changesMadeInsideABlockApplyFromTheNextEvent() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await Self.connectedClient(origin)
        let center = PNObservationCenter(client: client)
        let log = CallLog()
        let first = TestObserver("first")
        let removed = TestObserver("removed")
        let added = TestObserver("added")
        let once = Locked(false)
        center.addTimeTokenReceivingObserver(first) { _, _ in
            log.append("first")
            let isFirstRound = once.withLock { fired in
                defer { fired = true }
                return !fired
            }
            if isFirstRound {
                center.removeTimeTokenReceivingObserver(removed)
                center.addTimeTokenReceivingObserver(added) { _, _ in log.append("added") }
            }
        }
        center.addTimeTokenReceivingObserver(removed) { _, _ in log.append("removed") }
        try await Self.timeRound(client)
        #expect(log.calls == ["first"])
        try await Self.timeRound(client)
        #expect(log.calls == ["first", "first", "added"])
        client.disconnect()
    }

    @Test func eachClientFeedsOnlyItsOwnCenterAndObservingTwiceDeliversOnce() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let one = try await Self.connectedClient(origin)
        let two = try await Self.connectedClient(origin)
        let centerOne = PNObservationCenter(client: one)
        centerOne.observe(one)
        let centerTwo = PNObservationCenter()
        centerTwo.observe(two)
        let log = CallLog()
        let observer = TestObserver()
        centerOne.addTimeTokenReceivingObserver(observer) { _, _ in log.append("one") }
        centerTwo.addTimeTokenReceivingObserver(observer) { _, _ in log.append("two") }
        try await Self.timeRound(one)
        #expect(log.calls == ["one"])
        try await Self.timeRound(two)
        #expect(log.calls == ["one", "two"])
        centerTwo.stopObserving(two)
        try await Self.timeRound(two)
        #expect(log.calls == ["one", "two"])
        one.disconnect()
        two.disconnect()
    }

    @Test func registrationsChangeOnManyThreadsWhileEventsFlow() async throws {
        // Run under `swift test --sanitize=thread`: no report expected.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await Self.connectedClient(origin)
        let center = PNObservationCenter(client: client)
        let log = CallLog(keepingCalls: false)
        let steady = TestObserver("steady")
        center.addTimeTokenReceivingObserver(steady) { _, _ in log.append("steady") }
        let stop = Locked(false)
        let threads = startThreads(6) { index in
            var round = 0
            while !stop.withLock({ $0 }) {
                let observer = TestObserver("t\(index)-\(round)")
                center.addTimeTokenReceivingObserver(observer) { _, _ in log.append("churn") }
                center.addMessageProcessingObserver(observer) { _, _ in log.append("churn") }
                if round % 2 == 0 {
                    center.removeTimeTokenReceivingObserver(observer)
                }
                round += 1
            }
        }
        for _ in 0..<20 {
            try await Self.timeRound(client)
        }
        stop.withLock { $0 = true }
        #expect(threads.wait(timeout: .now() + 30) == .success)
        #expect(log.count >= 20)
        client.disconnect()
    }
}
