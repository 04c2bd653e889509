import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "UUID and configuration resets": S-56 on all four channels, S-57, S-58 (S-56 end to end with a
// peer-free here-now, S-59 and S-60 are also in LocalOriginScenarioTests).

extension ScenarioTests {
    @Test("S-56: a UUID change leaves with u1, handshakes with u2, then publishes with u2; u1 is gone afterwards")
    func s56UUIDChangeWhileSubscribed() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        harness.client.setClientIdentifier("u1")
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"), shouldObservePresence: true)
        try await Self.subscribe(harness, ledger, [a], id: "subscribe")
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.setClientIdentifier("u2")
        _ = harness.client.sendMessage("after", toChannel: a, withCompletionBlock: ledger.send("publish"))
        // u1's own join (and the message coming back) can arrive in this window; they are not this row's events.
        let unrelated: (FourChannelRecorder.Entry) -> Bool = {
            Self.isPresenceEvent($0) || $0.label == "didReceiveMessage" || $0.label == "messageReceive"
                || $0.label == kPNClientDidReceiveMessageNotification.rawValue
        }
        try await harness.check(
            [Self.unsubscribed(block: false), Self.subscribed(block: false), Self.willSend, Self.sent],
            from: start,
            ignoring: unrelated
        )
        let keys = harness.recorder.entries.dropFirst(start).filter { $0.channel == .delegate && !unrelated($0) }
            .map(\.key)
        #expect(keys.prefix(2) == ["channels:\(a.name)", "channels:\(a.name)"])
        let sent = harness.traffic.since(sentBefore).filter {
            $0.isLeave || $0.isSubscribe || $0.target.hasPrefix("/publish/")
        }
        let leave = try #require(sent.firstIndex { $0.isLeave })
        let handshake = try #require(sent.firstIndex { $0.isSubscribe && $0.timetoken == 0 })
        let publish = try #require(sent.firstIndex { $0.target.hasPrefix("/publish/") })
        #expect(Set(sent[leave].channels) == [a.name, a.name + "-pnpres"])
        #expect(sent[leave].parameter("uuid") == "u1")
        #expect(sent[handshake].parameter("uuid") == "u2")
        #expect(sent[publish].parameter("uuid") == "u2")
        #expect(leave < handshake)
        #expect(handshake < publish)
        // After the change only u2 is on the channel at the origin: the cancelled u1 long-poll did not join again.
        let hereNow = harness.mark
        harness.client.requestParticipantsListForChannel(a, withCompletionBlock: ledger.participants("here now"))
        try await ledger.waitFor("here now")
        let participants = harness.recorder.entries.dropFirst(hereNow).first { $0.channel == .block }?.key
        #expect(participants == "participants:u2")
        ledger.verify()
    }

    @Test("S-57: a UUID change whose leave never answers still handshakes with u2 after the leave timeout")
    func s57UUIDChangeLeaveFails() async throws {
        // Engine timing: the fake transport holds the leave, as a mock that never answers it.
        let harness = try MatrixHarness(.fake)
        defer { harness.stop() }
        let transport = try #require(harness.transport)
        let ledger = BlockLedger(harness.recorder)
        harness.client.setClientIdentifier("u1")
        try await Self.connect(harness, ledger)
        try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe")
        harness.hold("/v2/presence/")
        let start = harness.mark
        let sentBefore = transport.targets.count
        harness.client.setClientIdentifier("u2")
        try await harness.check([Self.unsubscribed(block: false), Self.subscribed(block: false)], from: start)
        // Published once the change is done (one queued behind it would wait out the leave timeout, which is its own
        // request timeout too: it would fail with 106, its timeout counting from its call, docs/BEHAVIOR.md §1.2).
        let publish = harness.mark
        _ = harness.client.sendMessage("after", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        try await harness.check([Self.willSend, Self.sent], from: publish)
        let sent = Array(transport.targets.dropFirst(sentBefore))
        let leave = try #require(sent.firstIndex { $0.contains("/leave") })
        let handshake = try #require(sent.firstIndex { $0.hasPrefix("/v2/subscribe/") && $0.contains("tt=0&") })
        #expect(sent[leave].contains("uuid=u1"))
        #expect(sent[handshake].contains("uuid=u2"))
        #expect(leave < handshake)
        #expect(sent.last { $0.hasPrefix("/publish/") }?.contains("uuid=u2") == true)
        #expect(harness.client.clientIdentifier() == "u2")
        #expect(harness.client.subscribedChannels() == [harness.channel])
        ledger.verify()
    }

    @Test("S-58: a UUID change with no channels, before connect, or to the same value sends nothing and emits nothing")
    func s58UUIDChangeEdgeCases() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        // Not connected: stored, no events, used by the next connect.
        var start = harness.mark
        harness.client.setClientIdentifier("stored")
        try await harness.check([], from: start)
        #expect(harness.traffic.count == 0)
        #expect(harness.client.clientIdentifier() == "stored")
        try await Self.connect(harness, ledger)
        try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe")
        #expect(harness.traffic.requests.compactMap { $0.parameter("uuid") }.allSatisfy { $0 == "stored" })
        #expect(harness.traffic.subscribes.first?.parameter("uuid") == "stored")
        // The same value again: nothing.
        start = harness.mark
        var sentBefore = harness.traffic.count
        harness.client.setClientIdentifier("stored")
        try await harness.check([], from: start)
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        // Connected with no channels: replaced at once, nothing sent, nothing emitted.
        start = harness.mark
        harness.client.unsubscribeFromChannel(
            harness.channel,
            withCompletionHandlingBlock: ledger.channels("unsubscribe", label: "unsubscribe")
        )
        try await harness.check([Self.unsubscribed()], from: start)
        start = harness.mark
        sentBefore = harness.traffic.count
        harness.client.setClientIdentifier("u2")
        try await harness.check([], from: start)
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        #expect(harness.client.clientIdentifier() == "u2")
        start = harness.mark
        harness.client.requestServerTimeTokenWithCompletionBlock(ledger.time("time"))
        try await harness.check([Self.timeReceived], from: start)
        ledger.verify()
    }
}
