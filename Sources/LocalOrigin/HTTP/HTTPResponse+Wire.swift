// How the server puts an `HTTPResponse` on the wire (docs/PROTOCOL.md §1.2): the 3.4.2 client finds the body length
// only through a header spelled exactly `Content-Length: `, and each response only through a status line starting with
// `HTTP/1.1 `, so both are written byte-exact here.

extension HTTPResponse {
    private static let statusLinePrefix: [UInt8] = Array("HTTP/1.1 ".utf8)
    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)
    private static let keepAliveTail: [UInt8] = Array("\r\nConnection: keep-alive\r\n\r\n".utf8)
    private static let closeTail: [UInt8] = Array("\r\nConnection: close\r\n\r\n".utf8)
    private static let separator: [UInt8] = Array(": ".utf8)
    private static let lineEnd: [UInt8] = Array("\r\n".utf8)

    /// Appends the status line, the handler's headers as given, `Content-Length`, `Connection` and (unless
    /// `includeBody` is false, for HEAD) the body to `output`.
    func write(to output: inout [UInt8], keepAlive: Bool, includeBody: Bool) {
        output.append(contentsOf: Self.statusLinePrefix)
        Self.appendDecimal(self.status, to: &output)
        output.append(HTTPBytes.space)
        Self.appendUTF8(self.reason, to: &output)
        output.append(contentsOf: Self.lineEnd)
        for header in self.headers {
            Self.appendUTF8(header.name, to: &output)
            output.append(contentsOf: Self.separator)
            Self.appendUTF8(header.value, to: &output)
            output.append(contentsOf: Self.lineEnd)
        }
        output.append(contentsOf: Self.contentLengthPrefix)
        Self.appendDecimal(self.body.count, to: &output)
        output.append(contentsOf: keepAlive ? Self.keepAliveTail : Self.closeTail)
        if includeBody { output.append(contentsOf: self.body) }
    }

    /// Appends `value` in decimal without allocating a `String`.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        self.appendDecimal(value.magnitude, to: &output)
    }

    /// Appends `value` in decimal without allocating a `String`.
    static func appendDecimal(_ value: UInt, to output: inout [UInt8]) {
        self.appendDecimal(UInt64(value), to: &output)
    }

    /// Appends `value` in decimal without allocating a `String` (timetokens in answers, too: `UInt64` wherever `UInt`
    /// is 32 bits).
    static func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        // Written backwards into 20 bytes on the stack (`UInt.max` has 20 digits), then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = value
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends the UTF-8 of `text`, read in place where the string is contiguous (every native one).
    static func appendUTF8(_ text: String, to output: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
            output.append(contentsOf: text.utf8)
        }
    }
}
