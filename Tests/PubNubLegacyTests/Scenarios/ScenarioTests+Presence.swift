import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "Presence": S-48, S-49 (S-47 is in LocalOriginScenarioTests).

extension ScenarioTests {
    static let presenceEnabled = Row(
        event: "presence enabled",
        delegate: "didEnablePresenceObservation",
        observer: "presenceEnable",
        notification: kPNClientPresenceEnablingDidCompleteNotification,
        block: "presenceEnable"
    )

    static let presenceDisabled = Row(
        event: "presence disabled",
        delegate: "didDisablePresenceObservation",
        observer: "presenceDisable",
        notification: kPNClientPresenceDisablingDidCompleteNotification,
        block: "presenceDisable"
    )

    @Test("S-48: enabling presence sends no leave and continues a and a-pnpres from the last token")
    func s48EnablePresence() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"))
        let poll = try await Self.subscribe(harness, ledger, [a], id: "subscribe")
        let token = try #require(harness.traffic.requests[poll].timetoken)
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.enablePresenceObservationForChannel(
            a,
            withCompletionHandlingBlock: ledger.channels("enable", label: "presenceEnable")
        )
        try await harness.check([Self.presenceEnabled], from: start, ignoring: Self.isPresenceEvent)
        #expect(harness.recorder.entries.dropFirst(start).first { $0.channel == .block }?.key == "channels:\(a.name)")
        let next = try await harness.traffic.wait(from: sentBefore, "the next subscribe") { $0.isSubscribe }
        #expect(next[0].channels == [a.name, a.name + "-pnpres"])
        #expect(next[0].timetoken == token)
        #expect(!harness.traffic.since(sentBefore).contains { $0.isLeave })
        #expect(harness.client.isPresenceObservationEnabledForChannel(a))
        ledger.verify()
    }

    @Test("S-49: disabling presence sends no leave and continues only a from the last token")
    func s49DisablePresence() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"), shouldObservePresence: true)
        let poll = try await Self.subscribe(harness, ledger, [a], id: "subscribe")
        #expect(Set(harness.traffic.requests[poll].channels) == [a.name, a.name + "-pnpres"])
        // The client's own join answers the first long-poll; wait for the one after it so "the last token" is
        // settled before the change.
        try await harness.traffic.wait(for: 3, "the long-poll after the own join") { $0.isSubscribe }
        let start = harness.mark
        let current = try #require(harness.traffic.requests.lastIndex { $0.isSubscribe })
        let token = try #require(harness.traffic.requests[current].timetoken)
        let sentBefore = harness.traffic.count
        harness.client.disablePresenceObservationForChannel(
            a,
            withCompletionHandlingBlock: ledger.channels("disable", label: "presenceDisable")
        )
        try await harness.check([Self.presenceDisabled], from: start, ignoring: Self.isPresenceEvent)
        let next = try await harness.traffic.wait(from: sentBefore, "the next long-poll") { $0.isSubscribe }
        #expect(next[0].channels == [a.name])
        #expect(next[0].timetoken == token)
        #expect(!harness.traffic.since(sentBefore).contains { $0.isLeave })
        #expect(!harness.client.isPresenceObservationEnabledForChannel(a))
        ledger.verify()
    }
}
