import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStoreTests {
    private func history(_ origin: OriginHarness, _ channel: String) -> [String] {
        origin.get("/v2/history/sub-key/sub/channel/\(channel)?count=100").array.first as? [String] ?? []
    }

    @Test func historyKeepsTheConfiguredNumberPerChannel() {
        let origin = OriginHarness { $0.historyLimitPerChannel = 150 }
        defer { origin.stop() }
        for index in 0..<400 { origin.publish("\"m\(index)\"", on: "c") }
        let oldest = origin.get("/v2/history/sub-key/sub/channel/c?count=100&reverse=true").array.first as? [String]
        #expect(oldest?.first == "m250")
        #expect(self.history(origin, "c").last == "m399")
        #expect(origin.handler.counters.messagesStored == 400)
    }

    @Test func theHistoryLimitIsAtLeast100() {
        let origin = OriginHarness { $0.historyLimitPerChannel = 3 }
        defer { origin.stop() }
        for index in 0..<150 { origin.publish("\"m\(index)\"", on: "c") }
        let kept = origin.get("/v2/history/sub-key/sub/channel/c?count=100&reverse=true").array.first as? [String]
        #expect(kept?.first == "m50")
    }

    @Test func catchUpIsBoundedByTheSameLimit() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = (origin.get("/v2/subscribe/sub/c/0?tt=0").object["t"] as? [String: Any])?["t"] as? String ?? ""
        for index in 0..<1_050 { origin.publish(String(index), on: "c") }
        let reply = origin.get("/v2/subscribe/sub/c/0?tt=\(start)")
        let first = (reply.object["m"] as? [[String: Any]])?.first?["d"] as? Int
        #expect(first == 50)
    }

    @Test func pastTheChannelCapTheLeastRecentlyUsedChannelIsForgotten() {
        let origin = OriginHarness { $0.maxChannels = 3 }
        defer { origin.stop() }
        origin.publish("1", on: "a")
        origin.publish("2", on: "b")
        origin.publish("3", on: "c")
        // Reading `a` makes it recently used, so `b` is the one to go.
        #expect(origin.get("/v2/history/sub-key/sub/channel/a").array.first as? [Int] == [1])
        origin.publish("4", on: "d")
        #expect(origin.handler.counters.channels == 3)
        #expect(origin.get("/v2/history/sub-key/sub/channel/b").text == "[[],0,0]")
        #expect(origin.get("/v2/history/sub-key/sub/channel/a").array.first as? [Int] == [1])
        #expect(origin.get("/v2/history/sub-key/sub/channel/c").array.first as? [Int] == [3])
        #expect(origin.get("/v2/history/sub-key/sub/channel/d").array.first as? [Int] == [4])
    }

    @Test func forgettingAChannelDropsItsPresenceQuietly() {
        let origin = OriginHarness { $0.maxChannels = 2 }
        defer { origin.stop() }
        origin.get("/v2/presence/sub-key/sub/channel/room/heartbeat?uuid=alice")
        // `room` and `room-pnpres` fill the cap; two more channels push both out.
        origin.publish("1", on: "x")
        origin.publish("2", on: "y")
        let whereNow = origin.get("/v2/presence/sub-key/sub/uuid/alice")
        #expect(((whereNow.object["payload"] as? [String: Any])?["channels"] as? [String]) == [])
        origin.handler.sweepPresence()
        #expect(origin.handler.counters.channels == 2)
    }

    @Test func manyChannelsStayWithinTheCap() {
        let origin = OriginHarness { $0.maxChannels = 100 }
        defer { origin.stop() }
        for index in 0..<2_000 { origin.publish("\(index)", on: "ch\(index)") }
        #expect(origin.handler.counters.channels == 100)
        #expect(origin.get("/v2/history/sub-key/sub/channel/ch1999").array.first as? [Int] == [1999])
        #expect(origin.get("/v2/history/sub-key/sub/channel/ch1899").text == "[[],0,0]")
    }
}
