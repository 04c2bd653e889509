import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStoreHistoryTests {
    /// Publishes `m0`…`m{count-1}` on `channel` and returns their timetokens.
    private func fill(_ origin: OriginHarness, _ channel: String = "c", count: Int = 12) -> [UInt64] {
        (0..<count).map { origin.publish("\"m\($0)\"", on: channel) }
    }

    private func entries(_ reply: Reply) -> [String] { reply.array.first as? [String] ?? [] }

    @Test func newestCountByDefaultWithNumericBounds() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let tokens = self.fill(origin)
        let reply = origin.get("/v2/history/sub-key/sub/channel/c?count=5&callback=h_12345", callback: "h_12345")
        #expect(reply.status == 200)
        #expect(reply.array.count == 3)
        #expect(self.entries(reply) == (7..<12).map { "m\($0)" })
        #expect(reply.array[1] is NSNumber && !(reply.array[1] is String))
        #expect((reply.array[1] as? NSNumber)?.uint64Value == tokens[7])
        #expect((reply.array[2] as? NSNumber)?.uint64Value == tokens[11])
    }

    @Test func emptyHistoryIsEmptyArrayAndZeros() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/v2/history/sub-key/sub/channel/nothing").text == "[[],0,0]")
    }

    @Test func reverseTakesTheOldest() {
        let origin = OriginHarness()
        defer { origin.stop() }
        _ = self.fill(origin)
        #expect(
            self.entries(origin.get("/v2/history/sub-key/sub/channel/c?count=3&reverse=true")) == ["m0", "m1", "m2"]
        )
    }

    @Test func startAloneIsExclusiveAndPagesOlder() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let tokens = self.fill(origin)
        let page = origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[7])&count=100")
        #expect(self.entries(page) == (0..<7).map { "m\($0)" })
        let capped = origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[7])&count=2")
        #expect(self.entries(capped) == ["m5", "m6"])
    }

    /// `reverse=true` with `start` alone pages forward: the `count` oldest messages newer than `start`, as the
    /// service answered pubnub/ruby's `all_history_messages_2.yml` (and as 3.4's
    /// `requestHistoryForChannel:from:to:limit:reverseHistory:` sends it); the last token of a page is the next
    /// page's `start`.
    @Test func startAloneWithReversePagesNewer() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let tokens = self.fill(origin)
        let first = origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[3])&count=3&reverse=true")
        #expect(self.entries(first) == ["m4", "m5", "m6"])
        #expect((first.array[1] as? NSNumber)?.uint64Value == tokens[4])
        #expect((first.array[2] as? NSNumber)?.uint64Value == tokens[6])
        let second = origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[6])&count=3&reverse=true")
        #expect(self.entries(second) == ["m7", "m8", "m9"])
        let last = origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[11])&count=3&reverse=true")
        #expect(self.entries(last) == [])
    }

    @Test func endAloneIsInclusiveAndTakesNewer() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let tokens = self.fill(origin)
        #expect(self.entries(origin.get("/v2/history/sub-key/sub/channel/c?end=\(tokens[9])")) == ["m9", "m10", "m11"])
        let oldest = origin.get("/v2/history/sub-key/sub/channel/c?end=\(tokens[4])&count=2&reverse=true")
        #expect(self.entries(oldest) == ["m4", "m5"])
    }

    @Test func bothBoundsTraverseFromStartTowardsEnd() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let tokens = self.fill(origin)
        // start < end: (start, end], oldest first picks.
        let forward = origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[2])&end=\(tokens[5])")
        #expect(self.entries(forward) == ["m3", "m4", "m5"])
        let forwardCapped = origin.get(
            "/v2/history/sub-key/sub/channel/c?start=\(tokens[2])&end=\(tokens[9])&count=2&reverse=false"
        )
        #expect(self.entries(forwardCapped) == ["m3", "m4"])
        // start > end: [end, start), newest first picks; reverse is ignored.
        let backward = origin.get(
            "/v2/history/sub-key/sub/channel/c?start=\(tokens[9])&end=\(tokens[2])&count=2&reverse=true"
        )
        #expect(self.entries(backward) == ["m7", "m8"])
        #expect(self.entries(origin.get("/v2/history/sub-key/sub/channel/c?start=\(tokens[3])&end=\(tokens[3])")) == [])
    }

    @Test func includeTokenAndMetaWrapEachItem() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let plain = origin.publish("{\"a\":1}", on: "c")
        let withMeta = origin.publish("2", on: "c", query: "meta=%7B%22m%22%3A1%7D")
        let reply = origin.get("/v2/history/sub-key/sub/channel/c?include_token=true&include_meta=true")
        let items = try #require(reply.array.first as? [[String: Any]])
        #expect((items[0]["message"] as? [String: Int]) == ["a": 1])
        #expect((items[0]["timetoken"] as? NSNumber)?.uint64Value == plain)
        #expect(!(items[0]["timetoken"] is String))
        #expect(items[0]["meta"] as? String == "")  // the service's answer for a message without meta
        #expect((items[1]["timetoken"] as? NSNumber)?.uint64Value == withMeta)
        #expect((items[1]["meta"] as? [String: Int]) == ["m": 1])
        let tokensOnly = origin.get("/v2/history/sub-key/sub/channel/c?include_token=true")
        #expect((tokensOnly.array.first as? [[String: Any]])?.last?["meta"] == nil)
        let metaOnly = try #require(
            origin.get("/v2/history/sub-key/sub/channel/c?include_meta=true").array.first as? [[String: Any]]
        )
        #expect(metaOnly.map { Set($0.keys) } == [["message", "meta"], ["message", "meta"]])
        let stringTokens = origin.get("/v2/history/sub-key/sub/channel/c?stringtoken=true")
        #expect(stringTokens.array[1] as? String == String(plain))
    }

    @Test(arguments: ["start=abc", "end=1x", "start=-5"])
    func nonNumericBoundsAre400(_ query: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/v2/history/sub-key/sub/channel/c?\(query)")
        #expect(reply.status == 400)
        #expect(reply.object["error"] as? Bool == true)
        #expect(origin.get("/v3/history/sub-key/sub/channel/c?\(query)").status == 400)
    }

    @Test(arguments: [("count=abc", 100), ("count=0", 100), ("count=-3", 100), ("count=500", 100), ("count=7", 7)])
    func countIsClampedNeverRefused(_ query: String, _ expected: Int) {
        let origin = OriginHarness()
        defer { origin.stop() }
        _ = self.fill(origin, count: 120)
        #expect(self.entries(origin.get("/v2/history/sub-key/sub/channel/c?\(query)")).count == expected)
    }

    @Test func anEmptyChannelIs400AndAWrongKeyIsRefused() {
        let origin = OriginHarness { $0.subscribeKeys = ["sub"] }
        defer { origin.stop() }
        #expect(origin.get("/v2/history/sub-key/sub/channel/").status == 400)
        #expect(
            origin.get("/v2/history/sub-key/nope/channel/c").object["message"] as? String == "Invalid Subscribe Key"
        )
    }

    // MARK: - v3

    @Test func v3ReturnsTheNewestPerChannelWithStringTimetokens() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let first = (0..<4).map { origin.publish("{\"i\":\($0)}", on: "fa") }
        origin.publish("\"only\"", on: "fb", query: "uuid=pub-1&meta=%7B%22m%22%3A1%7D")
        let reply = origin.get("/v3/history/sub-key/sub/channel/fa,fb,empty?max=3&include_meta=true&include_uuid=true")
        #expect(reply.object["status"] as? Int == 200)
        #expect(reply.object["error"] as? Bool == false)
        #expect(reply.object["error_message"] as? String == "")
        let channels = try #require(reply.object["channels"] as? [String: [[String: Any]]])
        #expect(Set(channels.keys) == ["fa", "fb"])
        #expect(channels["fa"]?.map { ($0["message"] as? [String: Int])?["i"] } == [1, 2, 3])
        #expect(channels["fa"]?.map { $0["timetoken"] as? String } == first[1...].map { String($0) })
        let only = try #require(channels["fb"]?.first)
        #expect(only["message"] as? String == "only")
        #expect(only["uuid"] as? String == "pub-1")
        #expect((only["meta"] as? [String: Int]) == ["m": 1])
    }

    /// The `include_*` options of a v3 fetch as the service answers them (pubnub/ruby
    /// `fixtures/vcr_cassettes/examples/fetch_messages/*.yml`): `message_type` null for a published message, `meta` ""
    /// when the publish had none, `custom_message_type` when it had one; nothing that was not asked for.
    @Test func v3IncludeOptionsShapeEachItem() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.publish("\"plain\"", on: "o", query: "uuid=u1")
        origin.publish("\"typed\"", on: "o", query: "uuid=u2&custom_message_type=test-message&meta=%7B%22k%22%3A1%7D")
        let all = "include_message_type=true&include_custom_message_type=true&include_meta=true&include_uuid=true"
        let reply = origin.get("/v3/history/sub-key/sub/channel/o?\(all)")
        let items = try #require((reply.object["channels"] as? [String: [[String: Any]]])?["o"])
        #expect(items.count == 2)
        #expect(Set(items[0].keys) == ["message", "timetoken", "message_type", "meta", "uuid"])
        #expect(items[0]["message_type"] is NSNull)
        #expect(items[0]["meta"] as? String == "")
        #expect(items[1]["custom_message_type"] as? String == "test-message")
        #expect((items[1]["meta"] as? [String: Int]) == ["k": 1])
        let bare = origin.get("/v3/history/sub-key/sub/channel/o")
        let bareItems = try #require((bare.object["channels"] as? [String: [[String: Any]]])?["o"])
        #expect(bareItems.map { Set($0.keys) } == [["message", "timetoken"], ["message", "timetoken"]])
    }

    @Test func v3DefaultsTo100ForOneChannelAnd25ForSeveral() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        _ = self.fill(origin, "a", count: 120)
        _ = self.fill(origin, "b", count: 30)
        let one = try #require(origin.get("/v3/history/sub-key/sub/channel/a").object["channels"] as? [String: [Any]])
        #expect(one["a"]?.count == 100)
        let two = try #require(origin.get("/v3/history/sub-key/sub/channel/a,b").object["channels"] as? [String: [Any]])
        #expect(two["a"]?.count == 25 && two["b"]?.count == 25)
        let capped = try #require(
            origin.get("/v3/history/sub-key/sub/channel/a?max=1000").object["channels"] as? [String: [Any]]
        )
        #expect(capped["a"]?.count == 100)
    }

    @Test func v3RangesFollowStartAndEnd() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let tokens = self.fill(origin, "a", count: 10)
        let older = try #require(
            origin.get("/v3/history/sub-key/sub/channel/a?start=\(tokens[5])&max=2").object["channels"]
                as? [String: [[String: Any]]]
        )
        #expect(older["a"]?.map { $0["message"] as? String } == ["m3", "m4"])
        let newer = try #require(
            origin.get("/v3/history/sub-key/sub/channel/a?end=\(tokens[8])").object["channels"]
                as? [String: [[String: Any]]]
        )
        #expect(newer["a"]?.map { $0["message"] as? String } == ["m8", "m9"])
    }

    @Test func v3AnswersAChannelNamedManyTimesOnce() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        _ = self.fill(origin, "a", count: 100)
        origin.publish("\"b0\"", on: "b")
        // The probe's 186-byte shape: one channel repeated up to what the URL allows returned 90 MB.
        let names = Array(repeating: "a", count: 10_000) + ["b", "a"]
        let reply = origin.get("/v3/history/sub-key/sub/channel/\(names.joined(separator: ","))")
        #expect(reply.status == 200)
        #expect(reply.text.components(separatedBy: "\"a\":").count == 2)
        #expect(reply.text.components(separatedBy: "\"b\":").count == 2)
        let channels = try #require(reply.object["channels"] as? [String: [Any]])
        #expect(channels["a"]?.count == 25 && channels["b"]?.count == 1)  // two distinct channels: 25 each
        #expect(reply.text.utf8.count < 4_096)
        let single = try #require(
            origin.get("/v3/history/sub-key/sub/channel/a,a").object["channels"] as? [String: [Any]]
        )
        #expect(single["a"]?.count == 100)  // one distinct channel: the one-channel default
    }

    @Test func v3RefusesMoreThan500DistinctChannels() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let names = (0..<501).map { "c\($0)" }
        let refused = origin.get("/v3/history/sub-key/sub/channel/\(names.joined(separator: ","))")
        #expect(refused.status == 400)
        #expect(refused.object["message"] as? String == "Too Many Channels")
        let accepted = origin.get("/v3/history/sub-key/sub/channel/\(names.dropLast().joined(separator: ","))")
        #expect(accepted.status == 200)
    }

    // MARK: - 3.3's v1

    @Test func v1HistoryIsAPlainArray() {
        let origin = OriginHarness()
        defer { origin.stop() }
        _ = self.fill(origin, count: 5)
        #expect(origin.get("/history/sub/c/0/2").array as? [String] == ["m3", "m4"])
        #expect(origin.get("/history/sub/c/h_1/x", callback: "h_1").array.count == 5)
    }
}
