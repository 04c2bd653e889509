import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStoreSubscribeTests {
    private func cursor(_ reply: Reply) -> String { (reply.object["t"] as? [String: Any])?["t"] as? String ?? "" }

    private func payloads(_ reply: Reply) -> [Any] {
        (reply.object["m"] as? [[String: Any]] ?? []).compactMap { $0["d"] }
    }

    @Test func aParkedPollIsAnsweredByThePublishThatMatchesIt() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin.get("/v2/subscribe/sub/a/0?tt=0"))
        let poll = origin.send("/v2/subscribe/sub/a/0?tt=\(start)")
        #expect(poll.response == nil)
        #expect(origin.handler.counters.parkedPolls == 1)
        origin.publish("\"elsewhere\"", on: "b")
        #expect(poll.response == nil)
        let timetoken = origin.publish("\"here\"", on: "a")
        // Answered inside the publish request, before its own answer: no timer tick involved (EDGE CASE 7).
        let reply = Reply(try #require(poll.response))
        #expect(self.payloads(reply) as? [String] == ["here"])
        #expect(self.cursor(reply) == String(timetoken))
        #expect(poll.respondCount == 1)
        #expect(origin.handler.counters.parkedPolls == 0)
    }

    @Test func aV1ParkedPollKeepsItsCallback() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = origin.get("/subscribe/sub/a/0/0").array[1] as? String ?? ""
        let poll = origin.send("/subscribe/sub/a/s_abcde/\(start)?uuid=u")
        origin.publish("7", on: "a")
        let reply = Reply(try #require(poll.response), callback: "s_abcde")
        #expect(reply.text.hasPrefix("s_abcde([[7],\""))
        #expect(reply.array[2] as? String == "a")
    }

    @Test func aParkedPollExpiresEmptyWithAFreshCursor() throws {
        let origin = OriginHarness { $0.longPollTimeout = 0.05 }
        defer { origin.stop() }
        let start = self.cursor(origin.get("/v2/subscribe/sub/a/0?tt=0"))
        let poll = origin.send("/v2/subscribe/sub/a/0?tt=\(start)")
        let reply = Reply(try #require(poll.waitForResponse(within: 10)))
        #expect(reply.status == 200)
        #expect(self.payloads(reply).isEmpty)
        #expect(UInt64(self.cursor(reply))! > UInt64(start)!)
        #expect(origin.handler.counters.expiredPolls == 1)
        #expect(origin.handler.counters.parkedPolls == 0)
    }

    @Test func pollsExpireInTurnWhileNewOnesPark() throws {
        let origin = OriginHarness { $0.longPollTimeout = 0.05 }
        defer { origin.stop() }
        let first = origin.send("/v2/subscribe/sub/a/0?tt=1")
        let answered = origin.send("/v2/subscribe/sub/b/0?tt=1")
        origin.publish("1", on: "b")
        #expect(answered.response != nil)
        _ = try #require(first.waitForResponse(within: 10))
        let second = origin.send("/subscribe/sub/c/0/1")
        let reply = Reply(try #require(second.waitForResponse(within: 10)))
        #expect(reply.array.count == 2)
        #expect(origin.handler.counters.expiredPolls == 2)
    }

    @Test func anAbandonedPollConsumesNothing() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin.get("/v2/subscribe/sub/a/0?tt=0"))
        let abandoned = origin.send("/v2/subscribe/sub/a/0?tt=\(start)")
        abandoned.close()
        #expect(origin.handler.counters.parkedPolls == 0)
        #expect(origin.handler.requestLog.last?.status == 0)
        origin.publish("\"m\"", on: "a")
        #expect(abandoned.respondCount == 0)
        let reply = origin.get("/v2/subscribe/sub/a/0?tt=\(start)")
        #expect(self.payloads(reply) as? [String] == ["m"])
    }

    @Test func aSinkClosedBeforeParkingIsDroppedAtOnce() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let sink = FakeSink()
        sink.close()
        origin.handler.handle(HTTPRequest(method: "GET", target: "/v2/subscribe/sub/a/0?tt=1"), sink: sink)
        #expect(origin.handler.counters.parkedPolls == 0)
    }

    @Test func oneThousandParkedPollsAreAllAnsweredByOnePublish() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin.get("/v2/subscribe/sub/hot/0?tt=0"))
        let parked = (0..<1_000).map { index in
            origin.send("/v2/subscribe/sub/hot,cold\(index)/0?tt=\(start)&uuid=u\(index)")
        }
        #expect(parked.allSatisfy { $0.response == nil })
        #expect(origin.handler.counters.parkedPolls == 1_000)
        let timetoken = origin.publish("\"all\"", on: "hot")
        for poll in parked {
            let reply = Reply(try #require(poll.response))
            #expect(self.payloads(reply) as? [String] == ["all"])
            #expect(self.cursor(reply) == String(timetoken))
        }
        #expect(origin.handler.counters.parkedPolls == 0)
    }

    @Test func aGroupChangedWhileParkedWakesOnItsNewChannels() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=a")
        let start = self.cursor(origin.get("/v2/subscribe/sub/,/0?tt=0&channel-group=grp"))
        let poll = origin.send("/v2/subscribe/sub/,/0?tt=\(start)&channel-group=grp")
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=b")
        origin.publish("\"b\"", on: "b")
        let envelope = (Reply(try #require(poll.response)).object["m"] as? [[String: Any]])?.first
        #expect(envelope?["c"] as? String == "b")
        #expect(envelope?["b"] as? String == "grp")
    }

    @Test func observersHearAboutParkedPollsWhenTheyAreAnswered() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let seen = LockedEntries()
        origin.handler.addRequestObserver { seen.append($0) }
        let poll = origin.send("/v2/subscribe/sub/a/0?tt=1")
        #expect(seen.entries.isEmpty)
        origin.publish("1", on: "a")
        _ = try #require(poll.response)
        #expect(seen.entries.map(\.target) == ["/v2/subscribe/sub/a/0?tt=1", "/publish/pub/sub/0/a/0/1"])
    }

    @Test func resolvesDirectChannelsBeforeGroups() {
        let store = OriginStore(settings: OriginSettings())
        store.groups["g"] = {
            var names = OrderedNames(); names.insert("a"); names.insert("b"); return names
        }()
        let subscription = store.resolveSubscription(
            channels: ["a", "x-pnpres"],
            groups: ["g", "g-pnpres", "unknown"]
        )
        #expect(
            subscription.exact
                == ["a": "a", "x-pnpres": "x-pnpres", "b": "g", "a-pnpres": "g-pnpres", "b-pnpres": "g-pnpres"]
        )
        #expect(subscription.wildcards.isEmpty && subscription.namesSeveral)
        #expect(!store.resolveSubscription(channels: ["a", "a"], groups: []).namesSeveral)
        #expect(store.resolveSubscription(channels: ["a.*", "b"], groups: []).wildcards == ["a.*"])
    }
}
