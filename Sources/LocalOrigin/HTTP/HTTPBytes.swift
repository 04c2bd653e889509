// Byte classes of the HTTP grammar, used by the parser's per-byte validation.

/// Byte classes from RFC 9110 §5.6 and RFC 9112, as table lookups.
enum HTTPBytes {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// `tchar`: the bytes of a method or header name.
    private static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return true }
        if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { return true }
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return true }
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool { self.tokenTable[Int(byte)] }

    /// A request-target byte: visible ASCII or a non-ASCII byte (kept raw; the handler decides), never a control
    /// character or space.
    @inline(__always)
    static func isTargetByte(_ byte: UInt8) -> Bool { byte > 0x20 && byte != 0x7F }

    /// A header value byte other than the line end: HTAB, SP, visible ASCII, obs-text.
    @inline(__always)
    static func isFieldValueByte(_ byte: UInt8) -> Bool { byte >= 0x20 ? byte != 0x7F : byte == self.tab }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == self.space || byte == self.tab }

    /// Compares `bytes` case-insensitively with `lowercased`, which holds only lowercase letters and `-`.
    static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercased: [UInt8]) -> Bool {
        guard bytes.count == lowercased.count else { return false }
        for index in 0..<bytes.count where bytes[index] | 0x20 != lowercased[index] {
            return false
        }
        return true
    }

    /// The comma-separated elements of a header value, each trimmed of spaces and tabs; empty elements skipped.
    static func tokens(of value: UnsafeBufferPointer<UInt8>) -> [UnsafeBufferPointer<UInt8>] {
        var result: [UnsafeBufferPointer<UInt8>] = []
        for part in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
            var start = part.startIndex
            var end = part.endIndex
            while start < end, self.isWhitespace(value[start]) { start += 1 }
            while end > start, self.isWhitespace(value[end - 1]) { end -= 1 }
            if start < end { result.append(UnsafeBufferPointer(rebasing: value[start..<end])) }
        }
        return result
    }
}
