import TestSupport

@testable import LocalOrigin

/// Random JSON texts for differential tests of the origin's JSON readers: valid texts from a small grammar-driven
/// generator, and mutations of them that are mostly not JSON (cut short, bytes inserted or dropped, invalid UTF-8,
/// nesting around `JSONParser.maximumDepth`, bad numbers, bad escapes, lone surrogates).
struct RandomJSONText {
    private var random: SeededGenerator

    /// A source whose texts are fixed by `seed`.
    init(seed: UInt64) {
        self.random = SeededGenerator(seed: seed)
    }

    // MARK: - Valid texts

    /// One valid JSON text, surrounded and interspersed with random JSON whitespace.
    mutating func valid() -> [UInt8] {
        var out: [UInt8] = []
        self.whitespace(&out)
        self.value(&out, depth: 0)
        self.whitespace(&out)
        return out
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self.random) < percent }

    private mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &self.random)! }

    private mutating func whitespace(_ out: inout [UInt8]) {
        guard self.chance(30) else { return }
        for _ in 0..<Int.random(in: 1...3, using: &self.random) { out.append(self.pick([0x20, 0x09, 0x0A, 0x0D])) }
    }

    private mutating func value(_ out: inout [UInt8], depth: Int) {
        switch Int.random(in: 0..<(depth < 4 ? 9 : 6), using: &self.random) {
        case 0: out += Array(self.pick(["true", "false", "null"]).utf8)
        case 1, 2: self.number(&out)
        case 3, 4, 5: self.string(&out)
        case 6, 7:
            out.append(UInt8(ascii: "["))
            for index in 0..<Int.random(in: 0...4, using: &self.random) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                self.whitespace(&out)
                self.value(&out, depth: depth + 1)
                self.whitespace(&out)
            }
            out.append(UInt8(ascii: "]"))
        default:
            out.append(UInt8(ascii: "{"))
            for index in 0..<Int.random(in: 0...4, using: &self.random) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                self.whitespace(&out)
                self.string(&out)
                self.whitespace(&out)
                out.append(UInt8(ascii: ":"))
                self.whitespace(&out)
                self.value(&out, depth: depth + 1)
                self.whitespace(&out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private mutating func number(_ out: inout [UInt8]) {
        var text = self.chance(30) ? "-" : ""
        text += self.chance(20) ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &self.random) >> self.shift())
        if self.chance(30) { text += "." + String(UInt32.random(in: 0...UInt32.max, using: &self.random) >> 20) }
        if self.chance(25) {
            text +=
                self.pick(["e", "E"]) + self.pick(["", "+", "-"]) + String(Int.random(in: 0...400, using: &self.random))
        }
        out += Array(text.utf8)
    }

    private mutating func shift() -> UInt64 { UInt64.random(in: 0...63, using: &self.random) }

    private static let pieces: [String] = [
        "a", "Z", " ", "/", "é", "ß", "€", "中", "😀", "\u{301}", "\u{FFFF}", "\u{10FFFF}", "\u{7F}", "\\\"", "\\\\",
        "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0041", "\\u00e9", "\\ud83d\\ude00", "\\uD800", "\\udfff",
        "\\ud800\\u0041", "\\uDBFF\\uDFFF", "\\u0000",
    ]

    private mutating func string(_ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for _ in 0..<Int.random(in: 0...6, using: &self.random) { out += Array(self.pick(Self.pieces).utf8) }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Mutations

    /// Byte runs that are never well-formed UTF-8 (overlong, surrogate, past U+10FFFF, stray or cut sequences).
    private static let badUTF8: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5],
        [0xFF], [0xFE], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3],
    ]

    /// Pieces that break (or nearly break) numbers, escapes and literals.
    private static let snippets: [String] = [
        "1e", "1e+", "1E-", "1.e5", ".5", "-", "-x", "01", "1.", "+1", "\\x", "\\u12", "\\u12G4", "\\U0041", "\\",
        "\"", "\\ud800", "\\udc00", "tru", "nul", "fals", ",", ":", "]", "}", "[", "{", "\u{0}", "\t", "\n", " ",
    ]

    /// A random mutation of `valid`, or a nesting text around the depth limit.
    mutating func mutated(_ valid: [UInt8]) -> [UInt8] {
        var text = valid
        let position = Int.random(in: 0...text.count, using: &self.random)
        switch Int.random(in: 0..<9, using: &self.random) {
        case 0: text.removeSubrange(position...)
        case 1: text.insert(UInt8.random(in: 0...255, using: &self.random), at: position)
        case 2: if position < text.count { text.remove(at: position) }
        case 3: if position < text.count { text[position] = UInt8.random(in: 0...255, using: &self.random) }
        case 4: text.insert(contentsOf: self.pick(Self.badUTF8), at: position)
        case 5: text.insert(contentsOf: Array(self.pick(Self.snippets).utf8), at: position)
        case 6:
            // Inside a string when the text has one: bad escapes and lone surrogates where they matter.
            let quote = text.firstIndex(of: UInt8(ascii: "\"")).map { $0 + 1 } ?? position
            text.insert(contentsOf: Array(self.pick(Self.snippets).utf8), at: quote)
        case 7:
            text = self.nested(around: JSONParser.maximumDepth, inner: self.chance(50) ? [UInt8(ascii: "0")] : valid)
        default: text += self.mutated(self.valid())
        }
        return text
    }

    /// Containers nested `depth ± 2` deep around `inner`, sometimes unbalanced.
    private mutating func nested(around depth: Int, inner: [UInt8]) -> [UInt8] {
        let levels = depth + Int.random(in: -2...2, using: &self.random)
        var opening: [UInt8] = []
        var closing: [UInt8] = []
        for _ in 0..<levels {
            if self.chance(50) {
                opening.append(UInt8(ascii: "["))
                closing.append(UInt8(ascii: "]"))
            } else {
                opening += Array("{\"k\":".utf8)
                closing.append(UInt8(ascii: "}"))
            }
        }
        if self.chance(10) { closing.removeLast() }
        return opening + inner + closing.reversed()
    }
}
