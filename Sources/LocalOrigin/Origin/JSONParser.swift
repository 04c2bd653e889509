// A strict RFC 8259 parser. The origin's own, so what it accepts does not depend on Foundation's platform quirks;
// top-level scalars ("fragments") are allowed because a PubNub message may be a bare string or number.

/// Why a text is not JSON.
struct JSONParseError: Error, Equatable, Sendable {
    /// Byte offset where parsing stopped.
    var offset: Int
    /// What was wrong there.
    var reason: String
}

/// Parses JSON text into a `JSONValue`.
struct JSONParser {
    /// Containers nested deeper than this are refused, so hostile input cannot exhaust a server thread's stack.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses `text` (surrounding whitespace allowed). Throws `JSONParseError` when it is not one JSON value.
    static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// Parses UTF-8 `bytes`; invalid UTF-8 is an error.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw JSONParseError(offset: 0, reason: "invalid UTF-8")
        }
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("trailing characters") }
        return value
    }

    /// True when `text` is exactly one JSON value; the same verdict as `parse`, without building the value
    /// (`JSONValidator`).
    static func isValid(_ text: String) -> Bool {
        JSONValidator.isValid(text)
    }

    // MARK: - Grammar

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: self.index, reason: reason)
    }

    private var current: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }

    private mutating func skipWhitespace() {
        while let byte = self.current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            self.index += 1
        }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        for byte in literal.utf8 {
            guard self.current == byte else { throw self.error("invalid literal") }
            self.index += 1
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = self.current else { throw self.error("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return try self.parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try self.parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try self.parseString())
        case UInt8(ascii: "t"): return try self.expect("true", .bool(true))
        case UInt8(ascii: "f"): return try self.expect("false", .bool(false))
        case UInt8(ascii: "n"): return try self.expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try self.parseNumber()
        default: throw self.error("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw self.error("nested too deeply") }
        self.index += 1
        var members: [JSONMember] = []
        self.skipWhitespace()
        if self.current == UInt8(ascii: "}") {
            self.index += 1
            return .object(members)
        }
        while true {
            self.skipWhitespace()
            guard self.current == UInt8(ascii: "\"") else { throw self.error("expected a member name") }
            let key = try self.parseString()
            self.skipWhitespace()
            guard self.current == UInt8(ascii: ":") else { throw self.error("expected ':'") }
            self.index += 1
            self.skipWhitespace()
            members.append(JSONMember(key: key, value: try self.parseValue(depth: depth)))
            self.skipWhitespace()
            switch self.current {
            case UInt8(ascii: ","): self.index += 1
            case UInt8(ascii: "}"):
                self.index += 1
                return .object(members)
            default: throw self.error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw self.error("nested too deeply") }
        self.index += 1
        var elements: [JSONValue] = []
        self.skipWhitespace()
        if self.current == UInt8(ascii: "]") {
            self.index += 1
            return .array(elements)
        }
        while true {
            self.skipWhitespace()
            elements.append(try self.parseValue(depth: depth))
            self.skipWhitespace()
            switch self.current {
            case UInt8(ascii: ","): self.index += 1
            case UInt8(ascii: "]"):
                self.index += 1
                return .array(elements)
            default: throw self.error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = self.index
        if self.current == UInt8(ascii: "-") { self.index += 1 }
        guard let first = self.current, JSONParser.isDigit(first) else { throw self.error("invalid number") }
        self.index += 1
        if first != UInt8(ascii: "0") { self.skipDigits() }
        if self.current == UInt8(ascii: ".") {
            self.index += 1
            guard let digit = self.current, JSONParser.isDigit(digit) else { throw self.error("invalid fraction") }
            self.skipDigits()
        }
        if self.current == UInt8(ascii: "e") || self.current == UInt8(ascii: "E") {
            self.index += 1
            if self.current == UInt8(ascii: "+") || self.current == UInt8(ascii: "-") { self.index += 1 }
            guard let digit = self.current, JSONParser.isDigit(digit) else { throw self.error("invalid exponent") }
            self.skipDigits()
        }
        return .number(String(decoding: self.bytes[start..<self.index], as: UTF8.self))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = self.current, JSONParser.isDigit(byte) { self.index += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        self.index += 1
        var out: [UInt8] = []
        while true {
            guard let byte = self.current else { throw self.error("unterminated string") }
            self.index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try self.parseEscape(into: &out)
            case 0x00..<0x20:
                throw self.error("control character in string")
            default:
                out.append(byte)
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
        guard let byte = self.current else { throw self.error("unterminated escape") }
        self.index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try self.parseHex4()
            // A high surrogate followed by `\uDC00`…`\uDFFF` is one scalar; a lone surrogate is valid JSON text
            // (RFC 8259 §8.2 leaves it to the reader) and becomes U+FFFD in the decoded value.
            if (0xD800..<0xDC00).contains(scalar), self.hasLowSurrogateEscape() {
                self.index += 2
                let low = try self.parseHex4()
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
        default:
            throw self.error("invalid escape")
        }
    }

    private func hasLowSurrogateEscape() -> Bool {
        guard self.index + 6 <= self.bytes.count, self.bytes[self.index] == UInt8(ascii: "\\"),
            self.bytes[self.index + 1] == UInt8(ascii: "u")
        else { return false }
        var value: UInt32 = 0
        for byte in self.bytes[(self.index + 2)..<(self.index + 6)] {
            guard let digit = JSONParser.hexValue(byte) else { return false }
            value = value << 4 | digit
        }
        return (0xDC00..<0xE000).contains(value)
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = self.current, let digit = JSONParser.hexValue(byte) else {
                throw self.error("invalid \\u escape")
            }
            value = value << 4 | digit
            self.index += 1
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
