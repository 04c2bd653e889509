import TestSupport
import Testing

@testable import LocalOrigin

/// `JSONValidator` against `JSONParser`: the publish path trusts the validator's verdict where it once trusted the
/// parser's, so on every input the two must agree (random texts; the seed is printed on failure).
@Suite struct JSONValidatorTests {
    /// The seeds of one run: `JSON_VALIDATOR_SEED` alone when set, otherwise three fixed seeds and a fresh one.
    static func seeds() -> [UInt64] {
        randomTestSeeds(overriddenBy: "JSON_VALIDATOR_SEED")
    }

    static func parses(_ bytes: [UInt8]) -> Bool {
        (try? JSONParser.parse(bytes)) != nil
    }

    @Test func agreesWithTheParserOnRandomTexts() {
        for seed in Self.seeds() {
            var source = RandomJSONText(seed: seed)
            var accepted = 0
            var refused = 0
            var failures = 0
            for index in 0..<3_000 where failures < 3 {
                let valid = source.valid()
                for text in [valid, source.mutated(valid), source.mutated(valid)] {
                    let expected = Self.parses(text)
                    if expected { accepted += 1 } else { refused += 1 }
                    let verdict = JSONValidator.isValid(text)
                    if verdict != expected { failures += 1 }
                    #expect(
                        verdict == expected,
                        """
                        seed \(seed) case \(index) (rerun with JSON_VALIDATOR_SEED=\(seed)): validator \(verdict), \
                        parser \(expected) on \(text)
                        """
                    )
                }
            }
            // Both verdicts are exercised often, so agreement is not agreement on one answer only.
            #expect(accepted > 3_000 && refused > 1_500, "seed \(seed): \(accepted) accepted, \(refused) refused")
        }
    }

    @Test func agreesOnTheDepthLimitAndItsEdges() {
        for depth in (JSONParser.maximumDepth - 2)...(JSONParser.maximumDepth + 2) {
            for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
                let text = Array(
                    (String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8
                )
                #expect(JSONValidator.isValid(text) == Self.parses(text), "depth \(depth) \(open)")
                #expect(JSONValidator.isValid(text) == (depth <= JSONParser.maximumDepth), "depth \(depth) \(open)")
            }
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(!JSONValidator.isValid(deep))
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22], [0x20, 0xC3, 0xA9], [0x31, 0xE2, 0x80, 0xA8],
        ] as [[UInt8]]
    )
    func refusesInvalidUTF8AsTheParserDoes(_ bytes: [UInt8]) {
        #expect(!JSONValidator.isValid(bytes))
        #expect(!Self.parses(bytes))
    }

    @Test(arguments: [
        "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud83d\\ude00\"", "\"\\uD800\\u0041\"", "\"é€😀\"", "\"\u{10FFFF}\"",
        "-0.0e-0",
    ])
    func acceptsWhatTheParserAccepts(_ text: String) {
        #expect(JSONValidator.isValid(text))
        #expect(Self.parses(Array(text.utf8)))
    }

    // MARK: - Trimming

    /// Today's trimming before it went to bytes: by `Character`, where CR LF is one character.
    static func trimmedByCharacter(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return text }
        return String(text[first...last])
    }

    /// `JSONValidator.trimmedRange` applied to `text`.
    static func trimmedByBytes(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { String(decoding: $0[JSONValidator.trimmedRange($0)], as: UTF8.self) }
    }

    @Test func trimsValidTextsAsCharacterTrimmingDid() {
        for seed in Self.seeds() {
            var source = RandomJSONText(seed: seed)
            var random = SeededGenerator(seed: seed)
            var compared = 0
            for index in 0..<3_000 {
                let valid = source.valid()
                let padding = ["", " ", "\r\n", "\n\r", "\t \r", "\r\n\r\n "]
                let padded =
                    Array((padding.randomElement(using: &random)! + String(decoding: valid, as: UTF8.self)).utf8)
                    + Array(padding.randomElement(using: &random)!.utf8)
                for text in [padded, source.mutated(padded)] {
                    // The publish path trims only texts the validator accepted.
                    guard JSONValidator.isValid(text) else { continue }
                    compared += 1
                    let string = String(decoding: text, as: UTF8.self)
                    let expected = Self.trimmedByCharacter(string)
                    #expect(
                        Self.trimmedByBytes(string) == expected,
                        "seed \(seed) case \(index) (rerun with JSON_VALIDATOR_SEED=\(seed)): \(string.debugDescription)"
                    )
                    #expect(
                        text.withUnsafeBufferPointer(OriginStore.jsonText) == expected,
                        "seed \(seed) case \(index)"
                    )
                }
            }
            #expect(compared > 3_000, "seed \(seed): \(compared) texts compared")
        }
    }

    @Test(arguments: ["", " ", " \r\n\t", "x", " x ", "\r\n1\r\n", "\n\r[ ]\t\t", "a b", "\t\"é\" "])
    func trimsOnlyJSONWhitespace(_ text: String) {
        #expect(Self.trimmedByBytes(text) == Self.trimmedByCharacter(text))
    }
}
