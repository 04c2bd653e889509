import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStorePresenceTests {
    private func events(_ origin: OriginHarness, _ channel: String, after cursor: String) -> [[String: Any]] {
        origin.presenceEvents(on: channel, after: cursor)
    }

    private func cursor(_ origin: OriginHarness) -> String {
        let reply = origin.get("/v2/subscribe/sub/unrelated/0?tt=0")
        return (reply.object["t"] as? [String: Any])?["t"] as? String ?? ""
    }

    @Test func firstSubscribePublishesAJoinWithAllFourKeys() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin)
        origin.get("/subscribe/sub/room/s_12345/0?uuid=alice")
        let join = try #require(self.events(origin, "room", after: start).first)
        #expect(join["action"] as? String == "join")
        #expect(join["uuid"] as? String == "alice")
        #expect(join["occupancy"] as? Int == 1)
        // Whole Unix seconds from the origin's clock, not a timetoken.
        #expect(join["timestamp"] as? Int == 1_700_000_000)
        #expect(origin.handler.counters.presenceEvents == 1)
    }

    @Test func aSubscriberSeesItsOwnJoinOnItsNextPoll() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let handshake = origin.get("/v2/subscribe/sub/room,room-pnpres/0?tt=0&uuid=alice")
        let cursor = (handshake.object["t"] as? [String: Any])?["t"] as? String ?? ""
        let next = origin.get("/v2/subscribe/sub/room,room-pnpres/0?tt=\(cursor)&uuid=alice")
        let envelope = try #require((next.object["m"] as? [[String: Any]])?.first)
        #expect(envelope["c"] as? String == "room-pnpres")
        #expect((envelope["d"] as? [String: Any])?["uuid"] as? String == "alice")
    }

    @Test func repeatedSubscribesDoNotJoinAgainAndOccupancyCountsUUIDs() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin)
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=alice")
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=alice")
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=bob")
        let events = self.events(origin, "room", after: start)
        #expect(events.map { $0["uuid"] as? String } == ["alice", "bob"])
        #expect(events.map { $0["occupancy"] as? Int } == [1, 2])
    }

    @Test func leaveRemovesTheUUIDWithAnEventAndAnActionBody() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/subscribe/sub/a,b/0?tt=0&uuid=alice")
        origin.get("/v2/subscribe/sub/a/0?tt=0&uuid=bob")
        let start = self.cursor(origin)
        let reply = origin.get(
            "/v2/presence/sub_key/sub/channel/a,a-pnpres,b/leave?uuid=alice&callback=lv_12345",
            callback: "lv_12345"
        )
        #expect(reply.status == 200)
        #expect(reply.object["action"] as? String == "leave")
        #expect(reply.object["status"] as? Int == 200)
        let leaves = self.events(origin, "a", after: start)
        #expect(leaves.map { $0["action"] as? String } == ["leave"])
        #expect(leaves.first?["occupancy"] as? Int == 1)
        #expect(self.events(origin, "b", after: start).first?["occupancy"] as? Int == 0)
        // Leaving again, or where never present, publishes nothing.
        origin.get("/v2/presence/sub-key/sub/channel/a/leave?uuid=alice")
        #expect(self.events(origin, "a", after: start).count == 1)
    }

    @Test func presenceIsNeverTrackedOnPresenceChannels() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/subscribe/sub/x-pnpres/0?tt=0&uuid=alice")
        origin.get("/v2/presence/sub-key/sub/channel/y-pnpres/heartbeat?uuid=alice")
        let whereNow = origin.get("/v2/presence/sub-key/sub/uuid/alice")
        #expect(((whereNow.object["payload"] as? [String: Any])?["channels"] as? [String]) == [])
        #expect(origin.handler.counters.presenceEvents == 0)
    }

    @Test func silentUUIDsTimeOutAfterThePresenceTimeout() {
        let origin = OriginHarness { $0.defaultPresenceTimeout = 300 }
        defer { origin.stop() }
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=alice")
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=bob")
        let start = self.cursor(origin)
        origin.clock.advance(by: 200)
        origin.get("/v2/presence/sub-key/sub/channel/room/heartbeat?uuid=bob")
        origin.clock.advance(by: 100)
        origin.handler.sweepPresence()
        #expect(self.events(origin, "room", after: start).isEmpty)
        origin.clock.advance(by: 1)
        origin.handler.sweepPresence()
        let events = self.events(origin, "room", after: start)
        #expect(events.map { $0["action"] as? String } == ["timeout"])
        #expect(events.first?["uuid"] as? String == "alice")
        #expect(events.first?["occupancy"] as? Int == 1)
        #expect(events.first?["timestamp"] as? Int == 1_700_000_301)
        origin.clock.advance(by: 300)
        origin.handler.sweepPresence()
        #expect(self.events(origin, "room", after: start).count == 2)
    }

    @Test func theHeartbeatParameterSetsThatUUIDsTimeout() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/presence/sub-key/sub/channel/room/heartbeat?heartbeat=60&uuid=quick")
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=slow")
        let start = self.cursor(origin)
        origin.clock.advance(by: 61)
        origin.handler.sweepPresence()
        let events = self.events(origin, "room", after: start)
        #expect(events.map { $0["uuid"] as? String } == ["quick"])
        #expect(events.map { $0["action"] as? String } == ["timeout"])
    }

    @Test func aParkedPollKeepsItsUUIDAlive() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let parked = origin.send("/v2/subscribe/sub/room/0?tt=1&uuid=alice&heartbeat=30")
        #expect(parked.response == nil)
        let start = self.cursor(origin)
        for _ in 0..<5 {
            origin.clock.advance(by: 20)
            origin.handler.sweepPresence()
        }
        #expect(self.events(origin, "room", after: start).isEmpty)
        // Once the connection is gone the uuid times out a presence timeout later.
        parked.close()
        origin.clock.advance(by: 31)
        origin.handler.sweepPresence()
        #expect(self.events(origin, "room", after: start).map { $0["action"] as? String } == ["timeout"])
    }

    @Test func stateChangesPublishStateChangeEventsWithData() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=alice")
        let start = self.cursor(origin)
        origin.get("/v2/presence/sub-key/sub/channel/room/uuid/alice/data?state=%7B%22mood%22%3A%22ok%22%7D")
        // The same state again changes nothing.
        origin.get("/v2/presence/sub-key/sub/channel/room/uuid/alice/data?state=%7B%22mood%22%3A%22ok%22%7D")
        let events = self.events(origin, "room", after: start)
        #expect(events.count == 1)
        let event = try #require(events.first)
        #expect(event["action"] as? String == "state-change")
        #expect(event["occupancy"] as? Int == 1)
        #expect((event["data"] as? [String: String]) == ["mood": "ok"])
    }

    @Test func aJoinCarriesTheStateSentWithTheSubscribe() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin)
        let state = OriginHarness.escape("{\"room\":{\"n\":1},\"other\":5}")
        origin.get("/v2/subscribe/sub/room/0?tt=0&uuid=alice&state=\(state)")
        let join = try #require(self.events(origin, "room", after: start).first)
        #expect((join["data"] as? [String: Int]) == ["n": 1])
    }

    @Test func leaveAndTimeoutClearTheState() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/presence/sub-key/sub/channel/room/heartbeat?uuid=alice")
        origin.get("/v2/presence/sub-key/sub/channel/room/uuid/alice/data?state=%7B%22a%22%3A1%7D")
        origin.get("/v2/presence/sub-key/sub/channel/room/leave?uuid=alice")
        let state = origin.get("/v2/presence/sub-key/sub/channel/room/uuid/alice")
        #expect((state.object["payload"] as? [String: Any])?.isEmpty == true)
    }

    @Test func groupsInHeartbeatAndLeaveCoverTheirChannels() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=a,b")
        origin.get("/v2/presence/sub-key/sub/channel/,/heartbeat?channel-group=grp,grp-pnpres&uuid=alice")
        let whereNow = origin.get("/v2/presence/sub-key/sub/uuid/alice")
        #expect(((whereNow.object["payload"] as? [String: Any])?["channels"] as? [String]) == ["a", "b"])
        origin.get("/v2/presence/sub-key/sub/channel/,/leave?channel-group=grp&uuid=alice")
        let after = origin.get("/v2/presence/sub-key/sub/uuid/alice")
        #expect(((after.object["payload"] as? [String: Any])?["channels"] as? [String]) == [])
    }
}
