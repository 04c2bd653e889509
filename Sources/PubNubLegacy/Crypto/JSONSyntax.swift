// A JSON syntax check (RFC 8259, any value at top level) that allocates nothing. Decryption uses it to tell the right
// reading of a legacy payload from the wrong one (fixed vs random IV, docs/CRYPTO.md §3) without paying for a parse.

/// Validates JSON text without building values.
enum JSONSyntax {
    /// Deeper nesting is rejected rather than risking the stack; real PubNub messages are far shallower.
    static let maximumDepth = 512

    /// Whether `bytes` is one JSON value (object, array, string, number, `true`, `false` or `null`) with optional
    /// surrounding whitespace. UTF-8 validity of string contents is not checked here.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let result = bytes.withContiguousStorageIfAvailable({ JSONSyntax.isValid(buffer: $0) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { JSONSyntax.isValid(buffer: $0) }
    }

    private static func isValid(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = Scanner(bytes: buffer)
        scanner.skipWhitespace()
        guard scanner.value(depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.index == buffer.count
    }

    // MARK: - Scanner

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        private var current: UInt8? {
            self.index < self.bytes.count ? self.bytes[self.index] : nil
        }

        mutating func skipWhitespace() {
            while let byte = self.current, byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 {
                self.index += 1
            }
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < JSONSyntax.maximumDepth, let byte = self.current else { return false }
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

        private mutating func object(depth: Int) -> Bool {
            self.index += 1
            self.skipWhitespace()
            if self.consume(UInt8(ascii: "}")) { return true }
            while true {
                self.skipWhitespace()
                guard self.current == UInt8(ascii: "\""), self.string() else { return false }
                self.skipWhitespace()
                guard self.consume(UInt8(ascii: ":")) else { return false }
                self.skipWhitespace()
                guard self.value(depth: depth) else { return false }
                self.skipWhitespace()
                if self.consume(UInt8(ascii: "}")) { return true }
                guard self.consume(UInt8(ascii: ",")) else { return false }
            }
        }

        private mutating func array(depth: Int) -> Bool {
            self.index += 1
            self.skipWhitespace()
            if self.consume(UInt8(ascii: "]")) { return true }
            while true {
                self.skipWhitespace()
                guard self.value(depth: depth) else { return false }
                self.skipWhitespace()
                if self.consume(UInt8(ascii: "]")) { return true }
                guard self.consume(UInt8(ascii: ",")) else { return false }
            }
        }

        // MARK: Strings, numbers, literals

        private mutating func string() -> Bool {
            self.index += 1
            while let byte = self.current {
                self.index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard let escaped = self.current else { return false }
                    self.index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let hex = self.current, Scanner.isHexDigit(hex) else { return false }
                            self.index += 1
                        }
                    default:
                        return false
                    }
                case 0x00..<0x20:
                    return false  // control characters must be escaped
                default:
                    continue
                }
            }
            return false
        }

        private mutating func number() -> Bool {
            _ = self.consume(UInt8(ascii: "-"))
            if self.consume(UInt8(ascii: "0")) {
                // A leading zero stands alone: "01" is not a number.
            } else if !self.digits() {
                return false
            }
            if self.consume(UInt8(ascii: ".")), !self.digits() {
                return false
            }
            if self.consume(UInt8(ascii: "e")) || self.consume(UInt8(ascii: "E")) {
                if !self.consume(UInt8(ascii: "+")) {
                    _ = self.consume(UInt8(ascii: "-"))
                }
                return self.digits()
            }
            return true
        }

        /// Consumes one or more decimal digits; false when there is none.
        private mutating func digits() -> Bool {
            let start = self.index
            while let byte = self.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                self.index += 1
            }
            return self.index > start
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard self.bytes.count - self.index >= length else { return false }
            for offset in 0..<length where self.bytes[self.index + offset] != word.utf8Start[offset] {
                return false
            }
            self.index += length
            return true
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard self.current == byte else { return false }
            self.index += 1
            return true
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                return true
            default:
                return false
            }
        }
    }
}
