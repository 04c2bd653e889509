import Foundation
import Testing

@testable import PubNubLegacy

/// What 3.x code sees of the service's presence `interval` events (MIGRATION.md §5, "Presence interval events"): one
/// `PNPresenceEvent` per uuid an interval lists, and an interval without a list only updates the channel. The
/// answers are the service's own (pubnub/ruby `fixtures/vcr_cassettes/lib/events/presence_delta.yml`).
@Suite struct ClientEnginePresenceIntervalTests {
    /// A client subscribed to a channel with its presence; the client must be kept alive by the caller.
    private func subscribed() async throws -> (PubNub, EventRecorder, FakeTransport, PNChannel, String) {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let name = ClientEngineSubscriptionTests.unique("interval")
        let channel = PNChannel.channelWithName(name, shouldObservePresence: true)
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        return (client, recorder, transport, channel, name)
    }

    @Test func eachListedUUIDBecomesOnePresenceEvent() async throws {
        let (client, recorder, transport, channel, name) = try await self.subscribed()
        defer { client.disconnect() }
        let interval =
            #"{"action": "interval", "timestamp": 1490958605, "occupancy": 2, "join": ["another-client"], "#
            + #""leave": ["Client-d39lr", "client0"]}"#
        try await transport.answerWhenHeld(
            containing: "tt=\(ClientEngineSubscriptionTests.handshakeToken)",
            body: ClientEngineSubscriptionTests.answer(
                token: "17000000000000500",
                [ClientEngineSubscriptionTests.envelope("\(name)-pnpres", interval, token: "17000000000000501")]
            )
        )
        try await recorder.waitForCount(3, .delegate, "didReceivePresenceEvent")
        let events = recorder.all(.delegate, "didReceivePresenceEvent").compactMap { $0.value as? PNPresenceEvent }
        #expect(events.map(\.type) == [.PNPresenceEventJoin, .PNPresenceEventLeave, .PNPresenceEventLeave])
        #expect(events.map(\.uuid) == ["another-client", "Client-d39lr", "client0"])
        #expect(events.allSatisfy { $0.occupancy == 2 && $0.channel?.name == name })
        #expect(events.allSatisfy { $0.date?.timeTokenValue == 1_490_958_605 })
        #expect(channel.participantsCount == 2)
        #expect(recorder.all(.delegate, "didReceiveMessage").isEmpty)
    }

    @Test func anIntervalWithoutAListOnlyUpdatesTheOccupancy() async throws {
        let (client, recorder, transport, channel, name) = try await self.subscribed()
        defer { client.disconnect() }
        let quiet = #"{"action": "interval", "timestamp": 1490958575, "occupancy": 3}"#
        let refresh = #"{"action": "interval", "timestamp": 1490958585, "occupancy": 40, "here_now_refresh": true}"#
        let marker = #"{"action": "join", "timestamp": 1490958590, "uuid": "last", "occupancy": 41}"#
        try await transport.answerWhenHeld(
            containing: "tt=\(ClientEngineSubscriptionTests.handshakeToken)",
            body: ClientEngineSubscriptionTests.answer(
                token: "17000000000000600",
                [
                    ClientEngineSubscriptionTests.envelope("\(name)-pnpres", quiet, token: "17000000000000601"),
                    ClientEngineSubscriptionTests.envelope("\(name)-pnpres", refresh, token: "17000000000000602"),
                    ClientEngineSubscriptionTests.envelope("\(name)-pnpres", marker, token: "17000000000000603"),
                ]
            )
        )
        let event = try await recorder.next(.delegate, "didReceivePresenceEvent")
        #expect((event.value as? PNPresenceEvent)?.uuid == "last")
        #expect(recorder.all(.delegate, "didReceivePresenceEvent").count == 1)
        #expect(recorder.all(.delegate, "didReceiveMessage").isEmpty)
        #expect(channel.participantsCount == 41)
    }

    @Test func theIntervalReaderReadsTheServiceFields() throws {
        let interval = try #require(
            PresenceInterval(["action": "interval", "timestamp": 1, "occupancy": 5, "timeout": ["t1"], "join": ["j1"]])
        )
        #expect(interval.occupancyCount == 5)
        #expect(interval.events(on: nil).map(\.type) == [.PNPresenceEventJoin, .PNPresenceEventTimeout])
        #expect(PresenceInterval(["action": "join", "uuid": "u", "timestamp": 1, "occupancy": 1]) == nil)
        #expect(PresenceInterval("interval") == nil)
    }
}
