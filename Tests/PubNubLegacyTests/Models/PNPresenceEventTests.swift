import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct PNPresenceEventTests {
    static var complete: [String: Any] { ["action": "join", "timestamp": 1_700_000_000, "uuid": "u1", "occupancy": 3] }

    @Test func parsesTheFourFields() throws {
        let event = try #require(PNPresenceEvent(eventObject: Self.complete, channel: nil))
        #expect(event.type == .PNPresenceEventJoin)
        #expect(event.uuid == "u1")
        #expect(event.occupancy == 3)
        #expect(event.date?.timeTokenValue == 1_700_000_000)
        #expect(event.date?.date == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func parsesWhatJSONSerializationDecodes() throws {
        let json = #"{"action":"leave","timestamp":1700000001,"uuid":"u2","occupancy":0}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let event = try #require(PNPresenceEvent(eventObject: object, channel: nil))
        #expect(event.type == .PNPresenceEventLeave)
        #expect(event.date?.timeTokenValue == 1_700_000_001)
        #expect(event.uuid == "u2")
        #expect(event.occupancy == 0)
    }

    @Test(arguments: ["action", "timestamp", "uuid", "occupancy"])
    func anyMissingKeyMeansNotAnEvent(_ key: String) {
        var fields = Self.complete
        fields[key] = nil
        #expect(!PNPresenceEvent.isPresenceEventObject(fields))
        #expect(PNPresenceEvent(eventObject: fields, channel: nil) == nil)
    }

    @Test func nonDictionariesAreNotEvents() {
        #expect(PNPresenceEvent(eventObject: "join", channel: nil) == nil)
        #expect(PNPresenceEvent(eventObject: [1, 2], channel: nil) == nil)
    }

    @Test func nullCountsAsPresentAsInThreeFour() {
        var fields = Self.complete
        fields["uuid"] = NSNull()
        #expect(PNPresenceEvent.isPresenceEventObject(fields))
        #expect(PNPresenceEvent(eventObject: fields, channel: nil)?.uuid == nil)
    }

    @Test(arguments: [
        ("join", PNPresenceEventType.PNPresenceEventJoin), ("leave", .PNPresenceEventLeave),
        ("timeout", .PNPresenceEventTimeout), ("state-change", .PNPresenceEventJoin), ("Leave", .PNPresenceEventJoin),
    ])
    func actionsMapLikeThreeFour(_ action: String, _ type: PNPresenceEventType) {
        var fields = Self.complete
        fields["action"] = action
        #expect(PNPresenceEvent.presenceEventForResponse(fields).type == type)
    }

    @Test func mistypedValuesGiveDefaultsInsteadOfCrashing() {
        let event = PNPresenceEvent(response: ["action": 5, "timestamp": "soon", "uuid": 7, "occupancy": -2])
        #expect(event.type == .PNPresenceEventJoin)
        #expect(event.date == nil)
        #expect(event.uuid == nil)
        #expect(event.occupancy == 0)
        #expect(PNPresenceEvent(response: "not a dictionary").occupancy == 0)
    }

    @Test func channelIsNotRetained() {
        var channel: PNChannel? = PNChannel(name: "weak")
        let event = PNPresenceEvent(eventObject: Self.complete, channel: channel)
        #expect(event?.channel?.name == "weak")
        channel = nil
        #expect(event?.channel == nil)
    }

    @Test func descriptionNamesTheAction() {
        let event = PNPresenceEvent(response: ["action": "timeout", "uuid": "u9", "occupancy": 1, "timestamp": 1])
        #expect(event.description.contains("EVENT: timeout"))
        #expect(event.description.contains("USER IDENTIFIER: u9"))
        #expect(event.description.contains("OCCUPANCY: 1"))
    }
}
