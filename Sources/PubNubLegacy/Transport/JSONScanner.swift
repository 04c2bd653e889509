// Reads the structure of a JSON answer (RFC 8259) without building its values, so the parts that carry
// publishers' payloads can be decoded one by one: one payload this platform cannot represent (a lone surrogate
// escape, `1e999999`, a 400-digit integer — all valid JSON) must not make a whole subscribe answer or history page
// unreadable (docs/BEHAVIOR.md §3.8, §3.10). Values are skipped with an explicit nesting stack, never recursion, so
// a deeply nested payload cannot exhaust the thread's stack either.

/// Walks JSON text in a byte buffer: skips values and reports their byte ranges, reads strings and numbers.
///
/// Every reading method skips leading whitespace, and on failure returns nil or false with the position unspecified:
/// callers give up on the text at the first failure. Strings are checked for JSON syntax (escapes, no raw control
/// characters) but only `readString()` checks UTF-8.
struct JSONScanner {
    private let bytes: UnsafeRawBufferPointer
    /// Offset of the next unread byte.
    private(set) var index: Int

    init(_ bytes: UnsafeRawBufferPointer, from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    /// True when only whitespace is left.
    mutating func isAtEnd() -> Bool {
        self.skipWhitespace()
        return self.index >= self.bytes.count
    }

    /// The next byte after whitespace, without consuming it.
    mutating func peek() -> UInt8? {
        self.skipWhitespace()
        return self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    /// Consumes `byte` when it comes next (after whitespace).
    mutating func consume(_ byte: UInt8) -> Bool {
        guard self.peek() == byte else { return false }
        self.index += 1
        return true
    }

    // MARK: - Containers

    /// Reads an object member by member: `member` gets each key with the scanner at its value, and must consume
    /// that value (returning false stops with a failure). False when the next value is not a well-formed object.
    mutating func readObject(_ member: (String, inout JSONScanner) -> Bool) -> Bool {
        guard self.consume(UInt8(ascii: "{")) else { return false }
        if self.consume(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = self.readString(), self.consume(UInt8(ascii: ":")), member(key, &self) else { return false }
            if self.consume(UInt8(ascii: "}")) { return true }
            guard self.consume(UInt8(ascii: ",")) else { return false }
        }
    }

    /// Reads an array element by element: `element` gets the scanner at each element and must consume it. False when
    /// the next value is not a well-formed array.
    mutating func readArray(_ element: (inout JSONScanner) -> Bool) -> Bool {
        guard self.consume(UInt8(ascii: "[")) else { return false }
        if self.consume(UInt8(ascii: "]")) { return true }
        while true {
            guard element(&self) else { return false }
            if self.consume(UInt8(ascii: "]")) { return true }
            guard self.consume(UInt8(ascii: ",")) else { return false }
        }
    }

    // MARK: - Skipping

    /// Skips one value of any kind and returns its byte range (without surrounding whitespace); nil when the text
    /// there is not one well-formed JSON value. Nesting depth is limited only by the text's length.
    mutating func skipValue() -> Range<Int>? {
        guard self.peek() != nil else { return nil }
        let start = self.index
        // One entry per open container: true for an object, false for an array.
        var open: [Bool] = []
        while true {
            // A value is expected here.
            guard let byte = self.peek() else { return nil }
            switch byte {
            case UInt8(ascii: "{"):
                self.index += 1
                if self.consume(UInt8(ascii: "}")) { break }
                guard self.skipKeyAndColon() else { return nil }
                open.append(true)
                continue
            case UInt8(ascii: "["):
                self.index += 1
                if self.consume(UInt8(ascii: "]")) { break }
                open.append(false)
                continue
            case UInt8(ascii: "\""):
                guard self.skipString() else { return nil }
            case UInt8(ascii: "t"):
                guard self.skipLiteral("true") else { return nil }
            case UInt8(ascii: "f"):
                guard self.skipLiteral("false") else { return nil }
            case UInt8(ascii: "n"):
                guard self.skipLiteral("null") else { return nil }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard self.skipNumber() != nil else { return nil }
            default:
                return nil
            }
            // A value just ended: close containers until one continues with another element.
            while true {
                guard let isObject = open.last else { return start..<self.index }
                if self.consume(UInt8(ascii: ",")) {
                    if isObject {
                        guard self.skipKeyAndColon() else { return nil }
                    }
                    break
                }
                guard self.consume(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                open.removeLast()
            }
        }
    }

    private mutating func skipKeyAndColon() -> Bool {
        guard self.peek() == UInt8(ascii: "\""), self.skipString() else { return false }
        return self.consume(UInt8(ascii: ":"))
    }

    private mutating func skipLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard self.index + count <= self.bytes.count else { return false }
        for offset in 0..<count where self.bytes[self.index + offset] != literal.utf8Start[offset] {
            return false
        }
        self.index += count
        return true
    }

    // MARK: - Strings

    /// Skips a string (at its opening quote); true when it is well-formed. Sets `hasEscapes` on the way, and
    /// `isASCII` to false at the first byte above 0x7F.
    private mutating func skipString(
        hasEscapes: UnsafeMutablePointer<Bool>? = nil,
        isASCII: UnsafeMutablePointer<Bool>? = nil
    ) -> Bool {
        self.index += 1
        while self.index < self.bytes.count {
            let byte = self.bytes[self.index]
            self.index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case 0x80...:
                isASCII?.pointee = false
            case UInt8(ascii: "\\"):
                hasEscapes?.pointee = true
                guard self.index < self.bytes.count else { return false }
                let escaped = self.bytes[self.index]
                self.index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard self.hex4(at: self.index) != nil else { return false }
                    self.index += 4
                default:
                    return false
                }
            case 0x00..<0x20:
                return false
            default:
                continue
            }
        }
        return false
    }

    /// Reads a string value with its escapes decoded; nil when the next value is not a string, or the string is
    /// malformed, not UTF-8 or holds a lone surrogate escape. For the answer's own fields (channel names, cursors),
    /// which must be exact: payloads are decoded elsewhere, with their own rules.
    mutating func readString() -> String? {
        guard self.peek() == UInt8(ascii: "\"") else { return nil }
        let start = self.index + 1
        var hasEscapes = false
        var isASCII = true
        guard self.skipString(hasEscapes: &hasEscapes, isASCII: &isASCII) else { return nil }
        let end = self.index - 1
        if !hasEscapes {
            let text = UnsafeRawBufferPointer(rebasing: self.bytes[start..<end])
            // ASCII is valid UTF-8 as it is, and `String(decoding:)` takes it without the generic validation (which
            // cost 1,300 instructions per key or channel name: BENCHMARKS.md, per delivered message).
            return isASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(end - start)
        var position = start
        while position < end {
            let byte = self.bytes[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                continue
            }
            let escaped = self.bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = self.hex4(at: position) else { return nil }
                position += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard position + 6 <= end, self.bytes[position] == UInt8(ascii: "\\"),
                        self.bytes[position + 1] == UInt8(ascii: "u"), let low = self.hex4(at: position + 2),
                        (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    position += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let character = Unicode.Scalar(scalar) else { return nil }
                decoded.append(contentsOf: String(character).utf8)
            default:
                decoded.append(escaped)
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private func hex4(at position: Int) -> UInt32? {
        guard position + 4 <= self.bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = self.bytes[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: - Numbers

    /// Reads a number and returns its text; nil when the next value is not a well-formed number.
    mutating func readNumberText() -> String? {
        guard let byte = self.peek(), byte == UInt8(ascii: "-") || Self.isDigit(byte), let range = self.skipNumber()
        else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: self.bytes[range]), as: UTF8.self)
    }

    /// Skips a number (RFC 8259 grammar, any size) and returns its range.
    private mutating func skipNumber() -> Range<Int>? {
        let start = self.index
        if self.current == UInt8(ascii: "-") { self.index += 1 }
        guard let first = self.current, Self.isDigit(first) else { return nil }
        self.index += 1
        if first != UInt8(ascii: "0") { self.skipDigits() }
        if self.current == UInt8(ascii: ".") {
            self.index += 1
            guard let digit = self.current, Self.isDigit(digit) else { return nil }
            self.skipDigits()
        }
        if self.current == UInt8(ascii: "e") || self.current == UInt8(ascii: "E") {
            self.index += 1
            if self.current == UInt8(ascii: "+") || self.current == UInt8(ascii: "-") { self.index += 1 }
            guard let digit = self.current, Self.isDigit(digit) else { return nil }
            self.skipDigits()
        }
        return start..<self.index
    }

    private var current: UInt8? {
        self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = self.current, Self.isDigit(byte) { self.index += 1 }
    }

    private mutating func skipWhitespace() {
        while self.index < self.bytes.count {
            switch self.bytes[self.index] {
            case 0x20, 0x09, 0x0A, 0x0D: self.index += 1
            default: return
            }
        }
    }
}
