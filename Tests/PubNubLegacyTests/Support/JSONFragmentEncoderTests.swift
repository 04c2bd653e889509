import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// `JSONFragmentEncoder` writes what corelibs' `JSONSerialization` wrote for the same value — the wire must not
/// change — and refuses what it refused. `JSONSerialization` itself is the oracle: on seeded random values of every
/// kind (`MessageValueGenerator`) and on a table of edge cases whose expected text is also spelled out, so a change
/// in either shows.
@Suite struct JSONFragmentEncoderTests {
    /// What the package sent before it had its own encoder: `JSONSerialization` on the value wrapped in an array.
    static func oracle(_ value: Any) -> String? {
        let wrapped: [Any] = [value]
        guard JSONSerialization.isValidJSONObject(wrapped),
            let data = try? JSONSerialization.data(
                withJSONObject: wrapped,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
        else {
            return nil
        }
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// A value with its types, for failure messages.
    static func describe(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text, maxDepth: 8, maxItems: 300)
        return text.count > 4000 ? String(text.prefix(4000)) + "…" : text
    }

    /// The seeds of one run: `JSON_ENCODER_SEED` alone when set, otherwise three fixed seeds and a fresh one.
    static func seeds() -> [UInt64] {
        randomTestSeeds(overriddenBy: "JSON_ENCODER_SEED")
    }

    // MARK: - Random values

    @Test func randomValuesAreWrittenAsJSONSerializationWritesThem() {
        for seed in Self.seeds() {
            var generator = MessageValueGenerator(seed: seed)
            var written = 0
            var refused = 0
            var unordered = 0
            var failures = 0
            for index in 0..<2_500 where failures < 3 {
                let value = generator.value()
                let expected = Self.oracle(value)
                let context = "seed \(seed) case \(index) (rerun with JSON_ENCODER_SEED=\(seed))"
                switch JSONFragmentEncoder.ownEncoding(of: value) {
                case .text(let text):
                    written += 1
                    if text != expected, let expected, Self.differsOnlyInUnorderedKeys(text, expected) {
                        unordered += 1  // corelibs' own order for these objects changes from process to process
                        continue
                    }
                    guard text == expected else {
                        failures += 1
                        let wrote =
                            "wrote \(text.debugDescription), JSONSerialization wrote \(expected.debugDescription)"
                        Issue.record("\(context): \(wrote) for\n\(Self.describe(value))")
                        continue
                    }
                case .refused:
                    refused += 1
                    guard expected == nil else {
                        failures += 1
                        let wrote = "refused, JSONSerialization wrote \(expected.debugDescription)"
                        Issue.record("\(context): \(wrote) for\n\(Self.describe(value))")
                        continue
                    }
                case .unsupported:
                    failures += 1
                    let reason = "left to JSONSerialization although every kind is supported"
                    Issue.record("\(context): \(reason):\n\(Self.describe(value))")
                }
            }
            // The generator makes mostly valid values and some invalid ones; both sides must have been exercised.
            #expect(written > 2_000, "seed \(seed)")
            #expect(refused > 20, "seed \(seed)")
            // Byte-for-byte comparison must stay the rule; key sets Foundation does not order, the exception.
            #expect(unordered < written / 20, "seed \(seed): \(unordered) of \(written)")
        }
    }

    /// Whether `ours` is `expected` with the keys of some objects in another order, and only of objects whose keys
    /// Foundation's comparison does not order (where corelibs' `.sortedKeys` order is not defined).
    static func differsOnlyInUnorderedKeys(_ ours: String, _ expected: String) -> Bool {
        guard let mine = JSONTextShape(ours), let theirs = JSONTextShape(expected) else {
            return false
        }
        var reordered = 0
        return mine.matches(theirs, reordered: &reordered) && reordered > 0
    }

    @Test func decimalsAreLeftToJSONSerialization() {
        for seed in Self.seeds() {
            var generator = MessageValueGenerator(seed: seed, exotic: true)
            var leftOver = 0
            for index in 0..<1_000 {
                let value = generator.value()
                if JSONFragmentEncoder.ownEncoding(of: value) == .unsupported {
                    leftOver += 1
                }
                let encoded = JSONFragmentEncoder.encode(value)
                let expected = Self.oracle(value)
                // As in the test above: objects whose keys Foundation's comparison does not order (non-ASCII digits
                // beside ASCII ones, …) come out of corelibs in an order that changes from process to process.
                #expect(
                    encoded == expected
                        || encoded.flatMap { ours in expected.map { Self.differsOnlyInUnorderedKeys(ours, $0) } }
                            == true,
                    "seed \(seed) case \(index) (rerun with JSON_ENCODER_SEED=\(seed)):\n\(Self.describe(value))"
                )
            }
            #expect(leftOver > 0, "seed \(seed)")
        }
        #expect(JSONFragmentEncoder.ownEncoding(of: Decimal(string: "1.25") as Any) == .unsupported)
        #expect(JSONFragmentEncoder.encode(Decimal(string: "1.25") as Any) == "1.25")
        #expect(
            JSONFragmentEncoder.encode(["d": NSDecimalNumber(string: "0.1000000000000000055511151231257827")])
                == #"{"d":0.1000000000000000055511151231257827}"#
        )
    }

    // MARK: - Edge cases

    /// A value and the exact text corelibs writes for it (nil: refused).
    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        // @unchecked: the values are immutable test constants.
        let name: String
        let value: Any
        let text: String?

        init(_ name: String, _ value: Any, _ text: String?) {
            self.name = name
            self.value = value
            self.text = text
        }

        var testDescription: String { self.name }
    }

    static let strings: [Case] = [
        Case("plain", "hello", #""hello""#),
        Case("empty", "", #""""#),
        Case("quote, backslash, slash", #"a"b\c/d"#, #""a\"b\\c/d""#),
        Case("named escapes", "\u{8}\u{9}\u{A}\u{C}\u{D}", #""\b\t\n\f\r""#),
        Case(
            "other C0 controls, lower-case hex",
            "\u{0}\u{1}\u{B}\u{E}\u{1B}\u{1F}",
            #""\u0000\u0001\u000b\u000e\u001b\u001f""#
        ),
        Case("DEL and C1 raw", "\u{7F}\u{80}\u{9F}", "\"\u{7F}\u{80}\u{9F}\""),
        Case("line separators raw", "\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
        Case("non-ASCII raw", "é中😀👩‍💻e\u{301}", "\"é中😀👩‍💻e\u{301}\""),
        Case("NSString", NSString(string: "x/y"), #""x/y""#),
        Case("NSMutableString", NSMutableString(string: "m\n"), #""m\n""#),
    ]

    static let numbers: [Case] = [
        Case("Int.max", Int.max, "9223372036854775807"),
        Case("Int.min", Int.min, "-9223372036854775808"),
        Case("Int8.min", Int8.min, "-128"),
        Case("UInt8.max", UInt8.max, "255"),
        Case("Int32.min", Int32.min, "-2147483648"),
        Case("UInt64.max", UInt64.max, "18446744073709551615"),
        Case("UInt.max", UInt.max, "18446744073709551615"),
        Case("Double 0.1", 0.1, "0.1"),
        Case("Double integral", 100.0, "100"),
        Case("Double -0", -0.0, "-0"),
        Case("Double 1e15", 1e15, "1000000000000000"),
        Case("Double 1e16", 1e16, "1e+16"),
        Case("Double 1e21", 1e21, "1e+21"),
        Case("Double 1e-5", 1e-5, "1e-05"),
        Case("Double 0.30000000000000004", 0.1 + 0.2, "0.30000000000000004"),
        Case("Double 123456789012345678", 123_456_789_012_345_678.0, "1.2345678901234568e+17"),
        Case("Double max", Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        Case("Double min subnormal", Double.leastNonzeroMagnitude, "5e-324"),
        Case("Float 0.1 not widened", Float(0.1), "0.1"),
        Case("Float 2^24", Float(16_777_216), "16777216"),
        Case("Float 1e21", Float(1e21), "1e+21"),
        Case("Bool true", true, "true"),
        Case("Bool false", false, "false"),
        Case("NSNumber true", NSNumber(value: true), "true"),
        Case("NSNumber false", NSNumber(value: false), "false"),
        Case("NSNumber 1", NSNumber(value: 1), "1"),
        Case("NSNumber Int8 1 is not a Bool", NSNumber(value: Int8(1)), "1"),
        Case("NSNumber UInt64.max", NSNumber(value: UInt64.max), "18446744073709551615"),
        Case("NSNumber Int64.min", NSNumber(value: Int64.min), "-9223372036854775808"),
        Case("NSNumber Float 0.1", NSNumber(value: Float(0.1)), "0.1"),
        Case("NSNumber Double 3", NSNumber(value: 3.0), "3"),
        Case("NaN", Double.nan, nil),
        Case("infinity", Double.infinity, nil),
        Case("Float -infinity", -Float.infinity, nil),
        Case("NSNumber NaN", NSNumber(value: Double.nan), nil),
        Case("NaN inside", ["k": [1, Float.nan]] as [String: Any], nil),
    ]

    static let others: [Case] = [
        Case("NSNull", NSNull(), "null"),
        Case("empty array", [Any](), "[]"),
        Case("empty dictionary", [String: Any](), "{}"),
        Case("NSArray", NSArray(array: [1, "a", NSNull()]), #"[1,"a",null]"#),
        Case("NSDictionary", NSDictionary(dictionary: ["b": 1, "a": NSNumber(value: 2.5)]), #"{"a":2.5,"b":1}"#),
        Case("AnyHashable keys", [AnyHashable("b"): 1, AnyHashable("a"): 2] as [AnyHashable: Any], #"{"a":2,"b":1}"#),
        Case("typed arrays", [[1, 2], ["x"], [0.5]] as [Any], #"[[1,2],["x"],[0.5]]"#),
        Case("empty optional is null", [Int?.none as Any, String?.none as Any], "[null,null]"),
        Case("typed optionals", ["a": nil, "b": 5] as [String: Int?], #"{"a":null,"b":5}"#),
        Case(
            "full optionals",
            [Int?.some(5) as Any, Int??.some(.some(6)) as Any, NSNumber?.some(true) as Any],
            "[5,6,true]"
        ),
        Case("optional holding an empty optional", [Int??.some(nil) as Any], nil),
        Case("Any? holding an empty optional", ["k": Any?.some(Int?.none as Any) as Any], nil),
        Case("empty optional at the top", Int?.none as Any, "null"),
        Case("Date", Date(timeIntervalSince1970: 0), nil),
        Case("Data", Data([1]), nil),
        Case("URL", URL(string: "https://pubnub.com/")!, nil),
        Case("Set", Set([1]), nil),
        Case("Substring", "abc".dropFirst(), nil),
        Case("Character", Character("x"), nil),
        Case("Int keys", [1: "a"], nil),
        Case("some non-string key", [AnyHashable("a"): 1, AnyHashable(2): 3] as [AnyHashable: Any], nil),
        Case("refusal deep inside", ["a": [["b": [Date()]]]] as [String: Any], nil),
    ]

    static let keyOrders: [Case] = [
        Case(
            "case, digits, punctuation, symbols, non-ASCII",
            Dictionary(
                uniqueKeysWithValues: [
                    "b", "a", "A", "B", "_", "0", "10", "9", "a10", "a9", "a09", "~", "-", " ",
                    "é", "z", "Z", "", "aB", "ab", "Ab", "AB",
                ].map { ($0, 0) }
            ),
            #"{"":0," ":0,"_":0,"-":0,"~":0,"0":0,"9":0,"10":0,"a":0,"A":0,"a9":0,"a09":0,"a10":0,"ab":0,"aB":0,"#
                + #""Ab":0,"AB":0,"b":0,"B":0,"é":0,"z":0,"Z":0}"#
        ),
        Case(
            "punctuation in root-collation order",
            Dictionary(
                uniqueKeysWithValues: ["a_b", "a-b", "ab", "a.b", "a b", "a0", "a/", "a$", "a{", "a|"].map {
                    ($0, 0)
                }
            ),
            #"{"a b":0,"a_b":0,"a-b":0,"a.b":0,"a{":0,"a/":0,"a|":0,"a$":0,"a0":0,"ab":0}"#
        ),
        Case(
            "digit runs past UInt64 wrap as in CoreFoundation",
            Dictionary(
                uniqueKeysWithValues: ["18446744073709551616", "0", "1", "18446744073709551615"].map { ($0, 0) }
            ),
            #"{"0":0,"18446744073709551616":0,"1":0,"18446744073709551615":0}"#
        ),
        Case(
            "empty, combining mark, emoji, non-ASCII digits and letters, surrogate pairs: a localized order",
            Dictionary(
                uniqueKeysWithValues: [
                    "", "\u{301}", "😁", "😀", "$", "10", "١٠", "９", "9", "٩", "a", "A", "𝒜",
                    "á", "Å", "a b", "𝒜b", "b", "é", "É", "e", "中", "\u{FFFD}",
                ].map { ($0, 0) }
            ),
            #"{"":0,"\#u{301}":0,"😀":0,"😁":0,"$":0,"9":0,"٩":0,"９":0,"10":0,"١٠":0,"a":0,"A":0,"𝒜":0,"á":0,"#
                + #""Å":0,"a b":0,"𝒜b":0,"b":0,"e":0,"é":0,"É":0,"中":0,"\#u{FFFD}":0}"#
        ),
        Case(
            "message keys",
            ["seq": 1, "t": 2, "n": 3, "text": "x", "userId": "u"] as [String: Any],
            #"{"n":3,"seq":1,"t":2,"text":"x","userId":"u"}"#
        ),
    ]

    @Test(arguments: Self.strings + Self.numbers + Self.others + Self.keyOrders)
    func edgeCase(_ edge: Case) {
        if let keys = (edge.value as? [String: Any])?.keys {
            // The expected order is the only sorted one, not one a process happened to pick.
            #expect(JSONTextShape.isOrdered(Array(keys)))
        }
        #expect(Self.oracle(edge.value) == edge.text, "JSONSerialization itself")
        #expect(JSONFragmentEncoder.encode(edge.value) == edge.text)
        #expect(JSONFragmentEncoder.ownEncoding(of: edge.value) != .unsupported || edge.text == nil)
    }

    /// corelibs refuses anything at level 512 (the wrapping array is level 0), scalars included.
    @Test func nestingIsRefusedAtTheLevelJSONSerializationRefusesIt() {
        func nested(_ value: Any, in arrays: Int) -> Any {
            (0..<arrays).reduce(value) { inner, _ in [inner] }
        }
        let deepest = nested(1, in: 510)  // the 1 is at level 511
        let tooDeep = nested(1, in: 511)
        let deepestEmpty = nested([Any](), in: 510)  // the empty array is at level 511
        let tooDeepEmpty = nested([Any](), in: 511)
        #expect(
            JSONFragmentEncoder.encode(deepest) == String(repeating: "[", count: 510) + "1"
                + String(repeating: "]", count: 510)
        )
        #expect(JSONFragmentEncoder.encode(deepest) == Self.oracle(deepest))
        #expect(JSONFragmentEncoder.ownEncoding(of: tooDeep) == .refused)
        #expect(Self.oracle(tooDeep) == nil)
        #expect(JSONFragmentEncoder.encode(deepestEmpty) == Self.oracle(deepestEmpty))
        #expect(JSONFragmentEncoder.encode(deepestEmpty) != nil)
        #expect(JSONFragmentEncoder.ownEncoding(of: tooDeepEmpty) == .refused)
        #expect(Self.oracle(tooDeepEmpty) == nil)
        let deepDictionary = (0..<510).reduce(1 as Any) { inner, _ in ["k": inner] }
        #expect(JSONFragmentEncoder.encode(deepDictionary) == Self.oracle(deepDictionary))
        #expect(JSONFragmentEncoder.ownEncoding(of: ["k": deepDictionary]) == .refused)
    }

    /// On some keys Foundation's comparison is no order (`JSONFragmentEncoder.KeyOrder` has the cycles found), and
    /// corelibs' order then follows the dictionary's iteration order, seeded afresh in every process. The encoder
    /// writes one of those orders, the same one whatever the dictionary's history.
    @Test func keysFoundationDoesNotOrderAreWrittenInOneFixedOrder() throws {
        let precedes = JSONFragmentEncoder.KeyOrder.foundationPrecedes
        let cycles = [["bßba", "bsa", "bss"], ["a\u{661}\u{661}", "a1\u{669}", "a11"]]
        for cycle in cycles {
            #expect(precedes(cycle[0], cycle[1]) && precedes(cycle[1], cycle[2]) && precedes(cycle[2], cycle[0]))
            #expect(!JSONTextShape.isOrdered(cycle))
        }
        let keys = cycles.joined() + ["\u{FB01}", "\u{FB01}\u{301}", "f\u{C9}\u{1}", "a", "b"]
        var texts = Set<String>()
        var generator = SplitMix64(seed: 7)
        for round in 0..<50 {
            // Different insertion orders and capacities give different iteration orders.
            var dictionary = [String: Any](minimumCapacity: round * 3)
            for key in keys.shuffled(using: &generator) { dictionary[key] = 0 }
            let text = try #require(JSONFragmentEncoder.encode(dictionary))
            let expected = try #require(Self.oracle(dictionary))
            #expect(text == expected || Self.differsOnlyInUnorderedKeys(text, expected))
            texts.insert(text)
        }
        #expect(texts.count == 1, "\(texts)")
    }

    @Test func longStringsAreCopiedWhole() {
        let payload = String(repeating: "PubNub 1KiB payload ", count: 52) + "\n\"/\u{1F}é"
        #expect(JSONFragmentEncoder.encode(payload) == Self.oracle(payload))
        // Two quotes, one byte more for each of `\n` and `\"`, five more for `\u001f`; `/` and `é` as they are.
        #expect(JSONFragmentEncoder.encode(payload)?.utf8.count == payload.utf8.count + 2 + 1 + 1 + 5)
    }
}
