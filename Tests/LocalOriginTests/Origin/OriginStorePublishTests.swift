import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStorePublishTests {
    @Test func getPublishAnswersSentWithAStringTimetoken() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(
            "/publish/pub/sub/0/demo-ch/m_a1b2c/%7B%22text%22%3A%22hi%22%7D?uuid=u1",
            callback: "m_a1b2c"
        )
        #expect(reply.status == 200)
        #expect(reply.array.count == 3)
        #expect(reply.array[0] as? Int == 1)
        #expect(reply.array[1] as? String == "Sent")
        #expect((reply.array[2] as? String).flatMap(UInt64.init) != nil)
    }

    @Test func postPublishTakesTheBody() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(
            "/publish/pub/sub/0/demo-ch/0?uuid=py-pub",
            method: "POST",
            body: Array("\"via POST\"".utf8)
        )
        #expect(reply.status == 200)
        let history = origin.get("/v2/history/sub-key/sub/channel/demo-ch")
        #expect(history.array.first as? [String] == ["via POST"])
    }

    @Test func thePayloadIsStoredAsSentAndDecodedAfterSplitting() {
        let origin = OriginHarness()
        defer { origin.stop() }
        // A channel with `/`, `,`, space and ü; a message with `/`, `%` and a 17-digit number.
        let channel = "a b/ü,x"
        origin.publish("{\"slash\":\"/\",\"pct\":\"%2F\",\"n\":14818963579052943}", on: channel)
        let history = origin.get("/v2/history/sub-key/sub/channel/\(OriginHarness.escape(channel))")
        #expect(
            history.text
                == "[[{\"slash\":\"/\",\"pct\":\"%2F\",\"n\":14818963579052943}],\(history.array[1]),\(history.array[2])]"
        )
    }

    /// What the PubNub service does with valid JSON that some decoders refuse (issue 20, item 1): it stores the
    /// published bytes. A lone surrogate escape (Python's `json.dumps` writes one for such a string), an exponent
    /// out of every float's range and a 400-digit integer are RFC 8259 JSON, so they are stored and sent back
    /// byte for byte, in history and in subscribe answers; `Infinity` and `NaN` (what `json.dumps` writes for
    /// those floats) are not JSON and get 400 "Invalid JSON".
    @Test(arguments: [#""\ud800""#, #""\udc00x""#, "1e999999", "-0.0e-999999", String(repeating: "9", count: 400)])
    func validJSONThatDecodersRefuseIsStoredAsSent(_ json: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.publish(json, on: "c")
        let history = origin.get("/v2/history/sub-key/sub/channel/c")
        #expect(history.text.hasPrefix("[[\(json)],"))
        let poll = origin.get("/v2/subscribe/sub/c/0?tt=1&tr=1")
        #expect(poll.text.contains(#""d":\#(json)}"#))
    }

    @Test(arguments: ["Infinity", "-Infinity", "NaN", "%5BInfinity%5D"])
    func nonJSONNumbersAre400(_ message: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/publish/pub/sub/0/c/0/\(message)").array[1] as? String == "Invalid JSON")
    }

    @Test func anUnescapedSlashInTheMessageIsTolerated() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/publish/pub/sub/0/c/0/%22a/b%22").status == 200)
        #expect(origin.get("/v2/history/sub-key/sub/channel/c").array.first as? [String] == ["a/b"])
    }

    @Test(arguments: ["%7Bbad", "'single'", "", "%22unterminated", "1%202"])
    func invalidJSONIs400(_ message: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/publish/pub/sub/0/c/0/\(message)")
        #expect(reply.status == 400)
        #expect(reply.array.count == 3)
        #expect(reply.array[0] as? Int == 0)
        #expect(reply.array[1] as? String == "Invalid JSON")
        #expect((reply.array[2] as? String).flatMap(UInt64.init) != nil)
        #expect(origin.handler.counters.publishes == 0)
    }

    @Test func invalidJSONInAPostBodyIs400() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(
            origin.get("/publish/pub/sub/0/c/0", method: "POST", body: Array("{".utf8)).array[1] as? String
                == "Invalid JSON"
        )
        #expect(origin.get("/publish/pub/sub/0/c/0").array[1] as? String == "Invalid JSON")
    }

    @Test func theSizeLimitCountsTheEscapedChannelAndMessage() {
        let origin = OriginHarness()
        defer { origin.stop() }
        // "\"" + 32,760 × "a" + "\"" escaped: %22 (3) + 32,760 + %22 (3) = 32,766; channel "ab" → 32,768: allowed.
        let fits = "%22" + String(repeating: "a", count: 32_760) + "%22"
        #expect(origin.get("/publish/pub/sub/0/ab/0/\(fits)").status == 200)
        let reply = origin.get("/publish/pub/sub/0/abc/0/\(fits)")
        #expect(reply.status == 400)
        #expect(reply.array[1] as? String == "Message Too Large")
        let body = Array(("\"" + String(repeating: "b", count: 32_767) + "\"").utf8)
        #expect(
            origin.get("/publish/pub/sub/0/c/0", method: "POST", body: body).array[1] as? String == "Message Too Large"
        )
    }

    @Test func storeZeroDeliversButKeepsOutOfHistory() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let cursor = origin.get("/v2/subscribe/sub/c/0?tt=0").object["t"] as? [String: Any]
        origin.publish("\"kept\"", on: "c")
        origin.publish("\"fleeting\"", on: "c", query: "store=0")
        #expect(origin.get("/v2/history/sub-key/sub/channel/c").array.first as? [String] == ["kept"])
        let poll = origin.get("/v2/subscribe/sub/c/0?tt=\(cursor?["t"] as? String ?? "")")
        let payloads = (poll.object["m"] as? [[String: Any]])?.map { $0["d"] as? String }
        #expect(payloads == ["kept", "fleeting"])
        #expect(origin.handler.counters.messagesStored == 1)
        #expect(origin.handler.counters.publishes == 2)
    }

    @Test func anEmptyChannelIs400() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/publish/pub/sub/0//0/1")
        #expect(reply.status == 400)
        #expect(reply.array.first as? Int == 0)
    }

    @Test func invalidMetaIs400AndValidMetaIsKept() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/publish/pub/sub/0/c/0/1?meta=%7Bx").array[1] as? String == "Invalid JSON")
        origin.publish("1", on: "c", query: "meta=%7B%22m%22%3A%201%7D")
        let history = origin.get("/v2/history/sub-key/sub/channel/c?include_meta=true")
        let item = (history.array.first as? [[String: Any]])?.first
        #expect((item?["meta"] as? [String: Int]) == ["m": 1])
    }

    @Test func keySetsRestrictKeys() {
        let origin = OriginHarness {
            $0.publishKeys = ["pub-ok"]
            $0.subscribeKeys = ["sub-ok"]
        }
        defer { origin.stop() }
        let badPub = origin.get("/publish/pub-bad/sub-ok/0/c/m_12345/1", callback: "m_12345")
        #expect(badPub.status == 400)
        #expect(badPub.array[0] as? Int == 0)
        #expect(badPub.array[1] as? String == "Invalid Key")
        #expect(badPub.array[2] is String)
        let badSub = origin.get("/publish/pub-ok/sub-bad/0/c/0/1")
        #expect(badSub.status == 400)
        #expect(badSub.object["message"] as? String == "Invalid Subscribe Key")
        #expect(badSub.object["error"] as? Bool == true)
        #expect(badSub.object["service"] as? String == "Access Manager")
        #expect(badSub.object["status"] as? Int == 400)
        #expect(origin.get("/publish/pub-ok/sub-ok/0/c/0/1").status == 200)
        // Both wrong: the subscribe key is checked first, as the service does.
        #expect(origin.get("/publish/pub-bad/sub-bad/0/c/0/1").object["message"] as? String == "Invalid Subscribe Key")
    }

    @Test func emptyKeysAreRefusedEvenWithoutKeySets() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/publish//sub/0/c/0/1").array[1] as? String == "Invalid Key")
        #expect(origin.get("/publish/pub//0/c/0/1").object["message"] as? String == "Invalid Subscribe Key")
    }
}
