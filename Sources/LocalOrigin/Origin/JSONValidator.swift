// Checks that bytes are one JSON text without building anything: the publish path only needs the verdict, and
// `JSONParser` allocates a `JSONValue` for every string, array and object only for it to be thrown away.

/// Says whether bytes are exactly one JSON value, with the verdict `JSONParser.parse` gives for every input: the same
/// grammar (top-level scalars allowed, surrounding JSON whitespace allowed, lone `\u` surrogates accepted), the same
/// depth limit (`JSONParser.maximumDepth`) and the same UTF-8 rule (the whole text must be well-formed UTF-8).
///
/// One pass over the bytes: outside strings only ASCII is grammatical, so UTF-8 is checked inside strings only.
struct JSONValidator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// True when `bytes` are exactly one JSON value in well-formed UTF-8 (surrounding whitespace allowed).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var validator = JSONValidator(bytes: bytes)
        validator.skipWhitespace()
        guard validator.value(depth: 0) else { return false }
        validator.skipWhitespace()
        return validator.index == bytes.count
    }

    /// True when `bytes` are exactly one JSON value in well-formed UTF-8 (surrounding whitespace allowed).
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let verdict = bytes.withContiguousStorageIfAvailable({ JSONValidator.isValid($0) }) { return verdict }
        return Array(bytes).withUnsafeBufferPointer { JSONValidator.isValid($0) }
    }

    /// True when `text` is exactly one JSON value (surrounding whitespace allowed).
    static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { JSONValidator.isValid($0) }
    }

    /// The positions of `bytes` without leading and trailing JSON whitespace (space, tab, LF, CR); all of `bytes`
    /// when they are whitespace only.
    static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end, JSONValidator.isWhitespace(bytes[start]) { start += 1 }
        guard start < end else { return 0..<bytes.count }
        while JSONValidator.isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Whether `byte` is JSON whitespace: space, tab, LF or CR.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: - Grammar

    private mutating func skipWhitespace() {
        while self.index < self.bytes.count, JSONValidator.isWhitespace(self.bytes[self.index]) { self.index += 1 }
    }

    private var current: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }

    private mutating func value(depth: Int) -> Bool {
        guard let byte = self.current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return self.object(depth: depth + 1)
        case UInt8(ascii: "["): return self.array(depth: depth + 1)
        case UInt8(ascii: "\""): return self.string()
        case UInt8(ascii: "t"): return self.literal("true")
        case UInt8(ascii: "f"): return self.literal("false")
        case UInt8(ascii: "n"): return self.literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return self.number()
        default: return false
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard self.bytes.count - self.index >= count else { return false }
        let start = word.utf8Start
        for offset in 0..<count where self.bytes[self.index + offset] != start[offset] { return false }
        self.index += count
        return true
    }

    private mutating func object(depth: Int) -> Bool {
        guard depth <= JSONParser.maximumDepth else { return false }
        self.index += 1
        self.skipWhitespace()
        if self.current == UInt8(ascii: "}") {
            self.index += 1
            return true
        }
        while true {
            self.skipWhitespace()
            guard self.current == UInt8(ascii: "\""), self.string() else { return false }
            self.skipWhitespace()
            guard self.current == UInt8(ascii: ":") else { return false }
            self.index += 1
            self.skipWhitespace()
            guard self.value(depth: depth) else { return false }
            self.skipWhitespace()
            switch self.current {
            case UInt8(ascii: ","): self.index += 1
            case UInt8(ascii: "}"):
                self.index += 1
                return true
            default: return false
            }
        }
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth <= JSONParser.maximumDepth else { return false }
        self.index += 1
        self.skipWhitespace()
        if self.current == UInt8(ascii: "]") {
            self.index += 1
            return true
        }
        while true {
            self.skipWhitespace()
            guard self.value(depth: depth) else { return false }
            self.skipWhitespace()
            switch self.current {
            case UInt8(ascii: ","): self.index += 1
            case UInt8(ascii: "]"):
                self.index += 1
                return true
            default: return false
            }
        }
    }

    private mutating func number() -> Bool {
        if self.current == UInt8(ascii: "-") { self.index += 1 }
        guard let first = self.current, JSONValidator.isDigit(first) else { return false }
        self.index += 1
        if first != UInt8(ascii: "0") { self.skipDigits() }
        if self.current == UInt8(ascii: ".") {
            self.index += 1
            guard let digit = self.current, JSONValidator.isDigit(digit) else { return false }
            self.skipDigits()
        }
        if self.current == UInt8(ascii: "e") || self.current == UInt8(ascii: "E") {
            self.index += 1
            if self.current == UInt8(ascii: "+") || self.current == UInt8(ascii: "-") { self.index += 1 }
            guard let digit = self.current, JSONValidator.isDigit(digit) else { return false }
            self.skipDigits()
        }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = self.current, JSONValidator.isDigit(byte) { self.index += 1 }
    }

    /// A string from its opening quote: no control characters, only JSON escapes, well-formed UTF-8.
    private mutating func string() -> Bool {
        self.index += 1
        while self.index < self.bytes.count {
            let byte = self.bytes[self.index]
            self.index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"): guard self.escape() else { return false }
            case 0x00..<0x20: return false
            case 0x80...: guard self.scalarTail(after: byte) else { return false }
            default: continue
            }
        }
        return false
    }

    /// The rest of an escape after its backslash. `\u` takes any four hex digits: a lone surrogate is valid text
    /// (`JSONParser` reads it as U+FFFD), so pairs need no check of their own.
    private mutating func escape() -> Bool {
        guard let byte = self.current else { return false }
        self.index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard self.bytes.count - self.index >= 4 else { return false }
            for offset in 0..<4 where JSONParser.hexValue(self.bytes[self.index + offset]) == nil { return false }
            self.index += 4
            return true
        default:
            return false
        }
    }

    /// The continuation bytes of a multi-byte UTF-8 sequence whose lead byte `lead` was just read, by the
    /// well-formed sequences of the Unicode Standard, chapter 3, table 3-7 (no overlong forms, no surrogates,
    /// nothing past U+10FFFF).
    private mutating func scalarTail(after lead: UInt8) -> Bool {
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0:
            count = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED:
            count = 2
            high = 0x9F
        case 0xF0:
            count = 3
            low = 0x90
        case 0xF1...0xF3: count = 3
        case 0xF4:
            count = 3
            high = 0x8F
        default: return false
        }
        guard self.bytes.count - self.index >= count else { return false }
        let second = self.bytes[self.index]
        guard second >= low, second <= high else { return false }
        for offset in 1..<count where self.bytes[self.index + offset] & 0xC0 != 0x80 { return false }
        self.index += count
        return true
    }
}
