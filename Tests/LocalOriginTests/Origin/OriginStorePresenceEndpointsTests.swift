import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStorePresenceEndpointsTests {
    private func join(_ origin: OriginHarness, _ uuid: String, _ channels: String) {
        origin.get("/v2/subscribe/sub/\(channels)/0?tt=0&uuid=\(uuid)")
    }

    @Test func hereNowForOneChannelIsTheSingleForm() {
        let origin = OriginHarness()
        defer { origin.stop() }
        self.join(origin, "bob", "room")
        self.join(origin, "alice", "room")
        let reply = origin.get("/v2/presence/sub-key/sub/channel/room?callback=p_12345", callback: "p_12345")
        #expect(reply.status == 200)
        #expect(reply.object["uuids"] as? [String] == ["alice", "bob"])
        #expect(reply.object["occupancy"] as? Int == 2)
        #expect(reply.object["status"] as? Int == 200)
        #expect(reply.object["service"] as? String == "Presence")
        #expect(reply.object["payload"] == nil)
    }

    @Test func hereNowForAnEmptyChannelHasEmptyUUIDsAndZeroOccupancy() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/v2/presence/sub_key/sub/channel/nobody")
        #expect(reply.object["uuids"] as? [String] == [])
        #expect(reply.object["occupancy"] as? Int == 0)
    }

    @Test func hereNowWithStateListsObjects() {
        let origin = OriginHarness()
        defer { origin.stop() }
        self.join(origin, "alice", "room")
        self.join(origin, "bob", "room")
        origin.get("/v2/presence/sub-key/sub/channel/room/uuid/alice/data?state=%7B%22n%22%3A1%7D")
        let reply = origin.get("/v2/presence/sub-key/sub/channel/room?state=1")
        let uuids = reply.object["uuids"] as? [[String: Any]]
        #expect(uuids?.map { $0["uuid"] as? String } == ["alice", "bob"])
        #expect((uuids?.first?["state"] as? [String: Int]) == ["n": 1])
        #expect(uuids?.last?["state"] == nil)
    }

    @Test func disableUUIDsKeepsOnlyOccupancy() {
        let origin = OriginHarness()
        defer { origin.stop() }
        self.join(origin, "alice", "room")
        let single = origin.get("/v2/presence/sub-key/sub/channel/room?disable_uuids=1")
        #expect(single.object["uuids"] == nil)
        #expect(single.object["occupancy"] as? Int == 1)
        let several = origin.get("/v2/presence/sub-key/sub/channel/room,x?disable_uuids=1")
        let room = ((several.object["payload"] as? [String: Any])?["channels"] as? [String: Any])?["room"]
        #expect((room as? [String: Any])?["uuids"] == nil)
        #expect((room as? [String: Any])?["occupancy"] as? Int == 1)
    }

    @Test func hereNowForSeveralChannelsOrGroupsIsThePayloadForm() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        self.join(origin, "alice", "a,b")
        self.join(origin, "bob", "a")
        let reply = origin.get("/v2/presence/sub-key/sub/channel/a,b,empty?limit=1000")
        let payload = try #require(reply.object["payload"] as? [String: Any])
        let channels = try #require(payload["channels"] as? [String: [String: Any]])
        #expect(Set(channels.keys) == ["a", "b"])
        #expect(channels["a"]?["uuids"] as? [String] == ["alice", "bob"])
        #expect(channels["a"]?["occupancy"] as? Int == 2)
        #expect(payload["total_channels"] as? Int == 2)
        #expect(payload["total_occupancy"] as? Int == 3)
        #expect(reply.object["uuids"] == nil)

        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=b")
        let grouped = origin.get("/v2/presence/sub-key/sub/channel/a?channel-group=grp")
        let groupedChannels = (grouped.object["payload"] as? [String: Any])?["channels"] as? [String: Any]
        #expect(Set(groupedChannels?.keys.map { $0 } ?? []) == ["a", "b"])
    }

    @Test func globalHereNowListsEveryOccupiedChannel() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        self.join(origin, "alice", "a,b")
        let empty = OriginHarness()
        defer { empty.stop() }
        let reply = origin.get("/v2/presence/sub-key/sub?limit=1000")
        let payload = try #require(reply.object["payload"] as? [String: Any])
        #expect(Set((payload["channels"] as? [String: Any])?.keys.map { $0 } ?? []) == ["a", "b"])
        #expect(payload["total_occupancy"] as? Int == 2)
        let none = try #require(empty.get("/v2/presence/sub-key/sub").object["payload"] as? [String: Any])
        #expect((none["channels"] as? [String: Any])?.isEmpty == true)
        #expect(none["total_channels"] as? Int == 0)
        #expect(none["total_occupancy"] as? Int == 0)
    }

    @Test func whereNowListsTheUUIDsChannels() {
        let origin = OriginHarness()
        defer { origin.stop() }
        self.join(origin, "alice", "b,a,a-pnpres")
        let reply = origin.get("/v2/presence/sub-key/sub/uuid/alice")
        #expect(reply.object["status"] as? Int == 200)
        #expect(((reply.object["payload"] as? [String: Any])?["channels"] as? [String]) == ["a", "b"])
        let nobody = origin.get("/v2/presence/sub-key/sub/uuid/nobody")
        #expect(((nobody.object["payload"] as? [String: Any])?["channels"] as? [String]) == [])
    }

    @Test func heartbeatAnswersOK() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/v2/presence/sub-key/sub/channel/demo-ch/heartbeat?heartbeat=300&uuid=py-pub")
        #expect(reply.status == 200)
        #expect(reply.object["status"] as? Int == 200)
        #expect(reply.object["message"] as? String == "OK")
    }

    @Test func setAndGetStateForOneChannel() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let set = origin.get(
            "/v2/presence/sub-key/sub/channel/demo-ch/uuid/py-pub/data?state=%7B%22mood%22%3A%20%22ok%22%7D&uuid=py-pub"
        )
        #expect(set.status == 200)
        #expect(set.object["status"] as? Int == 200)
        #expect((set.object["payload"] as? [String: String]) == ["mood": "ok"])
        let get = origin.get("/v2/presence/sub-key/sub/channel/demo-ch/uuid/py-pub?uuid=other")
        #expect(get.object["uuid"] as? String == "py-pub")
        #expect(get.object["channel"] as? String == "demo-ch")
        #expect((get.object["payload"] as? [String: String]) == ["mood": "ok"])
    }

    @Test func stateForSeveralChannelsAndGroups() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=c")
        let state = OriginHarness.escape("{\"k\":\"v\"}")
        #expect(origin.get("/v2/presence/sub-key/sub/channel/a,b/uuid/u/data?state=\(state)").status == 200)
        #expect(
            origin.get("/v2/presence/sub-key/sub/channel/./uuid/u/data?state=\(state)&channel-group=grp").status == 200
        )
        let get = origin.get("/v2/presence/sub-key/sub/channel/a,b/uuid/u?channel-group=grp")
        let channels = try #require(
            (get.object["payload"] as? [String: Any])?["channels"] as? [String: [String: String]]
        )
        #expect(channels == ["a": ["k": "v"], "b": ["k": "v"], "c": ["k": "v"]])
        #expect(get.object["uuid"] as? String == "u")
    }

    @Test func nullMembersAndEmptyObjectsClearState() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/presence/sub-key/sub/channel/a/uuid/u/data?state=\(OriginHarness.escape("{\"x\":1,\"y\":2}"))")
        origin.get(
            "/v2/presence/sub-key/sub/channel/a/uuid/u/data?state=\(OriginHarness.escape("{\"x\":null,\"y\":2}"))"
        )
        #expect(
            (origin.get("/v2/presence/sub-key/sub/channel/a/uuid/u").object["payload"] as? [String: Int]) == ["y": 2]
        )
        origin.get("/v2/presence/sub-key/sub/channel/a/uuid/u/data?state=%7B%7D")
        #expect((origin.get("/v2/presence/sub-key/sub/channel/a/uuid/u").object["payload"] as? [String: Int]) == [:])
    }

    @Test func setStateWithoutStateIs400NoStateSpecified() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/v2/presence/sub-key/sub/channel/a/uuid/u/data?callback=x_1", callback: "x_1")
        #expect(reply.status == 400)
        #expect(reply.object["status"] as? Int == 400)
        #expect(reply.object["error"] as? Int == 1)
        #expect(reply.object["message"] as? String == "No state specified.")
        #expect(reply.object["service"] as? String == "Presence")
    }

    @Test(arguments: ["%5B1%5D", "%7Bbad", "5"])
    func setStateWithNonObjectStateIs400(_ state: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/v2/presence/sub-key/sub/channel/a/uuid/u/data?state=\(state)")
        #expect(reply.status == 400)
        #expect(reply.object["error"] as? Int == 1)
    }

    @Test func presenceRequestsWithoutChannelsAre400AndBadKeysAreRefused() {
        let origin = OriginHarness { $0.subscribeKeys = ["sub"] }
        defer { origin.stop() }
        #expect(origin.get("/v2/presence/sub-key/sub/channel/,/leave?uuid=u").status == 400)
        #expect(origin.get("/v2/presence/sub-key/sub/channel//heartbeat?uuid=u").status == 400)
        let bad = origin.get("/v2/presence/sub-key/other/channel/a")
        #expect(bad.status == 400)
        #expect(bad.object["message"] as? String == "Invalid Subscribe Key")
    }
}
