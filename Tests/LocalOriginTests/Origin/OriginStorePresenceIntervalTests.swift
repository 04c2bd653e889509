import Foundation
import Testing

@testable import LocalOrigin

// Presence interval mode (docs/PROTOCOL.md §2.4) and the bound on `heartbeat=`, on the harness's manual clock.

@Suite struct OriginStorePresenceIntervalTests {
    private func events(_ origin: OriginHarness, _ channel: String, after cursor: String) -> [[String: Any]] {
        origin.presenceEvents(on: channel, after: cursor)
    }

    private func cursor(_ origin: OriginHarness) -> String {
        let reply = origin.get("/time/0")
        return (reply.array.first as? NSNumber)?.stringValue ?? ""
    }

    private func join(_ origin: OriginHarness, _ uuid: String) {
        origin.get("/v2/presence/sub-key/sub/channel/room/heartbeat?uuid=\(uuid)")
    }

    /// Above the announce limit the joins, leaves and timeouts are held back and announced together every interval,
    /// with the occupancy; an interval with no change still reports the occupancy (pubnub/ruby
    /// `fixtures/vcr_cassettes/lib/events/presence_delta.yml`).
    @Test func aboveTheAnnounceLimitChangesComeAsIntervalEvents() throws {
        let origin = OriginHarness { settings in
            settings.presenceAnnounceMax = 2
            settings.presenceInterval = 10
        }
        defer { origin.stop() }
        let start = self.cursor(origin)
        self.join(origin, "a")
        self.join(origin, "b")
        self.join(origin, "c")  // occupancy 3 > 2: interval mode
        #expect(self.events(origin, "room", after: start).map { $0["action"] as? String } == ["join", "join"])
        origin.get("/v2/presence/sub-key/sub/channel/room/leave?uuid=a")
        origin.clock.advance(by: 9)
        origin.handler.sweepPresence()
        #expect(self.events(origin, "room", after: start).count == 2)  // the interval has not passed
        origin.clock.advance(by: 1)
        self.join(origin, "b")  // refreshes b; keeps the channel from timing anybody out
        self.join(origin, "c")
        origin.handler.sweepPresence()
        let first = try #require(self.events(origin, "room", after: start).last)
        #expect(first["action"] as? String == "interval")
        #expect(first["occupancy"] as? Int == 2)
        #expect(first["join"] as? [String] == ["c"])
        #expect(first["leave"] as? [String] == ["a"])
        #expect(first["timeout"] == nil && first["uuid"] == nil)
        #expect(first["timestamp"] as? Int == 1_700_000_010)
        // Back at the limit after that interval: announce mode again, one event per change.
        let after = self.cursor(origin)
        origin.get("/v2/presence/sub-key/sub/channel/room/leave?uuid=b")
        let later = self.events(origin, "room", after: after)
        #expect(later.map { $0["action"] as? String } == ["leave"])
        #expect(later.first?["occupancy"] as? Int == 1)
    }

    @Test func anIntervalWithoutChangesReportsTheOccupancyOnly() throws {
        let origin = OriginHarness { settings in settings.presenceAnnounceMax = 0 }
        defer { origin.stop() }
        self.join(origin, "a")
        origin.clock.advance(by: 10)
        self.join(origin, "a")
        origin.handler.sweepPresence()
        let start = self.cursor(origin)
        origin.clock.advance(by: 10)
        self.join(origin, "a")
        origin.handler.sweepPresence()
        let event = try #require(self.events(origin, "room", after: start).first)
        #expect(Set(event.keys) == ["action", "timestamp", "occupancy"])
        #expect(event["occupancy"] as? Int == 1)
    }

    @Test func deltasTooLongForOneMessageAskForAHereNow() throws {
        let origin = OriginHarness { settings in settings.presenceAnnounceMax = 0 }
        defer { origin.stop() }
        let start = self.cursor(origin)
        let long = String(repeating: "u", count: 200)
        for index in 0..<200 { self.join(origin, "\(long)\(index)") }
        origin.clock.advance(by: 10)
        for index in 0..<200 { self.join(origin, "\(long)\(index)") }
        origin.handler.sweepPresence()
        let event = try #require(self.events(origin, "room", after: start).last)
        #expect(event["action"] as? String == "interval")
        #expect(event["occupancy"] as? Int == 200)
        #expect(event["here_now_refresh"] as? Bool == true)
        #expect(event["join"] == nil)
    }

    /// `heartbeat=1e9` no longer keeps a uuid for 30 years: the service's longest presence timeout is 320 s.
    @Test(arguments: ["1e9", "100000", "321", "Infinity"])
    func aHeartbeatAboveTheMaximumIsCut(_ value: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v2/presence/sub-key/sub/channel/room/heartbeat?heartbeat=\(value)&uuid=forever")
        origin.get("/v2/subscribe/sub/room/0?tt=0&heartbeat=\(value)&uuid=subscriber")
        let start = self.cursor(origin)
        origin.clock.advance(by: 321)
        origin.handler.sweepPresence()
        // Both time out: `Infinity` is no number, so they keep the default 300 s.
        #expect(
            Set(self.events(origin, "room", after: start).map { $0["uuid"] as? String }) == ["forever", "subscriber"]
        )
        #expect(OriginStore.presenceTimeout(value) == (value == "Infinity" ? nil : 320))
    }

    @Test func shortHeartbeatsAreHonoured() {
        // The service timed a uuid out 8 s after its last `heartbeat=8` (pubnub/python
        // `tests/integrational/fixtures/tornado/heartbeat/timeout.yaml`).
        #expect(OriginStore.presenceTimeout("8") == 8)
        #expect(OriginStore.presenceTimeout("0.5") == 0.5)
        #expect(OriginStore.presenceTimeout("0") == nil)
        #expect(OriginStore.presenceTimeout("-3") == nil)
    }
}
