// An incremental HTTP/1.1 request parser over raw bytes. No I/O: the connection feeds it the unconsumed bytes of
// its input (always starting at the first byte of the request being parsed) and the parser resumes where it
// stopped, so byte-by-byte input costs no rescanning. Every byte is validated as it arrives, so input that can no
// longer become a valid request is rejected at once instead of waiting for a line end (docs/PROTOCOL.md §3 item 4).

/// Parses requests one at a time from a byte buffer that starts at the current request's first byte.
struct HTTPParser {
    /// What `parse` found.
    enum Result {
        /// A complete request occupying the first `consumed` bytes; `keepAlive` is false when the connection must
        /// close after its answer (`Connection: close`, or HTTP/1.0 without `Connection: keep-alive`).
        case request(HTTPRequest, keepAlive: Bool, consumed: Int)
        /// The bytes so far are a valid prefix of a request; call again with the same bytes plus more.
        case needMore
        /// The bytes can never become a valid request (or exceed a limit).
        case failure(HTTPParseError)
    }

    private enum Phase {
        case lineStart, leadingLF, method, target, version, requestLineLF
        case fieldStart, fieldName, fieldValue, fieldLF, headersEndLF, body
    }

    private enum TransferCoding {
        case none, chunked, other
    }

    private struct Field {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
    }

    /// Blank lines (CRLF or LF) tolerated before a request line (RFC 9112 §2.2); more is not a client bug but noise.
    private static let maxLeadingBlankBytes = 16

    private let maxRequestLineBytes: Int
    private let maxHeaderBytes: Int
    private let maxBodyBytes: Int

    private var phase = Phase.lineStart
    private var scan = 0
    private var lineStart = 0
    private var methodEnd = 0
    private var targetEnd = 0
    private var minorVersion: UInt8 = 0
    private var headersStart = 0
    private var fieldStart = 0
    private var nameEnd = 0
    private var valueEnd = 0
    private var fields: [Field] = []
    private var contentLength: Int?
    private var transferCoding = TransferCoding.none
    private var connectionClose = false
    private var connectionKeepAlive = false
    private var bodyStart = 0
    private var bodyLength = 0

    /// Creates a parser enforcing `limits`.
    init(limits: HTTPServerLimits) {
        self.maxRequestLineBytes = max(1, limits.maxRequestLineBytes)
        self.maxHeaderBytes = max(1, limits.maxHeaderBytes)
        self.maxBodyBytes = max(0, limits.maxBodyBytes)
        self.fields.reserveCapacity(16)
    }

    /// True when no byte of a next request has been examined yet.
    var isAtRequestStart: Bool { self.phase == .lineStart && self.scan == 0 }

    /// True once the current request's header block is complete and its body is being read.
    var isReadingBody: Bool { self.phase == .body }

    // MARK: - Parsing

    /// Continues parsing `bytes`, which must start at the current request's first byte and extend the bytes given
    /// to the previous call. After `.request` the parser is reset for the next request, whose bytes start at
    /// `consumed`. After `.failure` the parser must not be used again.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        let count = bytes.count
        var index = self.scan
        while index < count, self.phase != .body {
            let byte = bytes[index]
            switch self.phase {
            case .lineStart:
                if byte == HTTPBytes.cr || byte == HTTPBytes.lf {
                    guard index < Self.maxLeadingBlankBytes else { return self.fail(400, "Malformed request line") }
                    if byte == HTTPBytes.cr {
                        self.phase = .leadingLF
                    } else {
                        self.lineStart = index + 1
                    }
                } else if HTTPBytes.isTokenByte(byte) {
                    self.lineStart = index
                    self.phase = .method
                } else {
                    return self.fail(400, "Malformed request line")
                }
            case .leadingLF:
                guard byte == HTTPBytes.lf else { return self.fail(400, "Malformed request line") }
                self.lineStart = index + 1
                self.phase = .lineStart
            case .method:
                if byte == HTTPBytes.space {
                    self.methodEnd = index
                    self.phase = .target
                } else if !HTTPBytes.isTokenByte(byte) {
                    return self.fail(400, "Malformed request method")
                } else if index - self.lineStart >= self.maxRequestLineBytes {
                    return self.fail(414, "Request URI Too Long")
                }
            case .target:
                // Tight inner loop: the target is the longest part of a PubNub request line.
                let limit = min(count, self.lineStart + self.maxRequestLineBytes)
                var end = index
                while end < limit, HTTPBytes.isTargetByte(bytes[end]) { end += 1 }
                if end == count {
                    index = end
                    continue
                }
                if end == limit, HTTPBytes.isTargetByte(bytes[end]) { return self.fail(414, "Request URI Too Long") }
                index = end
                guard bytes[end] == HTTPBytes.space else { return self.fail(400, "Malformed request target") }
                guard end > self.methodEnd + 1 else { return self.fail(400, "Malformed request target") }
                self.targetEnd = end
                self.phase = .version
            case .version:
                if let failure = self.versionByte(byte, at: index) { return .failure(failure) }
            case .requestLineLF:
                guard byte == HTTPBytes.lf else { return self.fail(400, "Malformed request line") }
                self.headersStart = index + 1
                self.fieldStart = index + 1
                self.phase = .fieldStart
            case .fieldStart, .fieldName, .fieldValue, .fieldLF, .headersEndLF:
                guard index - self.headersStart < self.maxHeaderBytes else {
                    return self.fail(431, "Request Header Fields Too Large")
                }
                if let failure = self.headerByte(byte, at: index, in: bytes) { return .failure(failure) }
                if self.phase == .fieldValue || self.phase == .fieldName {
                    // Tight inner loops over the plain bytes of a value or a name (the per-byte step would only count
                    // them against the limit, which the next step checks where the loop stops).
                    let limit = min(count, self.headersStart + self.maxHeaderBytes)
                    var end = index + 1
                    if self.phase == .fieldValue {
                        while end < limit, HTTPBytes.isFieldValueByte(bytes[end]) { end += 1 }
                    } else {
                        while end < limit, HTTPBytes.isTokenByte(bytes[end]) { end += 1 }
                    }
                    index = end
                    continue
                }
            case .body:
                break
            }
            index += 1
        }
        self.scan = index
        if self.phase == .body, count - self.bodyStart >= self.bodyLength {
            return self.complete(bytes, end: self.bodyStart + self.bodyLength)
        }
        return .needMore
    }

    private func fail(_ status: Int, _ message: String) -> Result {
        .failure(HTTPParseError(status: status, message: message))
    }

    // MARK: - Request line

    private static let versionPrefix: [UInt8] = Array("HTTP/".utf8)

    private mutating func versionByte(_ byte: UInt8, at index: Int) -> HTTPParseError? {
        let offset = index - self.targetEnd - 1
        switch offset {
        case 0..<5:
            guard byte == Self.versionPrefix[offset] else {
                return HTTPParseError(status: 400, message: "Malformed HTTP version")
            }
        case 5:
            guard HTTPBytes.isDigit(byte) else { return HTTPParseError(status: 400, message: "Malformed HTTP version") }
            // Only HTTP/1.x can follow; any other major version is known to be unsupported right here.
            guard byte == UInt8(ascii: "1") else {
                return HTTPParseError(status: 505, message: "HTTP Version Not Supported")
            }
        case 6:
            guard byte == UInt8(ascii: ".") else {
                return HTTPParseError(status: 400, message: "Malformed HTTP version")
            }
        case 7:
            guard HTTPBytes.isDigit(byte) else { return HTTPParseError(status: 400, message: "Malformed HTTP version") }
            self.minorVersion = byte - UInt8(ascii: "0")
        default:
            if byte == HTTPBytes.cr {
                self.phase = .requestLineLF
            } else if byte == HTTPBytes.lf {
                self.headersStart = index + 1
                self.fieldStart = index + 1
                self.phase = .fieldStart
            } else {
                return HTTPParseError(status: 400, message: "Malformed HTTP version")
            }
            return nil
        }
        if index - self.lineStart >= self.maxRequestLineBytes {
            return HTTPParseError(status: 414, message: "Request URI Too Long")
        }
        return nil
    }

    // MARK: - Header block

    private mutating func headerByte(
        _ byte: UInt8,
        at index: Int,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> HTTPParseError? {
        switch self.phase {
        case .fieldStart:
            if HTTPBytes.isTokenByte(byte) {
                self.phase = .fieldName
            } else if byte == HTTPBytes.cr {
                self.phase = .headersEndLF
            } else if byte == HTTPBytes.lf {
                return self.headersEnded(at: index, in: bytes)
            } else if byte == HTTPBytes.space || byte == HTTPBytes.tab {
                return HTTPParseError(status: 400, message: "Obsolete header line folding")
            } else {
                return HTTPParseError(status: 400, message: "Malformed header line")
            }
        case .fieldName:
            if byte == UInt8(ascii: ":") {
                self.nameEnd = index
                self.phase = .fieldValue
            } else if !HTTPBytes.isTokenByte(byte) {
                return HTTPParseError(status: 400, message: "Malformed header line")
            }
        case .fieldValue:
            if byte == HTTPBytes.cr {
                self.valueEnd = index
                self.phase = .fieldLF
            } else if byte == HTTPBytes.lf {
                self.valueEnd = index
                return self.fieldEnded(at: index, in: bytes)
            } else if !HTTPBytes.isFieldValueByte(byte) {
                return HTTPParseError(status: 400, message: "Control character in header value")
            }
        case .fieldLF:
            guard byte == HTTPBytes.lf else { return HTTPParseError(status: 400, message: "Malformed line end") }
            return self.fieldEnded(at: index, in: bytes)
        case .headersEndLF:
            guard byte == HTTPBytes.lf else { return HTTPParseError(status: 400, message: "Malformed line end") }
            return self.headersEnded(at: index, in: bytes)
        default:
            break
        }
        return nil
    }

    private static let contentLengthName: [UInt8] = Array("content-length".utf8)
    private static let transferEncodingName: [UInt8] = Array("transfer-encoding".utf8)
    private static let connectionName: [UInt8] = Array("connection".utf8)
    private static let chunkedToken: [UInt8] = Array("chunked".utf8)
    private static let closeToken: [UInt8] = Array("close".utf8)
    private static let keepAliveToken: [UInt8] = Array("keep-alive".utf8)

    /// Records the header line that ends at `index` and checks the headers that decide framing.
    private mutating func fieldEnded(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        var start = self.nameEnd + 1
        var end = self.valueEnd
        while start < end, HTTPBytes.isWhitespace(bytes[start]) { start += 1 }
        while end > start, HTTPBytes.isWhitespace(bytes[end - 1]) { end -= 1 }
        let field = Field(nameStart: self.fieldStart, nameEnd: self.nameEnd, valueStart: start, valueEnd: end)
        self.fields.append(field)
        self.fieldStart = index + 1
        self.phase = .fieldStart

        let name = UnsafeBufferPointer(rebasing: bytes[field.nameStart..<field.nameEnd])
        let value = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if HTTPBytes.equalsLowercased(name, Self.contentLengthName) {
            return self.contentLengthField(value)
        } else if HTTPBytes.equalsLowercased(name, Self.transferEncodingName) {
            let last = HTTPBytes.tokens(of: value).last ?? value
            self.transferCoding = HTTPBytes.equalsLowercased(last, Self.chunkedToken) ? .chunked : .other
        } else if HTTPBytes.equalsLowercased(name, Self.connectionName) {
            for token in HTTPBytes.tokens(of: value) {
                if HTTPBytes.equalsLowercased(token, Self.closeToken) { self.connectionClose = true }
                if HTTPBytes.equalsLowercased(token, Self.keepAliveToken) { self.connectionKeepAlive = true }
            }
        }
        return nil
    }

    private mutating func contentLengthField(_ value: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        guard !value.isEmpty else { return HTTPParseError(status: 400, message: "Invalid Content-Length") }
        var length = 0
        var tooLarge = false
        for byte in value {
            guard HTTPBytes.isDigit(byte) else { return HTTPParseError(status: 400, message: "Invalid Content-Length") }
            if !tooLarge {
                length = length * 10 + Int(byte - UInt8(ascii: "0"))
                tooLarge = length > self.maxBodyBytes
            }
        }
        // Rejected on the header itself: a valid request would only add body bytes the server will not take.
        if tooLarge { return HTTPParseError(status: 413, message: "Request Entity Too Large") }
        if let previous = self.contentLength, previous != length {
            return HTTPParseError(status: 400, message: "Conflicting Content-Length")
        }
        self.contentLength = length
        return nil
    }

    private static let methodsWithBody: [[UInt8]] = [Array("POST".utf8), Array("PUT".utf8), Array("PATCH".utf8)]

    /// The empty line at `index` ends the header block: decide how long the body is.
    private mutating func headersEnded(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        self.bodyStart = index + 1
        switch self.transferCoding {
        case .none:
            break
        case _ where self.contentLength != nil:
            return HTTPParseError(status: 400, message: "Both Content-Length and Transfer-Encoding")
        case .chunked:
            // Chunked request bodies are not supported; RFC 9112 §6.3 lets a server ask for a length instead.
            return HTTPParseError(status: 411, message: "Length Required: send Content-Length, not chunked")
        case .other:
            return HTTPParseError(status: 501, message: "Unsupported Transfer-Encoding")
        }
        if self.contentLength == nil {
            let method = UnsafeBufferPointer(rebasing: bytes[self.lineStart..<self.methodEnd])
            if Self.methodsWithBody.contains(where: { method.elementsEqual($0) }) {
                return HTTPParseError(status: 411, message: "Length Required")
            }
        }
        self.bodyLength = self.contentLength ?? 0
        self.phase = .body
        return nil
    }

    // MARK: - Result

    private mutating func complete(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Result {
        let method = Self.string(bytes, self.lineStart, self.methodEnd)
        let target = Self.targetString(UnsafeBufferPointer(rebasing: bytes[(self.methodEnd + 1)..<self.targetEnd]))
        let version: String
        switch self.minorVersion {
        case 1: version = "HTTP/1.1"
        case 0: version = "HTTP/1.0"
        default: version = Self.string(bytes, self.targetEnd + 1, self.targetEnd + 9)
        }
        // The header lines stay bytes until someone reads them (`HTTPRequest.headers`).
        let blockStart = self.headersStart
        let blockEnd = self.fields.last?.valueEnd ?? blockStart
        let headers = ReceivedHeaders(
            bytes: Array(bytes[blockStart..<blockEnd]),
            fields: self.fields.map {
                (
                    ($0.nameStart - blockStart)..<($0.nameEnd - blockStart),
                    ($0.valueStart - blockStart)..<($0.valueEnd - blockStart)
                )
            }
        )
        let body = self.bodyLength > 0 ? Array(bytes[self.bodyStart..<end]) : []
        let keepAlive =
            self.minorVersion == 0 ? self.connectionKeepAlive && !self.connectionClose : !self.connectionClose
        let request = HTTPRequest(
            method: method,
            target: target,
            version: version,
            receivedHeaders: headers,
            body: body
        )
        self.reset()
        return .request(request, keepAlive: keepAlive, consumed: end)
    }

    private mutating func reset() {
        self.phase = .lineStart
        self.scan = 0
        self.lineStart = 0
        self.fields.removeAll(keepingCapacity: true)
        self.contentLength = nil
        self.transferCoding = .none
        self.connectionClose = false
        self.connectionKeepAlive = false
        self.bodyLength = 0
        self.minorVersion = 0
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
