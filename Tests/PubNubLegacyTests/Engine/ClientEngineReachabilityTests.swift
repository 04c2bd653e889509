import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

/// Probes while connected and the presence heartbeat (ClientEngine+Reachability.swift).
@Suite struct ClientEngineReachabilityTests {
    @Test func aDeadUplinkIsNoticedByTheNextProbe() async throws {
        // S-28: no request fails on its own; the periodic probe times out and starts the loss sequence.
        let recorder = EventRecorder()
        let dead = Locked(false)
        let transport = FakeTransport.origin { request in
            dead.current && request.url.path.hasPrefix("/time/") ? .fail(.timedOut) : nil
        }
        let client = try await ClientEngineConnectionTests.connected(recorder, transport)
        dead.set(true)
        let will = try await recorder.next(.delegate, "willDisconnectWithError", within: 5)
        #expect(will.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        #expect(!client.isConnected())
    }

    @Test func heartbeatsRunWhileConnectedWhenConfigured() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasSuffix("/heartbeat") ? .respond(200, "{\"status\":200}") : nil
        }
        let client = try await PubNubTests.connected(recorder, transport: transport) {
            $0.presenceHeartbeatInterval = 1
            $0.presenceHeartbeatValue = 60
        }
        let name = ClientEngineSubscriptionTests.unique("hb")
        client.subscribeOnChannel(PNChannel.channelWithName(name, shouldObservePresence: true))
        try await recorder.next(.delegate, "didSubscribe")
        let heartbeat = try await transport.waitForRequest(containing: "/heartbeat?", within: 5)
        #expect(heartbeat.hasPrefix("/v2/presence/sub-key/sub-c-test/channel/\(name)/heartbeat?heartbeat=60&"))
        #expect(transport.targets.first { $0.hasPrefix("/v2/subscribe/") }?.contains("heartbeat=60") == true)
        client.disconnect()
    }
}
