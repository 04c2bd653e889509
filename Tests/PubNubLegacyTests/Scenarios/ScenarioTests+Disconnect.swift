import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "Disconnect": S-16 … S-18 (S-19 needs a network loss and is tested with the network faults).

extension ScenarioTests {
    @Test("S-16: user disconnect sends no leave, closes the long-poll, emits did-disconnect once and forgets channels")
    func s16UserDisconnectWhileSubscribed() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let origin = try #require(harness.origin)
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"))
        let b = PNChannel.channelWithName(Self.unique("b"))
        let poll = try await Self.subscribe(harness, ledger, [a, b], id: "subscribe")
        try await eventually("the long-poll parked at the origin") { origin.counters.parkedPolls == 1 }
        var start = harness.mark
        var sentBefore = harness.traffic.count
        harness.client.disconnect()
        try await harness.check([Self.disconnected], from: start)
        try await eventually("the long-poll closed") {
            harness.traffic.requests[poll].failure == .cancelled && origin.counters.parkedPolls == 0
        }
        #expect(!harness.traffic.since(sentBefore).contains { $0.isLeave })
        #expect(!origin.requestLog.contains { $0.target.contains("/leave") })
        #expect(harness.client.subscribedChannels().isEmpty)
        start = harness.mark
        sentBefore = harness.traffic.count
        let (success, failure) = ledger.connect("reconnect")
        harness.client.connectWithSuccessBlock(success, errorBlock: failure)
        // A restore would start right after did-connect, before the time request below could run.
        harness.client.requestServerTimeTokenWithCompletionBlock(ledger.time("time"))
        try await harness.check([Self.willConnect, Self.connected(), Self.timeReceived], from: start)
        #expect(!harness.traffic.since(sentBefore).contains { $0.isSubscribe })
        #expect(harness.client.subscribedChannels().isEmpty)
        ledger.verify()
    }

    @Test("S-17: disconnect waits for the calls made before it; calls made after it fail with 105, each block once")
    func s17DisconnectWaitsForPendingWork() async throws {
        // Layer rule (issue 13, as 3.4.2 did: `+disconnect` took the operation lock like every call): the history
        // request in flight and the publish deferred behind it complete first, then the disconnect runs; a call made
        // after the disconnect runs after it and fails its pre-flight with 105, gate closed (block only). The held
        // history must outlive a loaded machine's pauses, so its timeout is long; no timeout is under test here.
        let harness = try MatrixHarness(.fake) { $0.nonSubscriptionRequestTimeout = 120 }
        defer { harness.stop() }
        let transport = try #require(harness.transport)
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        harness.hold("/v2/history/")
        let start = harness.mark
        harness.client.requestFullHistoryForChannel(harness.channel, withCompletionBlock: ledger.history("history"))
        try await transport.waitForRequest(containing: "/v2/history/")
        _ = harness.client.sendMessage("x", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        harness.client.disconnect()
        harness.client.requestServerTimeTokenWithCompletionBlock(ledger.time("time"))
        // Nothing behind the held history has run yet: calls run one at a time, in call order.
        #expect(!transport.targets.contains { $0.hasPrefix("/publish/") })
        try await transport.answerWhenHeld(containing: "/v2/history/", body: "[[],0,0]")
        try await harness.check(
            [
                Row(
                    event: "history",
                    delegate: "didReceiveMessageHistory",
                    observer: "history",
                    notification: kPNClientDidReceiveMessagesHistoryNotification,
                    block: "history"
                ),
                Self.willSend,
                Self.sent,
                Self.disconnected,
                Self.blockOnly("time", code: kPNRequestExecutionFailedClientNotReadyError),
            ],
            from: start
        )
        #expect(transport.targets.filter { $0.hasPrefix("/publish/") }.count == 1)
        ledger.verify()
    }

    @Test("S-18: disconnect while disconnected sends nothing and emits nothing; did-disconnect at most once in all")
    func s18DisconnectWhileDisconnected() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        // Never connected: nothing to disconnect.
        var start = harness.mark
        harness.client.disconnect()
        harness.client.disconnect()
        try await harness.check([], from: start)
        #expect(harness.traffic.count == 0)
        try await Self.connect(harness, ledger)
        start = harness.mark
        harness.client.disconnect()
        try await harness.check([Self.disconnected], from: start)
        start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.disconnect()
        harness.client.disconnect()
        try await harness.check([], from: start)
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        #expect(harness.recorder.entries.filter { $0.label == "didDisconnect" }.count == 1)
        #expect(Self.state(harness.client) == .disconnected)
        ledger.verify()
    }
}
