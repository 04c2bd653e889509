import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "Unsubscribe": S-54, S-55 (S-50 and S-51 are in LocalOriginScenarioTests; S-52 and S-53 need a
// network loss and are tested with the network faults).

extension ScenarioTests {
    @Test("S-54: unsubscribing from a channel not subscribed completes at once without traffic; the poll runs on")
    func s54UnsubscribeFromAChannelNotSubscribed() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let poll = try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe")
        let z = PNChannel.channelWithName(Self.unique("z"))
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.unsubscribeFromChannel(
            z,
            withCompletionHandlingBlock: ledger.channels("unsubscribe", label: "unsubscribe")
        )
        try await harness.check([Self.unsubscribed()], from: start)
        #expect(harness.recorder.entries.dropFirst(start).allSatisfy { $0.key == "channels:\(z.name)" })
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        #expect(harness.traffic.requests[poll].failure == nil)
        #expect(harness.traffic.requests[poll].status == nil)
        #expect(harness.client.subscribedChannels() == [harness.channel])
        ledger.verify()
    }

    @Test("S-55: a leave answered 403 still removes the channel, completes without error, and b keeps polling")
    func s55LeaveRejected() async throws {
        // LocalOrigin has no access control, so the in-memory transport answers the leave with 403.
        let harness = try MatrixHarness(.fake)
        defer { harness.stop() }
        let transport = try #require(harness.transport)
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"))
        let b = PNChannel.channelWithName(Self.unique("b"))
        var start = harness.mark
        harness.client.subscribeOnChannels([a, b], withCompletionHandlingBlock: ledger.subscribe("subscribe"))
        try await harness.check([Self.subscribed()], from: start)
        let longPoll = try await transport.waitForRequest(containing: "tt=17000000000000100")
        harness.fail("/v2/presence/")
        start = harness.mark
        let sentBefore = transport.targets.count
        harness.client.unsubscribeFromChannel(
            a,
            withCompletionHandlingBlock: ledger.channels("unsubscribe", label: "unsubscribe")
        )
        try await harness.check([Self.unsubscribed()], from: start)
        #expect(harness.recorder.entries.dropFirst(start).allSatisfy { $0.key == "channels:\(a.name)" })
        let sent = Array(transport.targets.dropFirst(sentBefore))
        let leave = try #require(sent.first { $0.contains("/leave") })
        #expect(leave.contains(PercentEncoding.escape(a.name)))
        // The long-poll goes on for b alone with the kept token.
        let next = try #require(sent.first { $0.hasPrefix("/v2/subscribe/") })
        #expect(next.contains("/\(PercentEncoding.escape(b.name))/0?"))
        #expect(next.contains("tt=17000000000000100"))
        #expect(longPoll.contains(PercentEncoding.escape(a.name)))
        #expect(harness.client.subscribedChannels() == [b])
        ledger.verify()
    }
}
