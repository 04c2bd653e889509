import Foundation

/// Seeded random JSON texts for comparing `JSONPayloadDecoder` with `JSONSerialization`: nested objects and arrays
/// with RFC 8259 whitespace; strings of ASCII, accented (precomposed and decomposed), CJK and astral characters,
/// raw or as escapes (surrogate pairs, `\u0000`, now and then a lone surrogate); keys from a small set so that keys
/// repeat, canonically equivalent ones too; integers near every bound that matters (the small cached numbers,
/// `Int32`, 18 and 19 digits, `Int64`, `UInt64`) and `-0`; reals of every length around the 17-byte limit, with
/// exponents up to ±400. About one text in six is then broken by one edit (a byte removed, inserted or changed, a
/// trailing comma, a cut), so that invalid texts are compared too.
struct JSONTextGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        self.random = SplitMix64(seed: seed)
    }

    /// One text, valid or (about one in six) broken.
    mutating func text() -> [UInt8] {
        var text = Array(self.value(depth: self.int(0...4)).utf8)
        if self.chance(1, in: 6) { self.breakText(&text) }
        return text
    }

    /// A payload of the kinds publishers send most: small objects with counters and text, plain strings, numbers
    /// and short arrays — all inside the decoder's subset.
    mutating func typicalPayload(_ index: Int) -> String {
        switch index % 5 {
        case 0: return #"{"n":\#(index)}"#
        case 1: return #"{"text":"message \#(index) ✓","sender":"user-\#(self.int(0...99))","seq":\#(index)}"#
        case 2: return "\"hello \(index)\""
        case 3: return "[\(index),\(self.int(-99...99)),\"x\",true,null,1.5]"
        default:
            return #"{"user":{"id":\#(self.int(0...1_000_000)),"name":"Zoë"},"tags":["a","b"],"ok":false}"#
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) -> String {
        if depth > 0, self.chance(1, in: 2) {
            let count = self.int(0...5)
            if self.chance(1, in: 2) {
                let elements = (0..<count).map { _ in self.space() + self.value(depth: depth - 1) + self.space() }
                return "[" + self.space() + elements.joined(separator: ",") + "]"
            }
            let members = (0..<count).map { _ in
                self.space() + self.string(Self.keyParts, length: self.int(0...2)) + self.space() + ":" + self.space()
                    + self.value(depth: depth - 1) + self.space()
            }
            return "{" + self.space() + members.joined(separator: ",") + "}"
        }
        switch self.int(0...9) {
        case 0...2: return self.string(Self.stringParts, length: self.int(0...8))
        case 3...4: return self.integer()
        case 5...6: return self.real()
        case 7: return self.chance(1, in: 2) ? "true" : "false"
        case 8: return "null"
        default: return self.string(Self.keyParts, length: 1)
        }
    }

    /// Whitespace, mostly none.
    private mutating func space() -> String {
        guard self.chance(1, in: 5) else { return "" }
        return (0..<self.int(1...3)).map { _ in [" ", "\t", "\n", "\r"][self.int(0...3)] }.joined()
    }

    private static let keyParts = ["a", "b", "n", "é", "e\\u0301", "\\u00e9", "e\u{301}", "中", "😀", "\\ud83d\\ude00"]

    private static let stringParts = [
        "a", "Z", "5", " ", "\\\"", "\\\\", "\\/", "/", "{", "é", "e\u{301}", "ß", "中", "😀", "👩‍💻", "\u{7F}",
        "\u{2028}", "\u{FEFF}", "\u{10FFFF}", "\\n", "\\t", "\\b", "\\f", "\\r", "\\u0000", "\\u001F", "\\u00e9",
        "\\uFFFF", "\\uD83D\\uDE00", "\\udbff\\udfff", "\\u2028", "\\uFEFF", "\u{FFFE}", "\u{FFFF}", "\u{80}", "\u{85}",
        "\u{FFFD}", "\u{E000}", "\u{1F1FA}\u{1F1F8}",
    ]

    private mutating func string(_ parts: [String], length: Int) -> String {
        var text = "\""
        for _ in 0..<length {
            text +=
                self.chance(1, in: 150)
                ? ["\\ud800", "\\udc00", "\\uD83D"][self.int(0...2)] : parts[self.int(0...parts.count - 1)]
        }
        return text + "\""
    }

    // MARK: - Numbers

    private mutating func integer() -> String {
        let bounds: [Int64] = [0, 12, 13, Int64(Int32.max), 999_999_999_999_999_999, Int64.max]
        switch self.int(0...5) {
        case 0: return String(self.int(-20...20))
        case 1: return "-0"
        case 2:
            let bound = bounds[self.int(0...bounds.count - 1)]
            let value = bound.addingReportingOverflow(Int64(self.int(-3...3))).partialValue
            return String(self.chance(1, in: 2) ? value : 0 &- value)
        case 3: return String(UInt64.max - UInt64(self.int(0...3)))
        case 4: return (self.chance(1, in: 2) ? "-" : "") + String(self.int(1...9)) + self.digits(self.int(0...21))
        default: return String(Int64(bitPattern: self.random.next()) >> Int64(self.int(0...63)))
        }
    }

    private mutating func real() -> String {
        var text = self.chance(1, in: 3) ? "-" : ""
        text += self.chance(1, in: 4) ? "0" : String(self.int(1...9)) + self.digits(self.int(0...9))
        let hasFraction = self.chance(2, in: 3)
        if hasFraction { text += "." + self.digits(self.int(1...10)) }
        if !hasFraction || self.chance(1, in: 3) {
            text += ["e", "E"][self.int(0...1)] + ["", "+", "-"][self.int(0...2)]
            text += String(self.chance(1, in: 8) ? self.int(300...400) : self.int(0...30))
        }
        return text
    }

    private mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(self.int(0...9))) })
    }

    // MARK: - Breaking

    private mutating func breakText(_ text: inout [UInt8]) {
        let position = self.int(0...text.count)
        let noise = Array(#",:]}["{ \"\\x0-.e"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
        switch self.int(0...4) {
        case 0 where !text.isEmpty: text.remove(at: min(position, text.count - 1))
        case 1: text.insert(noise[self.int(0...noise.count - 1)], at: position)
        case 2 where !text.isEmpty: text[min(position, text.count - 1)] = noise[self.int(0...noise.count - 1)]
        case 3:
            if let close = text.lastIndex(where: { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "}") }) {
                text.insert(UInt8(ascii: ","), at: close)
            }
        default: text.removeLast(text.count - position)
        }
    }

    // MARK: - Randomness

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self.random)
    }

    private mutating func chance(_ count: Int, in total: Int) -> Bool {
        self.int(1...total) <= count
    }
}
