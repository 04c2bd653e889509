import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// S-29 (docs/BEHAVIOR.md §2.2): a reachability probe lent a keep-alive connection that the origin was closing at
/// that moment loses it without an answer, which says nothing about the origin; it is sent once more before it
/// counts. The scripted transport fails the subscriber's long-poll with a lost connection (the probe it starts is
/// what decides between a silent re-issue and a network loss) and the next `/time` requests as the test says.
@Suite struct ProbeResendTests {
    /// A connected client subscribed to one channel, its long-poll held by `transport`; probes an hour apart, so the
    /// only probes are the ones the test makes the client send.
    static func subscribed(on transport: FakeTransport, recorder: EventRecorder) async throws -> PubNub {
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport,
            timings: .quietProbe
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: nil)
        try await recorder.next(.block, "connect")
        client.subscribeOnChannel(PNChannel.channelWithName("probe-resend"))
        try await recorder.next(.delegate, "didSubscribe")
        try await transport.waitForRequest(containing: Self.longPoll)
        return client
    }

    /// The long-poll after the fake origin's handshake answer.
    static let longPoll = "tt=17000000000000100"

    /// A fake origin whose next `lost.current` time requests fail with a lost connection.
    static func origin(losing lost: Locked<Int>) -> FakeTransport {
        FakeTransport.origin { request in
            guard request.url.path.hasPrefix("/time/") else { return nil }
            return lost.withLock { left -> FakeTransport.Reply? in
                guard left > 0 else { return nil }
                left -= 1
                return .fail(SocketFailure.connectionLost)
            }
        }
    }

    static func timeRequests(_ transport: FakeTransport) -> Int {
        transport.targets.count { $0.hasPrefix("/time/") }
    }

    @Test func aProbeWhoseConnectionIsLostOnceIsSentAgainAndTheLongPollResumesSilently() async throws {
        let lost = Locked(0)
        let transport = Self.origin(losing: lost)
        let recorder = EventRecorder()
        let client = try await Self.subscribed(on: transport, recorder: recorder)
        let events = recorder.names(.delegate).count
        let probes = Self.timeRequests(transport)
        lost.set(1)
        #expect(transport.failHeld(containing: Self.longPoll, with: SocketFailure.connectionLost))
        // Re-issued with the same token once the probe's second attempt got its answer.
        try await transport.waitForRequest(containing: Self.longPoll, count: 2, within: 10)
        #expect(Self.timeRequests(transport) == probes + 2)
        #expect(recorder.names(.delegate).count == events, "\(recorder.names(.delegate).dropFirst(events))")
        #expect(client.isConnected())
        client.disconnect()
    }

    @Test func aProbeWhoseConnectionIsLostTwiceCountsAsNotReachable() async throws {
        let lost = Locked(0)
        let transport = Self.origin(losing: lost)
        let recorder = EventRecorder()
        let client = try await Self.subscribed(on: transport, recorder: recorder)
        let probes = Self.timeRequests(transport)
        lost.set(2)
        #expect(transport.failHeld(containing: Self.longPoll, with: SocketFailure.connectionLost))
        let will = try await recorder.next(.delegate, "willDisconnectWithError", within: 10)
        #expect(will.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        // One probe, sent twice: no third attempt before the loss was reported.
        #expect(Self.timeRequests(transport) == probes + 2)
        client.disconnect()
    }
}
