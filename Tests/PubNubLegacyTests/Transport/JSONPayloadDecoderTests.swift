import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// `JSONPayloadDecoder` returns exactly what corelibs' `JSONSerialization` returns — same dynamic type at every node,
/// same `NSNumber` storage and value, the shared Boolean objects, the same Unicode scalars — or nil. The oracle is
/// `JSONSerialization` itself: on seeded random JSON texts (`JSONTextGenerator`, valid and broken ones) and on one
/// test per fact the decoder's header comment states, so a change of either platform or decoder shows. The facts are
/// corelibs': on Apple platforms the decoder is off and the suite does not run.
@Suite(.enabled(if: JSONPayloadDecoder.isEnabled)) struct JSONPayloadDecoderTests {
    static func oracle(_ text: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
    }

    static func decoded(_ text: [UInt8]) -> Any? {
        text.withUnsafeBytes { JSONPayloadDecoder.decode($0) }
    }

    static func decoded(_ text: String) -> Any? { Self.decoded(Array(text.utf8)) }
    static func oracle(_ text: String) -> Any? { Self.oracle(Array(text.utf8)) }

    /// Where `value` and `expected` differ (type, storage, value, identity), as a path and a reason; nil when they are
    /// the same in every respect the decoder promises.
    static func difference(_ value: Any, _ expected: Any, at path: String = "$") -> String? {
        guard ObjectIdentifier(type(of: value)) == ObjectIdentifier(type(of: expected)) else {
            return "\(path): \(type(of: value)) instead of \(type(of: expected))"
        }
        switch (value, expected) {
        case (let value as [String: Any], let expected as [String: Any]):
            let keys = value.keys.map { Array($0.unicodeScalars) }.sorted { $0.lexicographicallyPrecedes($1) }
            let expectedKeys = expected.keys.map { Array($0.unicodeScalars) }
                .sorted { $0.lexicographicallyPrecedes($1) }
            guard keys == expectedKeys else { return "\(path): keys \(value.keys) instead of \(expected.keys)" }
            for (key, member) in value {
                if let difference = Self.difference(member, expected[key]!, at: "\(path).\(key.debugDescription)") {
                    return difference
                }
            }
            return nil
        case (let value as [Any], let expected as [Any]):
            guard value.count == expected.count else {
                return "\(path): \(value.count) elements, not \(expected.count)"
            }
            for (index, (element, other)) in zip(value, expected).enumerated() {
                if let difference = Self.difference(element, other, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (let value as String, let expected as String):
            return Array(value.unicodeScalars) == Array(expected.unicodeScalars)
                ? nil : "\(path): \(value.debugDescription) instead of \(expected.debugDescription)"
        case (is NSNull, is NSNull):
            return nil
        case (let value as NSNumber, let expected as NSNumber):
            let type = String(cString: value.objCType)
            let expectedType = String(cString: expected.objCType)
            let booleans = [NSNumber(value: true), NSNumber(value: false)]
            let isBoolean = booleans.contains { $0 === value }
            let expectedIsBoolean = booleans.contains { $0 === expected }
            let same =
                type == expectedType && isBoolean == expectedIsBoolean && (!isBoolean || value === expected)
                && (type == "d"
                    ? value.doubleValue.bitPattern == expected.doubleValue.bitPattern
                    : value.int64Value == expected.int64Value && value.uint64Value == expected.uint64Value)
            return same ? nil : "\(path): \(value) (\(type)) instead of \(expected) (\(expectedType))"
        default:
            return "\(path): \(Swift.type(of: value)) is not a kind JSON decodes to"
        }
    }

    /// The seeds of one run: `JSON_DECODER_SEED` alone when set, otherwise three fixed seeds and a fresh one.
    static func seeds() -> [UInt64] {
        randomTestSeeds(overriddenBy: "JSON_DECODER_SEED")
    }

    // MARK: - Random texts

    @Test func randomTextsDecodeAsJSONSerializationDecodesThem() {
        for seed in Self.seeds() {
            var generator = JSONTextGenerator(seed: seed)
            var accepted = 0
            var fast = 0
            var broken = 0
            var failures = 0
            for index in 0..<4_000 where failures < 3 {
                let text = generator.text()
                let context = "seed \(seed) case \(index) (rerun with JSON_DECODER_SEED=\(seed))"
                let expected = Self.oracle(text)
                if expected == nil { broken += 1 } else { accepted += 1 }
                guard let value = Self.decoded(text) else { continue }
                fast += 1
                let shown = String(decoding: text, as: UTF8.self).debugDescription
                guard let expected else {
                    failures += 1
                    Issue.record("\(context): decoded \(shown), which JSONSerialization refuses")
                    continue
                }
                if let difference = Self.difference(value, expected) {
                    failures += 1
                    Issue.record("\(context): \(shown): \(difference)")
                }
            }
            // The generator's texts are mostly valid and in the decoder's subset: a decoder that says nil to
            // everything must not pass. Both kinds must also really occur.
            #expect(fast * 2 > accepted, "seed \(seed): only \(fast) of \(accepted) valid texts decoded")
            #expect(broken > 200, "seed \(seed): only \(broken) refused texts")
        }
    }

    @Test func typicalPayloadsAreAllDecodedHere() {
        var generator = JSONTextGenerator(seed: 7)
        for index in 0..<2_000 {
            let text = Array(generator.typicalPayload(index).utf8)
            let shown = String(decoding: text, as: UTF8.self)
            guard let value = Self.decoded(text) else {
                Issue.record("left \(shown) to JSONSerialization")
                continue
            }
            if let expected = Self.oracle(text), let difference = Self.difference(value, expected) {
                Issue.record("\(shown): \(difference)")
            }
        }
    }

    // MARK: - The facts in the decoder's header, one by one

    /// Asserts the decoder returns a value identical to `JSONSerialization`'s for `text`.
    static func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let value = Self.decoded(text) else {
            Issue.record("\(text.debugDescription) left to JSONSerialization", sourceLocation: sourceLocation)
            return
        }
        guard let expected = Self.oracle(text) else {
            Issue.record("\(text.debugDescription) is refused by JSONSerialization", sourceLocation: sourceLocation)
            return
        }
        if let difference = Self.difference(value, expected) {
            Issue.record("\(text.debugDescription): \(difference)", sourceLocation: sourceLocation)
        }
    }

    @Test func containersAreSwiftCollectionsAndNullIsNSNull() throws {
        let object = try #require(Self.oracle(#"{"a":[1,"x",null],"b":{}}"#))
        #expect(type(of: object) == [String: Any].self)
        #expect(type(of: (object as! [String: Any])["a"]!) == [Any].self)
        #expect(type(of: (object as! [String: Any])["a"].map { ($0 as! [Any])[2] }!) == NSNull.self)
        Self.expectSame(#"{"a":[1,"x",null],"b":{}}"#)
        Self.expectSame("[]")
        Self.expectSame(" null ")
    }

    @Test func stringsKeepTheirScalarsAndEscapesAreDecoded() throws {
        let decomposed = try #require(Self.oracle(#""e\u0301""#) as? String)
        #expect(Array(decomposed.unicodeScalars) == ["e", "\u{301}"])
        for text in [
            #""e\u0301""#, "\"e\u{301}\"", #""\u00e9""#, #""\uD83D\uDE00""#, "\"😀𝒜\"", #""\u0000\u001f""#,
            #""\"\\\/\b\f\n\r\t""#, #""\uFFFF\uFFFE""#, "\"\u{7F}\u{2028}\u{FFFE}\"", #""""#,
        ] {
            Self.expectSame(text)
        }
    }

    @Test func rawByteOrderMarksAreLeftToJSONSerialization() throws {
        // Corelibs drops a raw U+FEFF at the start of a string and right after an escape, keeps it elsewhere.
        let dropped = try #require(Self.oracle("[\"\u{FEFF}a\u{FEFF}\", \"\\u00e9\u{FEFF}\"]") as? [String])
        #expect(dropped.map { Array($0.unicodeScalars) } == [["a", "\u{FEFF}"], ["é"]])
        for text in ["\"\u{FEFF}a\"", "\"a\u{FEFF}\"", "{\"\u{FEFF}\":1}", "\"\\n\u{FEFF}\""] {
            #expect(Self.decoded(text) == nil, "\(text.debugDescription)")
        }
        Self.expectSame(#""\uFEFF\ufeffa\uFEFF""#)
    }

    @Test func booleansAreTheSharedNSNumbers() throws {
        let yes = try #require(Self.oracle("true") as? NSNumber)
        let no = try #require(Self.oracle("false") as? NSNumber)
        #expect(yes === NSNumber(value: true) && no === NSNumber(value: false))
        #expect(try #require(Self.decoded("true") as? NSNumber) === yes)
        #expect(try #require(Self.decoded("[false]") as? [Any]).first as? NSNumber === no)
    }

    @Test func integersAreInt64NumbersWithCorelibsStorage() throws {
        for (text, type) in [("-1", "i"), ("0", "i"), ("-0", "i"), ("12", "i"), ("13", "q"), ("-2", "q"), ("17", "q")] {
            let number = try #require(Self.oracle(text) as? NSNumber)
            #expect(String(cString: number.objCType) == type, "\(text)")
            Self.expectSame(text)
        }
        for value in Int64(-300)...300 { Self.expectSame(String(value)) }
        for text in ["999999999999999999", "-999999999999999999", "2147483648", "-2147483649", "4294967296"] {
            Self.expectSame(text)
        }
    }

    @Test func longIntegersAreLeftToJSONSerialization() throws {
        // 19 digits: Int64.max is "q", but -1000000000000000000 and -9223372036854775807 are NSDecimalNumber.
        #expect(String(cString: try #require(Self.oracle("9223372036854775807") as? NSNumber).objCType) == "q")
        #expect(Self.oracle("-1000000000000000000") is NSDecimalNumber)
        #expect(Self.oracle("-9223372036854775807") is NSDecimalNumber)
        #expect(String(cString: try #require(Self.oracle("12345678901234567890") as? NSNumber).objCType) == "Q")
        #expect(Self.oracle("18446744073709551616") is NSDecimalNumber)
        for text in [
            "9223372036854775807", "-1000000000000000000", "-9223372036854775807", "-9223372036854775808",
            "12345678901234567890", "18446744073709551616", String(repeating: "7", count: 400),
        ] {
            #expect(Self.decoded(text) == nil, "\(text)")
        }
    }

    @Test func shortRealsAreDoubleNumbers() throws {
        let one = try #require(Self.oracle("1.0") as? NSNumber)
        #expect(String(cString: one.objCType) == "d")
        #expect(try #require(Self.oracle("-0.0") as? NSNumber).doubleValue.sign == .minus)
        #expect(try #require(Self.oracle("1e-400") as? NSNumber).doubleValue == 0)
        for text in [
            "1.0", "-0.0", "0.1", "1.5", "1e2", "1E+2", "2.5e-3", "-4.0E+3", "1e-400", "5e-324", "2e-324", "1e22",
            "1.234567890123456", "123456789012.5", "1.5e-300", "1.7976931348623157e308", "0e0", "-0.0e0",
        ] where text.utf8.count <= JSONPayloadDecoder.maximumRealLength {
            Self.expectSame(text)
        }
    }

    @Test func longOrHugeRealsAreLeftToJSONSerialization() {
        #expect(Self.oracle("1.2345678901234567") is NSDecimalNumber)
        #expect(Self.oracle("0.0000000000000001") is NSDecimalNumber)
        #expect(Self.oracle("1e400") == nil && Self.oracle("1e999999") == nil)
        for text in ["1.2345678901234567", "0.0000000000000001", "1e400", "-1e400", "1e999999", "9007199254740993.0"] {
            #expect(Self.decoded(text) == nil, "\(text)")
        }
    }

    @Test func repeatedKeysAreLeftToJSONSerialization() throws {
        let last = try #require(Self.oracle(#"{"a":1,"a":2}"#) as? [String: Any])
        #expect(last["a"] as? Int == 2)
        let equivalent = try #require(Self.oracle(#"{"e\u0301":1,"é":2}"#) as? [String: Any])
        #expect(equivalent.count == 1)
        #expect(equivalent.keys.map { Array($0.unicodeScalars) } == [["e", "\u{301}"]])
        for text in [#"{"a":1,"a":2}"#, #"{"e\u0301":1,"é":2}"#, #"[{"b":{"x":1,"x":1}}]"#] {
            #expect(Self.decoded(text) == nil, "\(text)")
        }
    }

    @Test func corelibsExtensionsOfJSONAreLeftToIt() {
        for text in ["[1,]", #"{"a":1,}"#, "\u{FEFF}1", "\u{FEFF}{}"] {
            #expect(Self.oracle(text) != nil, "\(text.debugDescription)")
            #expect(Self.decoded(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test func invalidTextIsNil() {
        let texts = [
            "", " ", "-", "1.", "+1", "01", "-01", "00", ".5", "1e", "1e+", "[1 2]", "[,1]", "[1,,2]", "{,}", "{\"a\"}",
            "{\"a\":}", "{a:1}", "[1]x", "1 2", "nul", "True", "tru", "\"abc", "\"a\tb\"", "\"\\x\"", "\"\\u12\"",
            #""\ud800""#, #""\uDE00""#, #""\uD83Dx""#, #""\uD83D\u0041""#, "[", "]", "{", "}", "\u{0C}1", "'a'",
        ]
        for text in texts {
            #expect(Self.decoded(text) == nil, "\(text.debugDescription)")
        }
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x28, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFF],
        ] {
            #expect(Self.oracle(bytes) == nil)
            #expect(Self.decoded(bytes) == nil)
        }
    }

    @Test func nestingIsDecodedUpToTheLimitAndLeftToJSONSerializationBeyond() {
        func nested(_ depth: Int) -> String {
            String(repeating: "[{\"k\":", count: depth / 2) + (depth % 2 == 1 ? "[1]" : "1")
                + String(repeating: "}]", count: depth / 2)
        }
        Self.expectSame(nested(JSONPayloadDecoder.maximumDepth))
        #expect(Self.decoded(nested(JSONPayloadDecoder.maximumDepth + 1)) == nil)
        #expect(Self.oracle(nested(512)) != nil)
        #expect(Self.decoded(nested(512)) == nil)
        #expect(Self.decoded(String(repeating: "[", count: 100_000)) == nil)
    }

    // MARK: - decodePayload

    @Test func decodePayloadUsesTheDecoderAndKeepsItsFallbacks() throws {
        let body = Data(#"xx{"n":17} 1e999999 "\ud800" [1,] "#.utf8)
        guard case .value(let fast) = ResponseParser.decodePayload(body.dropFirst(2), 0..<8) else {
            Issue.record("not decoded")
            return
        }
        #expect(Self.difference(fast, try #require(Self.oracle(#"{"n":17}"#))) == nil)
        guard case .undecodable(let text, .notRepresentable) = ResponseParser.decodePayload(body, 11..<19),
            case .undecodable(let lone, .notRepresentable) = ResponseParser.decodePayload(body, 20..<28)
        else {
            Issue.record("an unrepresentable payload was decoded")
            return
        }
        #expect(text == "1e999999" && lone == #""\ud800""#)
        guard case .value(let trailing) = ResponseParser.decodePayload(body, 29..<33) else {
            Issue.record("JSONSerialization's fallback was not used")
            return
        }
        #expect((trailing as? [Any])?.count == 1)
    }
}

/// The probe that turns the decoder on: on where it was written (corelibs), and strict enough to turn it off where
/// `JSONSerialization` builds anything else.
@Suite struct JSONPayloadDecoderProbeTests {
    #if os(Linux)
    @Test func theDecoderIsOnWithCorelibs() {
        // Without this, a probe that failed here would skip JSONPayloadDecoderTests and pass on no evidence.
        #expect(JSONPayloadDecoder.isEnabled)
    }
    #endif

    @Test func theProbeTellsOtherFoundationValuesApart() throws {
        let text = Array(JSONPayloadDecoder.probeText.utf8)
        let own = try #require(text.withUnsafeBytes { JSONPayloadDecoder.decodeSubset($0) })
        #expect(JSONPayloadDecoder.same(own, own))
        // What another Foundation might return instead, node by node.
        #expect(!JSONPayloadDecoder.same(["a": 1] as [String: Any], NSDictionary(dictionary: ["a": 1])))
        #expect(!JSONPayloadDecoder.same([1] as [Any], NSArray(array: [1])))
        #expect(!JSONPayloadDecoder.same(NSNumber(value: Int64(13)), NSNumber(value: Int32(13))))
        #expect(!JSONPayloadDecoder.same(NSNumber(value: true), NSNumber(value: Int64(1))))
        #expect(!JSONPayloadDecoder.same(NSNumber(value: 0.0), NSNumber(value: -0.0)))
        #expect(!JSONPayloadDecoder.same("é", "e\u{301}"))
        #expect(!JSONPayloadDecoder.same(["a": 1] as [String: Any], ["b": 1] as [String: Any]))
        #expect(!JSONPayloadDecoder.same([1, 2] as [Any], [2, 1] as [Any]))
    }
}
