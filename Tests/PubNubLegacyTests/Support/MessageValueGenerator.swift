import Foundation

/// Seeded random message payloads of every kind a message can hold, for comparing `JSONFragmentEncoder` with
/// `JSONSerialization`: Swift and Foundation strings (controls, quotes, slashes, non-ASCII), integers of every
/// width, `Double` and `Float` of every magnitude, `Bool`, `NSNumber` of every storage type, `NSNull`, empty and
/// full optionals (nested ones too), and arrays and dictionaries, Swift, typed and Foundation ones, nested. Keys are
/// drawn to exercise the key order: digits, case, punctuation, symbols, spaces, non-ASCII. A small share of values
/// is invalid on purpose (NaN, infinities, `Int??.some(nil)`, non-string keys); `exotic` adds `Decimal`,
/// `NSDecimalNumber` and `Date`, which the encoder leaves to `JSONSerialization`.
struct MessageValueGenerator {
    private var random: SplitMix64
    private let exotic: Bool

    init(seed: UInt64, exotic: Bool = false) {
        self.random = SplitMix64(seed: seed)
        self.exotic = exotic
    }

    /// A value: a container more often near the top, a scalar always at `depth` 0.
    mutating func value(depth: Int = 4) -> Any {
        if depth > 0, self.chance(1, in: 3) {
            return self.container(depth: depth - 1)
        }
        return self.scalar(depth: depth)
    }

    // MARK: - Containers

    private mutating func container(depth: Int) -> Any {
        let count = self.int(0...6)
        switch self.int(0...9) {
        case 0: return (0..<count).map { _ in self.value(depth: depth) }
        case 1: return NSArray(array: (0..<count).map { _ in self.value(depth: depth) })
        case 2: return (0..<count).map { _ in self.integerValue() as Int }
        case 3: return (0..<count).map { _ in self.string() }
        case 4: return (0..<count).map { _ in self.chance(1, in: 3) ? nil : self.value(depth: depth) } as [Any?]
        case 5: return NSDictionary(dictionary: self.entries(count, depth: depth))
        case 6:
            var dictionary: [AnyHashable: Any] = [:]
            for (key, value) in self.entries(count, depth: depth) { dictionary[AnyHashable(key)] = value }
            if self.chance(1, in: 20) { dictionary[AnyHashable(self.int(0...9))] = 1 }  // not a string key: invalid
            return dictionary
        case 7: return self.entries(count, depth: depth).mapValues { _ in self.integerValue() as Int }
        default: return self.entries(count, depth: depth)
        }
    }

    private mutating func entries(_ count: Int, depth: Int) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for _ in 0..<count {
            dictionary[self.key()] = self.value(depth: depth)
        }
        return dictionary
    }

    /// A key: mostly short ones over a few characters, so that keys share prefixes, digit runs and letters in
    /// different case; sometimes with spaces, symbols, controls or non-ASCII characters, or a random string.
    mutating func key() -> String {
        switch self.int(0...9) {
        case 0...4: return self.text(from: Self.plainKeyCharacters, length: self.int(0...6))
        case 5: return self.text(from: Self.plainKeyCharacters + ["0", "0", "9"], length: self.int(1...24))
        case 6...7: return self.text(from: Self.plainKeyCharacters + Self.otherKeyCharacters, length: self.int(0...6))
        case 8:
            return ["userId", "user_id", "username", "UserName", "n", "seq", "t", "text", "a10", "a9", "A9"][
                self.int(0...10)
            ]
        default: return self.string()
        }
    }

    private static let plainKeyCharacters: [String] = ["a", "A", "b", "B", "z", "0", "1", "9", "_", "-", ".", "#"]
    /// Spaces, symbols, controls, accented letters (precomposed and decomposed), a lone combining mark, surrogate
    /// pairs, non-ASCII digits, an expansion (ß), a ligature and an ignorable character: the last four make key sets on
    /// which Foundation's comparison is no order (see `JSONFragmentEncoder.KeyOrder`).
    private static let otherKeyCharacters: [String] = [
        " ", "$", "~", "|", "`", "é", "É", "e\u{301}", "\u{301}", "😀", "𝒜", "ß", "\u{1}", "中", "١", "９", "\u{FB01}",
        "\u{FEFF}",
    ]

    // MARK: - Scalars

    private mutating func scalar(depth: Int) -> Any {
        switch self.int(0...99) {
        case 0..<20: return self.string()
        case 20..<24:
            return self.chance(1, in: 2) ? NSString(string: self.string()) : NSMutableString(string: self.string())
        case 24..<34: return self.integerValue() as Int
        case 34..<44: return self.integerOfAnyWidth()
        case 44..<56: return self.double()
        case 56..<62: return self.float()
        case 62..<66: return self.chance(1, in: 2)
        case 66..<78: return self.number()
        case 78..<81: return NSNull()
        case 81..<85: return self.emptyOptional()
        case 85..<93: return self.fullOptional(depth: depth)
        case 93..<95:
            // Rarely, an optional holding an empty one: corelibs refuses the whole value.
            return self.chance(1, in: 2) ? (Int??.some(nil) as Any) : (Any?.some(String?.none as Any) as Any)
        default:
            guard self.exotic else { return self.string() }
            switch self.int(0...2) {
            case 0: return Decimal(self.integerValue() as Int) / 100
            case 1: return NSDecimalNumber(string: "3.14")
            default: return Date(timeIntervalSince1970: Double(self.int(0...1_000_000)))  // no JSON form: refused
            }
        }
    }

    private mutating func emptyOptional() -> Any {
        switch self.int(0...3) {
        case 0: return Int?.none as Any
        case 1: return String?.none as Any
        case 2: return Any?.none as Any
        default: return Int??.none as Any
        }
    }

    private mutating func fullOptional(depth: Int) -> Any {
        switch self.int(0...4) {
        case 0: return Int?.some(self.integerValue()) as Any
        case 1: return String?.some(self.string()) as Any
        case 2: return NSNumber?.some(self.number()) as Any
        case 3: return Int??.some(.some(self.integerValue())) as Any
        default: return Any?.some(self.value(depth: depth)) as Any  // may hold an optional itself
        }
    }

    mutating func string() -> String {
        if self.chance(1, in: 40) {
            return self.text(from: Self.stringCharacters, length: self.int(500...1500))
        }
        return self.text(from: Self.stringCharacters, length: self.int(0...12))
    }

    private static let stringCharacters: [String] =
        [
            "a", "Z", "5", " ", "\"", "\\", "/", "{", "é", "ñ", "ß", "中", "😀", "👩‍💻", "e\u{301}", "\r\n", "\u{7F}",
            "\u{80}",
            "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}",
        ] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }

    private mutating func integerValue<Integer: FixedWidthInteger>() -> Integer {
        switch self.int(0...5) {
        case 0: return .max
        case 1: return .min
        case 2: return Integer(truncatingIfNeeded: self.int(-10...10))
        default: return Integer(truncatingIfNeeded: self.random.next() >> self.int(0...63))  // every magnitude
        }
    }

    private mutating func integerOfAnyWidth() -> Any {
        switch self.int(0...8) {
        case 0: return self.integerValue() as Int8
        case 1: return self.integerValue() as Int16
        case 2: return self.integerValue() as Int32
        case 3: return self.integerValue() as Int64
        case 4: return self.integerValue() as UInt
        case 5: return self.integerValue() as UInt8
        case 6: return self.integerValue() as UInt16
        case 7: return self.integerValue() as UInt32
        default: return self.integerValue() as UInt64
        }
    }

    mutating func double() -> Double {
        switch self.int(0...9) {
        case 0: return Double(bitPattern: self.random.next())  // any magnitude, subnormals, rarely NaN or ∞
        case 1:
            return [
                0, -0.0, 0.1, 0.3, 1e21, 1e-7, 1e15, 1e16, 0x1p53 + 2, .greatestFiniteMagnitude,
                .leastNonzeroMagnitude, .leastNormalMagnitude, .pi, .nan, .infinity, -.infinity,
            ][self.int(0...15)]
        case 2...4: return Double(self.integerValue() as Int) / [1, 10, 100, 1000, 1e6][self.int(0...4)]
        case 5: return Double(self.integerValue() as Int64)
        default: return (Double(self.int(-1_000_000...1_000_000)) * pow(10, Double(self.int(-30...30))))
        }
    }

    mutating func float() -> Float {
        switch self.int(0...4) {
        case 0: return Float(bitPattern: UInt32(truncatingIfNeeded: self.random.next()))
        case 1:
            return [
                0, -0.0, 0.1, 1e21, 0x1p24 + 2, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan,
                .infinity,
            ][self.int(0...8)]
        default: return Float(self.double())
        }
    }

    private mutating func number() -> NSNumber {
        switch self.int(0...10) {
        case 0: return NSNumber(value: self.chance(1, in: 2))
        case 1: return NSNumber(value: self.integerValue() as Int)
        case 2: return NSNumber(value: self.integerValue() as Int8)
        case 3: return NSNumber(value: self.integerValue() as UInt8)
        case 4: return NSNumber(value: self.integerValue() as Int16)
        case 5: return NSNumber(value: self.integerValue() as UInt32)
        case 6: return NSNumber(value: self.integerValue() as UInt64)
        case 7: return NSNumber(value: self.float())
        case 8: return NSNumber(value: self.integerValue() as Int64)
        default: return NSNumber(value: self.double())
        }
    }

    // MARK: - Randomness

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self.random)
    }

    private mutating func chance(_ times: Int, in outOf: Int) -> Bool {
        self.int(1...outOf) <= times
    }

    private mutating func text(from characters: [String], length: Int) -> String {
        var text = ""
        for _ in 0..<length {
            text += characters[self.int(0...(characters.count - 1))]
        }
        return text
    }
}
