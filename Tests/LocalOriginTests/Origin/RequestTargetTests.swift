import TestSupport
import Testing

@testable import LocalOrigin

@Suite struct RequestTargetTests {
    struct Case: Sendable, CustomStringConvertible {
        var target: String
        var segments: [String]
        var parameters: [String: String]
        var description: String { self.target }
    }

    @Test(arguments: [
        Case(target: "/time/0", segments: ["time", "0"], parameters: [:]),
        Case(target: "/a%2Fb/c%2Cd?x=1", segments: ["a/b", "c,d"], parameters: ["x": "1"]),
        // In the query `+` is a space, as the service reads it (a JSON `state=` sent with `+` for spaces by the
        // requests-based Python SDK, pubnub/python `tests/integrational/fixtures/asyncio/state/single_channel.yaml`);
        // an escaped `%2B` is a plus; in the path `+` stays a plus.
        Case(
            target: "/a+b/p?uuid=py%20user+1&auth=a%2Bb&state=%7B%22count%22%3A+5%7D",
            segments: ["a+b", "p"],
            parameters: ["uuid": "py user 1", "auth": "a+b", "state": "{\"count\": 5}"]
        ),
        Case(target: "/p?a+b=c", segments: ["p"], parameters: ["a b": "c"]),
        // A `?` inside a value stays (pubnub/ruby `lib/signatures/state.yml`); one followed by `name=` separates.
        Case(
            target: "/p?state=%7B%22s%22:%22%3C%3E??~%60Z%22%7D&uuid=U?auth=K",
            segments: ["p"],
            parameters: ["state": "{\"s\":\"<>??~`Z\"}", "uuid": "U", "auth": "K"]
        ),
        Case(
            target: "/push?add=a&uuid=U?auth=K",
            segments: ["push"],
            parameters: ["add": "a", "uuid": "U", "auth": "K"]
        ),
        Case(
            target: "/x?state=%7B%22a%22%3A1%7D&flag",
            segments: ["x"],
            parameters: ["state": "{\"a\":1}", "flag": ""]
        ),
        Case(target: "/x?v=a%3Db%26c", segments: ["x"], parameters: ["v": "a=b&c"]),
        Case(target: "/%C3%BC%zz%4", segments: ["ü%zz%4"], parameters: [:]),
        Case(target: "http://127.0.0.1:8090/time/0?uuid=u", segments: ["time", "0"], parameters: ["uuid": "u"]),
        Case(target: "/v2/subscribe/s//0", segments: ["v2", "subscribe", "s", "", "0"], parameters: [:]),
        Case(target: "/a/?b=1&&c=2", segments: ["a", ""], parameters: ["b": "1", "c": "2"]),
    ])
    func splitsBeforeDecoding(_ example: Case) {
        let target = RequestTarget(example.target)
        #expect(target.segments.indices.map { target.segment($0) } == example.segments)
        for (name, value) in example.parameters {
            #expect(target.parameter(name) == value, "\(name)")
        }
    }

    @Test func listsSplitAtRawCommasOnly() {
        let target = RequestTarget("/subscribe/s/a%2Cb,c%20d,,-pnpres/0/0?channel-group=g1,g%2C2,")
        #expect(RequestTarget.list(target.segments[2]) == ["a,b", "c d", "-pnpres"])
        // Query values are decoded first, then split: an escaped comma in a group list separates too.
        #expect(target.listParameter("channel-group") == ["g1", "g", "2"])
        #expect(RequestTarget.list(",") == [])
    }

    @Test func firstParameterWinsAndMissingOnesAreNil() {
        let target = RequestTarget("/x?a=1&a=2")
        #expect(target.parameter("a") == "1")
        #expect(target.parameter("b") == nil)
        #expect(target.segment(5) == nil)
    }

    @Test func decodesInvalidUTF8Lossily() {
        #expect(RequestTarget.decode("%FFa") == "\u{FFFD}a")
        #expect(RequestTarget.decodedBytes("%FF%00+") == [0xFF, 0x00, UInt8(ascii: "+")])
    }

    @Test(arguments: [
        ("/publish/p/s/0/a%FFb/0/1", false),
        ("/v2/history/sub-key/s/channel/a%FEb", false),
        ("/time/0?uuid=%FF", false),
        ("/time/0?%FF=1", false),
        ("/time/0?meta=%7B%22a%22%3A%22%C3%28%22%7D", false),
        ("/v2/subscribe/s/a%C3%BCb,%E2%82%AC/0?tt=0", true),
        ("/time/0?uuid=%zz&x=%", true),  // malformed escapes stay literal text, which is UTF-8
        ("/publish/p/s/0/c/0/%22%F0%9F%98%80%22", true),
        // Each element is decoded alone: halves of one character in two elements are two invalid sequences.
        ("/%C3/%A9", false),
        ("/x?a=%C3&b=%A9", false),
        ("/x?a=%C3=%A9", false),  // one value, `%C3=%A9`: 0xC3 `=` 0xA9 is not UTF-8 either
        ("/x?%C3%A9=%%C3%A9%8", true),
        ("/x?a=%8%9", true),
    ])
    func validityCoversEverySegmentAndParameter(_ target: String, _ valid: Bool) {
        #expect(RequestTarget(target).isValidUTF8 == valid)
    }

    /// Parameters are decoded when a route asks for them; they must be what decoding all of them at once gave:
    /// `RequestTarget.parameters(of:plusIsSpace:)`, the eager decoder (still what signatures use), over the raw
    /// query, and its verdict on UTF-8 together with every segment's.
    @Test func decodingOnDemandAgreesWithDecodingEverything() {
        // Hostile pieces: escapes of every kind (high, split characters, malformed, of separators and of name
        // letters), `+` against `%2B`, raw non-ASCII (the general way), combining marks after separators, and names
        // that only Unicode equivalence matches (U+212A KELVIN SIGN equals `K`, U+212B ANGSTROM SIGN equals `Å`).
        let pieces = [
            "/", "?", "&", "=", "%", "+", "%2B", "%20", "%26", "%3D", "%3F", "%2F", "%80", "%C3", "%A9", "%C3%A9",
            "%FF", "%8", "%%", "%g8", "%75", "u", "uuid", "callback", "=1", "K", "%4B", "%E2%84%AA", "\u{212A}",
            "%E2%84%AB", "\u{212B}", "\u{C5}", "\u{301}", "é", "a", "0", "?uuid=", "http://h",
        ]
        let names = [
            "uuid", "callback", "K", "u", "a", "a b", "a+b", "", "\u{C5}", "\u{212B}", "é", "e\u{301}", "%", "1", "0",
        ]
        var generator = SeededGenerator(seed: 0x29_30)
        for round in 0..<6_000 {
            var target = round % 5 == 0 ? "" : "/p?"
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                target += pieces.randomElement(using: &generator) ?? ""
            }
            let split = RequestTarget(target)
            let eager = RequestTarget.parameters(of: split.rawQuery, plusIsSpace: true)
            #expect(split.parameters.map(\.name) == eager.pairs.map(\.name), "round \(round): \(target)")
            #expect(split.parameters.map(\.value) == eager.pairs.map(\.value), "round \(round): \(target)")
            #expect(
                split.isValidUTF8 == (eager.isValidUTF8 && split.segments.allSatisfy(RequestTarget.decodesToUTF8)),
                "round \(round): \(target)"
            )
            for name in names + eager.pairs.map(\.name) {
                #expect(
                    split.parameter(name) == eager.pairs.first { $0.name == name }?.value,
                    "round \(round): \(target) \(name)"
                )
            }
        }
    }

    @Test func splittingAsBytesAgreesWithTheGeneralWay() {
        // Targets made of what makes splitting interesting: separators, escapes (valid, malformed, not UTF-8), `+`,
        // `://`, and now and then a raw non-ASCII character (which takes the general way).
        let pieces = [
            "/", "?", "&", "=", "%", "+", ":", "//", "://", "a", "Z", "9", "-", "%2F", "%2C", "%FF", "%C3%BC", "%zz",
            "%4", "??", "uuid=", "auth=K", ",", "é", "http://h:1",
        ]
        var generator = SeededGenerator(seed: 0x7a29_e7)
        var asBytes = 0
        for round in 0..<4_000 {
            let count = Int.random(in: 0...14, using: &generator)
            var target = round % 4 == 0 ? "" : "/"
            for _ in 0..<count { target += pieces.randomElement(using: &generator) ?? "" }
            let fast = RequestTarget(target)
            let general = RequestTarget(general: target)
            if RequestTarget.isSplitAsBytes(target) { asBytes += 1 }
            #expect(fast.rawPath == general.rawPath, "round \(round): \(target)")
            #expect(fast.rawQuery == general.rawQuery, "round \(round): \(target)")
            #expect(fast.segments == general.segments, "round \(round): \(target)")
            #expect(fast.parameters.map(\.name) == general.parameters.map(\.name), "round \(round): \(target)")
            #expect(fast.parameters.map(\.value) == general.parameters.map(\.value), "round \(round): \(target)")
            #expect(fast.isValidUTF8 == general.isValidUTF8, "round \(round): \(target)")
        }
        #expect(asBytes > 2_000)
    }
}
