import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStoreSubscribeEndpointsTests {
    /// The `t.t` cursor of a v2 answer.
    private func cursor(_ reply: Reply) -> String { (reply.object["t"] as? [String: Any])?["t"] as? String ?? "" }

    private func payloads(_ reply: Reply) -> [Any] {
        (reply.object["m"] as? [[String: Any]] ?? []).compactMap { $0["d"] }
    }

    @Test func v2HandshakeAnswersAtOnceWithAStringCursorAndNumericRegion() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(
            "/v2/subscribe/sub/demo-ch,demo-ch-pnpres/0?tt=0&pnsdk=PubNub-Python%2F10.4.0&uuid=py-sub"
        )
        #expect(reply.status == 200)
        let time = reply.object["t"] as? [String: Any]
        #expect((time?["t"] as? String).flatMap(UInt64.init) != nil)
        #expect(time?["r"] is Int && !(time?["r"] is String))
        #expect((reply.object["m"] as? [Any])?.isEmpty == true)
    }

    @Test func v1HandshakeIsTwoElementsWithAStringCursor() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/subscribe/sub/ch34/s_p1q2r/0?uuid=3f2a", callback: "s_p1q2r")
        #expect(reply.text.hasPrefix("s_p1q2r([[],\""))
        #expect(reply.array.count == 2)
        #expect((reply.array[0] as? [Any])?.isEmpty == true)
        #expect((reply.array[1] as? String).flatMap(UInt64.init) != nil)
    }

    @Test func handshakeDoesNotReplayOlderMessages() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.publish("\"old\"", on: "c")
        let handshake = origin.get("/v2/subscribe/sub/c/0?tt=0")
        #expect(self.payloads(handshake).isEmpty)
        #expect(origin.send("/v2/subscribe/sub/c/0?tt=\(self.cursor(handshake))").response == nil)
    }

    @Test func catchUpDeliversEverythingNewerThanTheCursorOldestFirst() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin.get("/v2/subscribe/sub/a,b/0?tt=0"))
        let first = origin.publish("1", on: "a")
        origin.publish("2", on: "b")
        origin.publish("3", on: "other")
        let last = origin.publish("4", on: "a")
        let reply = origin.get("/v2/subscribe/sub/a,b/0?tt=\(start)&tr=1")
        #expect(self.payloads(reply) as? [Int] == [1, 2, 4])
        #expect(self.cursor(reply) == String(last))
        // Stateless: the same cursor again gets the same messages; a cursor after the first skips it.
        #expect(self.payloads(origin.get("/v2/subscribe/sub/a,b/0?tt=\(start)")) as? [Int] == [1, 2, 4])
        #expect(self.payloads(origin.get("/v2/subscribe/sub/a,b/0?tt=\(first)")) as? [Int] == [2, 4])
    }

    @Test func v2EnvelopesCarryEveryRequiredKey() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = self.cursor(origin.get("/v2/subscribe/sub-c-local/demo-ch/0?tt=0"))
        let timetoken = origin.publish("{\"text\":\"hi\"}", on: "demo-ch", query: "uuid=py-pub&meta=%7B%22m%22%3A1%7D")
        let reply = origin.get("/v2/subscribe/sub-c-local/demo-ch/0?tt=\(start)")
        let envelope = try #require((reply.object["m"] as? [[String: Any]])?.first)
        #expect(envelope["a"] is String)
        #expect(envelope["f"] as? Int == 0)
        #expect(envelope["i"] as? String == "py-pub")
        let publish = envelope["p"] as? [String: Any]
        #expect(publish?["t"] as? String == String(timetoken))
        #expect(publish?["r"] is Int && !(publish?["r"] is String))
        #expect(envelope["k"] as? String == "sub-c-local")
        #expect(envelope["c"] as? String == "demo-ch")
        #expect(envelope["b"] == nil)  // one subscription named: the service leaves the match out
        #expect((envelope["d"] as? [String: String]) == ["text": "hi"])
        #expect((envelope["u"] as? [String: Int]) == ["m": 1])
        #expect(envelope["s"] == nil && envelope["o"] == nil && envelope["cmt"] == nil)
    }

    /// `b` as the service sends it (pubnub/ruby `fixtures/vcr_cassettes/examples/subscribe/*.yml`, pubnub/python
    /// `asyncio/subscription/*.yaml`): absent when the request names one subscription, the channel itself when it
    /// names several, the group or wildcard a message came through otherwise. `s`, `o` and `cmt` echo the publish's
    /// `seqn`, `ortt` (its token as a string) and `custom_message_type`.
    @Test func envelopesNameTheMatchAndEchoWhatThePublisherSet() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/g?add=in-group")
        let start = self.cursor(origin.get("/v2/subscribe/sub/a,a.*/0?tt=0&channel-group=g"))
        origin.publish(
            "1",
            on: "a",
            query: "seqn=681&ortt=%7B%22t%22:14654006646390090%7D&custom_message_type=test-message&uuid=p"
        )
        origin.publish("2", on: "in-group")
        origin.publish("3", on: "a.ruby")
        let several = try #require(
            origin.get("/v2/subscribe/sub/a,a.*/0?tt=\(start)&channel-group=g").object["m"] as? [[String: Any]]
        )
        #expect(several.map { $0["c"] as? String } == ["a", "in-group", "a.ruby"])
        #expect(several.map { $0["b"] as? String } == ["a", "g", "a.*"])
        #expect(several[0]["s"] as? Int == 681)
        #expect((several[0]["o"] as? [String: String]) == ["t": "14654006646390090"])
        #expect(several[0]["cmt"] as? String == "test-message")
        let single = try #require(origin.get("/v2/subscribe/sub/a/0?tt=\(start)").object["m"] as? [[String: Any]])
        #expect(single.count == 1 && single[0]["b"] == nil)
        let group = try #require(
            origin.get("/v2/subscribe/sub/,/0?tt=\(start)&channel-group=g").object["m"] as? [[String: Any]]
        )
        #expect(group.map { $0["b"] as? String } == ["g"])
        let wildcard = try #require(origin.get("/v2/subscribe/sub/a.*/0?tt=\(start)").object["m"] as? [[String: Any]])
        #expect(wildcard.map { $0["c"] as? String } == ["a.ruby"])
        #expect(wildcard.map { $0["b"] as? String } == ["a.*"])
    }

    /// A group named like its channel still names itself as the match, and a wildcard is named as the match of its
    /// own presence channel even when the request names that channel too (pubnub/ruby
    /// `fixtures/vcr_cassettes/lib/events/subscribe-channel-groups.yml`, `examples/subscribe/106.yml`).
    @Test func groupsAndWildcardsAreNamedEvenWhenTheChannelIsToo() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/demo?add=demo")
        let start = (origin.get("/time/0").array.first as? NSNumber)?.stringValue ?? ""
        origin.publish("1", on: "demo")
        origin.publish("2", on: "demo.*-pnpres")
        let group = try #require(
            origin.get("/v2/subscribe/sub/,/0?tt=\(start)&channel-group=demo").object["m"] as? [[String: Any]]
        )
        #expect(group.map { $0["b"] as? String } == ["demo"])
        let wildcard = try #require(
            origin.get("/v2/subscribe/sub/demo.*/0?tt=\(start)").object["m"] as? [[String: Any]]
        )
        #expect(wildcard.map { $0["c"] as? String } == ["demo.*-pnpres"])
        #expect(wildcard.map { $0["b"] as? String } == ["demo.*"])
    }

    /// A message reaches a request once per subscription that matches it, each copy naming the same match, as the
    /// service delivered them (pubnub/ruby `fixtures/vcr_cassettes/examples/subscribe/180.yml`: `demo` named directly
    /// and through the group `demo`; `examples/subscribe/0.yml`: `demo.*-pnpres` named and matched by `demo.*`).
    @Test func aMessageComesOncePerMatchingSubscription() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/demo?add=demo")
        let start = (origin.get("/time/0").array.first as? NSNumber)?.stringValue ?? ""
        origin.publish("1", on: "demo")
        origin.publish("2", on: "demo.*-pnpres")
        origin.publish("3", on: "other")
        let reply = origin.get("/v2/subscribe/sub/demo,demo.*,demo.*-pnpres,other/0?tt=\(start)&channel-group=demo")
        let envelopes = try #require(reply.object["m"] as? [[String: Any]])
        #expect(envelopes.map { $0["c"] as? String } == ["demo", "demo", "demo.*-pnpres", "demo.*-pnpres", "other"])
        #expect(envelopes.map { $0["b"] as? String } == ["demo", "demo", "demo.*", "demo.*", "other"])
        let once = try #require(origin.get("/v2/subscribe/sub/demo/0?tt=\(start)").object["m"] as? [[String: Any]])
        #expect(once.count == 1)
    }

    /// The Ruby SDK's cursor, `t={"r":R,"t":T}` with `T` `0` or a string (pubnub/ruby
    /// `fixtures/vcr_cassettes/examples/subscribe/0.yml`): read as `tt`, so its second poll gets the messages.
    @Test func theJSONCursorOfTheRubySDKIsTheCursor() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let handshake = origin.get("/v2/subscribe/sub/demo/0?t=%7B%22r%22:0,%22t%22:0%7D&uuid=rb")
        #expect((handshake.object["m"] as? [Any])?.isEmpty == true)
        let cursor = self.cursor(handshake)
        origin.publish("\"hello\"", on: "demo")
        let next = origin.get("/v2/subscribe/sub/demo/0?t=%7B%22r%22:1,%22t%22:%22\(cursor)%22%7D&uuid=rb")
        #expect(self.payloads(next) as? [String] == ["hello"])
        #expect(origin.get("/v2/subscribe/sub/demo/0?t=%7B%22r%22:1%7D").status == 400)
        #expect(origin.get("/v2/subscribe/sub/demo/0?t=nonsense").status == 400)
    }

    @Test func v1AnswersWithMessagesUseTheThreeElementForm() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = origin.get("/subscribe/sub/a,b/0/0").array[1] as? String ?? ""
        origin.publish("\"x\"", on: "b")
        let last = origin.publish("{\"y\":1}", on: "a")
        let reply = origin.get("/subscribe/sub/a,b/s_12345/\(start)?uuid=u", callback: "s_12345")
        #expect(reply.array.count == 3)
        #expect((reply.array[0] as? [Any])?.count == 2)
        #expect(reply.array[1] as? String == String(last))
        #expect(reply.array[2] as? String == "b,a")
    }

    @Test func the33FormWithATrailingSlashIsServed() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/subscribe/sub/c/0/0/?uuid=u")
        #expect(reply.status == 200)
        #expect(reply.array.count == 2)
    }

    @Test func answersCarryAtMost100MessagesAndTheCursorOfTheLast() {
        let origin = OriginHarness()
        defer { origin.stop() }
        var cursor = self.cursor(origin.get("/v2/subscribe/sub/c/0?tt=0"))
        let timetokens = (0..<250).map { origin.publish(String($0), on: "c") }
        var received: [Int] = []
        for expected in [100, 100, 50] {
            let reply = origin.get("/v2/subscribe/sub/c/0?tt=\(cursor)")
            let batch = self.payloads(reply) as? [Int] ?? []
            #expect(batch.count == expected)
            received += batch
            cursor = self.cursor(reply)
            #expect(cursor == String(timetokens[received.count - 1]))
        }
        #expect(received == Array(0..<250))
        #expect(origin.send("/v2/subscribe/sub/c/0?tt=\(cursor)").response == nil)
        #expect(origin.handler.counters.deliveries == 250)
    }

    @Test func v1BatchesAreLimitedToo() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let start = origin.get("/subscribe/sub/c/0/0").array[1] as? String ?? ""
        for index in 0..<150 { origin.publish(String(index), on: "c") }
        let reply = origin.get("/subscribe/sub/c/0/\(start)")
        #expect((reply.array[0] as? [Int]) == Array(0..<100))
        #expect((reply.array[2] as? String)?.split(separator: ",").count == 100)
    }

    @Test(arguments: ["abc", "-1", "1.5", "99999999999999999999999"])
    func aNonNumericTimetokenIs400(_ timetoken: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let v2 = origin.get("/v2/subscribe/sub/c/0?tt=\(timetoken)")
        #expect(v2.status == 400)
        #expect(v2.object["error"] as? Bool == true)
        let v1 = origin.get("/subscribe/sub/c/s_12345/\(timetoken)", callback: "s_12345")
        #expect(v1.status == 400)
        #expect(v1.object["error"] as? Bool == true)
    }

    @Test func aNonNumericRegionIs400() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/v2/subscribe/sub/c/0?tt=1&tr=x").status == 400)
    }

    @Test func noChannelIs400ButGroupsAlone() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/v2/subscribe/sub//0?tt=0").status == 400)
        #expect(origin.get("/v2/subscribe/sub/,/0?tt=0").status == 400)
        #expect(origin.get("/subscribe/sub//0/0").status == 400)
        #expect(origin.get("/v2/subscribe/sub/,/0?tt=0&channel-group=g").status == 200)
    }

    @Test func anUnknownSubscribeKeyIs400() {
        let origin = OriginHarness { $0.subscribeKeys = ["sub-ok"] }
        defer { origin.stop() }
        let reply = origin.get("/v2/subscribe/sub-bad/c/0?tt=0")
        #expect(reply.status == 400)
        #expect(reply.object["message"] as? String == "Invalid Subscribe Key")
        #expect(origin.get("/subscribe/sub-ok/c/0/0").status == 200)
    }

    // MARK: - Channel groups

    @Test func v2MessagesThroughAGroupCarryTheGroupAsB() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=a,b")
        let start = self.cursor(origin.get("/v2/subscribe/sub/,/0?tt=0&channel-group=grp"))
        origin.publish("1", on: "a")
        origin.publish("2", on: "b")
        origin.publish("3", on: "c")
        let reply = origin.get("/v2/subscribe/sub/,/0?tt=\(start)&channel-group=grp")
        let envelopes = try #require(reply.object["m"] as? [[String: Any]])
        #expect(envelopes.map { $0["c"] as? String } == ["a", "b"])
        #expect(envelopes.map { $0["b"] as? String } == ["grp", "grp"])
    }

    @Test func v1MessagesThroughAGroupUseTheFourElementForm() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=a")
        let start = origin.get("/subscribe/sub/b/0/0?channel-group=grp").array[1] as? String ?? ""
        origin.publish("1", on: "a")
        origin.publish("2", on: "b")
        let reply = origin.get("/subscribe/sub/b/0/\(start)?channel-group=grp")
        #expect(reply.array.count == 4)
        #expect(reply.array[2] as? String == "grp,b")
        #expect(reply.array[3] as? String == "a,b")
    }

    @Test func aPresenceGroupDeliversThePresenceChannelsOfTheGroup() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/channel-registration/sub-key/sub/channel-group/grp?add=a")
        let start = self.cursor(origin.get("/v2/subscribe/sub/,/0?tt=0&channel-group=grp,grp-pnpres"))
        origin.get("/v2/presence/sub-key/sub/channel/a/heartbeat?uuid=other")
        let reply = origin.get("/v2/subscribe/sub/,/0?tt=\(start)&channel-group=grp,grp-pnpres")
        let envelope = try #require((reply.object["m"] as? [[String: Any]])?.first)
        #expect(envelope["c"] as? String == "a-pnpres")
        #expect(envelope["b"] as? String == "grp-pnpres")
        #expect((envelope["d"] as? [String: Any])?["action"] as? String == "join")
    }
}
