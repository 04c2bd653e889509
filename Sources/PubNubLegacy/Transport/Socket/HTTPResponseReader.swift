import Foundation

/// Reads one HTTP/1.x response from the bytes of a connection: status line, headers, and a body framed by
/// `Content-Length`, `Transfer-Encoding: chunked` or the end of the stream. Pure: no I/O, so tests feed it bytes in
/// any split.
///
/// Interim `1xx` answers are skipped (at most `maximumInterimAnswers`). What it holds is bounded by the request's
/// `ResponseLimits` — header bytes and lines, trailer bytes, body bytes — and by one read of the connection: past a
/// limit it fails at once, without waiting for the rest, so an endless body, endless chunks or endless trailers cost
/// no more memory than the limit.
struct HTTPResponseReader {
    /// What the reader needs next.
    enum Progress: Equatable {
        case needMore
        /// The response is complete. `reusable`: the connection may carry another request (keep-alive, framed body,
        /// no bytes after the response).
        case complete(TransportResponse, reusable: Bool)
    }

    /// Why the bytes are not an acceptable response.
    enum Failure: Error, Equatable {
        /// Not HTTP/1.x, or a header or chunk line that cannot be read.
        case malformed(String)
        /// The head is larger than `ResponseLimits.maximumHeaderBytes`.
        case headerTooLarge
        /// The head has more lines than `ResponseLimits.maximumHeaderCount`.
        case tooManyHeaders
        /// The trailers of a chunked body are larger than `ResponseLimits.maximumTrailerBytes`.
        case trailersTooLarge
        /// The body is larger than `ResponseLimits.maximumBodyBytes`.
        case bodyTooLarge
        /// The stream ended before the response was complete.
        case truncated
    }

    /// Interim answers (`100 Continue` and the like) accepted before the real one.
    static let maximumInterimAnswers = 16

    private enum Phase {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }

    let limits: ResponseLimits
    private var phase = Phase.head
    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`.
    private var cursor = 0
    private var status = 0
    /// Whether the last complete response left the connection open (HTTP/1.1 without `Connection: close`, or a
    /// 1.0 keep-alive, and a framed body).
    private(set) var keepAlive = true
    private var body = Data()
    private var interimAnswers = 0
    private var trailerBytes = 0

    init(limits: ResponseLimits = ResponseLimits()) {
        self.limits = limits
    }

    private var maximumHeaderBytes: Int { self.limits.maximumHeaderBytes }
    private var maximumBodyBytes: Int { self.limits.maximumBodyBytes }

    /// Adds `bytes` received from the connection.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Progress {
        if case .done = self.phase {
            // Bytes after a complete response: the connection is not in a state to reuse.
            self.keepAlive = false
            return .needMore
        }
        self.buffer.append(contentsOf: bytes)
        return try self.advance()
    }

    /// The stream ended: completes a close-delimited body, otherwise reports truncation.
    mutating func finish() throws(Failure) -> Progress {
        guard case .untilClose = self.phase else { throw .truncated }
        self.phase = .done
        return .complete(TransportResponse(status: self.status, body: self.body), reusable: false)
    }

    // MARK: - Parsing

    private mutating func advance() throws(Failure) -> Progress {
        while true {
            switch self.phase {
            case .head:
                guard try self.readHead() else { return .needMore }
            case .fixed(let remaining):
                let take = min(remaining, self.buffer.count - self.cursor)
                self.appendToBody(self.cursor..<(self.cursor + take))
                self.cursor += take
                if take < remaining {
                    self.phase = .fixed(remaining: remaining - take)
                    self.compact()
                    return .needMore
                }
                return self.complete()
            case .chunkSize:
                guard let line = try self.readLine(limit: 1_024) else { return .needMore }
                let digits = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                guard let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw .malformed("bad chunk size")
                }
                guard size <= self.maximumBodyBytes - self.body.count else { throw .bodyTooLarge }
                self.phase = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, self.buffer.count - self.cursor)
                self.appendToBody(self.cursor..<(self.cursor + take))
                self.cursor += take
                if take < remaining {
                    self.phase = .chunkData(remaining: remaining - take)
                    self.compact()
                    return .needMore
                }
                self.phase = .chunkEnd
            case .chunkEnd:
                guard let line = try self.readLine(limit: 2) else { return .needMore }
                guard line.isEmpty else { throw .malformed("chunk not followed by a line end") }
                self.phase = .chunkSize
            case .trailers:
                let left = self.limits.maximumTrailerBytes - self.trailerBytes
                let start = self.cursor
                guard let line = try self.readLine(limit: left, tooLong: .trailersTooLarge) else { return .needMore }
                if line.isEmpty { return self.complete() }
                self.trailerBytes += self.cursor - start
                self.compact()
            case .untilClose:
                let available = self.buffer.count - self.cursor
                guard available <= self.maximumBodyBytes - self.body.count else { throw .bodyTooLarge }
                self.appendToBody(self.cursor..<self.buffer.count)
                self.cursor = self.buffer.count
                self.compact()
                return .needMore
            case .done:
                return .needMore
            }
        }
    }

    /// Copies `range` of the buffer to the body in one block (appending an `ArraySlice` to `Data` goes through
    /// generic collection code).
    private mutating func appendToBody(_ range: Range<Int>) {
        self.buffer.withUnsafeBufferPointer { bytes in
            self.body.append(UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    private mutating func complete() -> Progress {
        self.phase = .done
        let reusable = self.keepAlive && self.cursor == self.buffer.count
        let response = TransportResponse(status: self.status, body: self.body)
        self.body = Data()
        if self.cursor == self.buffer.count {
            self.buffer.removeAll(keepingCapacity: true)
        } else {
            // Bytes of the next pipelined response (`next()`); a one-response exchange ignores them.
            self.buffer.removeFirst(self.cursor)
        }
        self.cursor = 0
        return .complete(response, reusable: reusable)
    }

    /// After a complete response: starts reading the next one of a pipelined connection from the bytes that followed
    /// it (`consume` adds more). Only while `keepAlive`: a connection that ends after the response has no next one.
    mutating func next() throws(Failure) -> Progress {
        guard case .done = self.phase, self.keepAlive else {
            preconditionFailure("next() before a complete keep-alive response")
        }
        self.phase = .head
        self.status = 0
        self.interimAnswers = 0
        self.trailerBytes = 0
        if self.buffer.isEmpty { return .needMore }
        return try self.advance()
    }

    /// Drops consumed bytes once they are most of the buffer, so a long body is not copied over and over.
    private mutating func compact() {
        if self.cursor > 0 && self.cursor * 2 >= self.buffer.count {
            self.buffer.removeFirst(self.cursor)
            self.cursor = 0
        }
    }

    /// The next line without its line end (CRLF or LF), or nil when it has not fully arrived. A line (with its
    /// line end) longer than `limit` fails with `tooLong`.
    private mutating func readLine(
        limit: Int,
        tooLong: Failure = .malformed("line too long")
    ) throws(Failure) -> String? {
        let end = self.buffer[self.cursor...].firstIndex(of: UInt8(ascii: "\n"))
        guard let end else {
            if self.buffer.count - self.cursor > limit { throw tooLong }
            return nil
        }
        guard end + 1 - self.cursor <= limit else { throw tooLong }
        var lineEnd = end
        if lineEnd > self.cursor && self.buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let line = String(decoding: self.buffer[self.cursor..<lineEnd], as: UTF8.self)
        self.cursor = end + 1
        return line
    }

    /// Reads the status line and headers when the whole head has arrived; returns false when more bytes are needed.
    private mutating func readHead() throws(Failure) -> Bool {
        // Bytes that are not HTTP are refused as such before any size check, however the stream was split.
        if self.buffer.count - self.cursor >= 5, !self.buffer[self.cursor...].starts(with: Self.httpPrefix) {
            throw .malformed("not an HTTP response")
        }
        guard let headEnd = self.headEnd() else {
            if self.buffer.count - self.cursor > self.maximumHeaderBytes { throw .headerTooLarge }
            return false
        }
        guard headEnd - self.cursor <= self.maximumHeaderBytes else { throw .headerTooLarge }
        let start = self.cursor
        self.cursor = headEnd
        let head = try self.buffer.withUnsafeBufferPointer { bytes throws(Failure) in
            try Self.parseHead(bytes, start..<headEnd, maximumHeaderCount: self.limits.maximumHeaderCount)
        }
        if (100..<200).contains(head.status) {
            // An interim answer: the real one follows on the same connection.
            self.interimAnswers += 1
            guard self.interimAnswers <= Self.maximumInterimAnswers else {
                throw .malformed("more than \(Self.maximumInterimAnswers) interim answers")
            }
            self.compact()
            return true
        }
        self.status = head.status
        self.keepAlive = head.closes ? false : (head.version11 || head.keepsAlive)
        if head.status == 204 || head.status == 304 {
            self.phase = .fixed(remaining: 0)
        } else if head.chunked {
            self.phase = .chunkSize
        } else if let contentLength = head.contentLength {
            guard contentLength <= self.maximumBodyBytes else { throw .bodyTooLarge }
            // One allocation of the announced size (bounded by the limit): pages the body never fills are never
            // touched, so a false announcement costs address space, not memory.
            self.body.reserveCapacity(contentLength)
            self.phase = .fixed(remaining: contentLength)
        } else {
            self.keepAlive = false
            self.phase = .untilClose
        }
        return true
    }

    /// What a response head says about the body and the connection.
    private struct Head {
        var status = 0
        var version11 = false
        var contentLength: Int?
        var chunked = false
        var closes = false
        var keepsAlive = false
    }

    /// Reads the head in `range` of `bytes` (its blank line included). Read as bytes in place: a response head is
    /// ASCII, and Foundation's string trimming and case mapping, or a `String` or array per line, cost more than the
    /// rest of a small exchange (BENCHMARKS.md, the profile of a publish).
    private static func parseHead(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        maximumHeaderCount: Int
    ) throws(Failure) -> Head {
        // The lines, without their line ends and without the empty ones (the blank line that ends the head).
        var lines: [Range<Int>] = []
        lines.reserveCapacity(16)
        var lineStart = range.lowerBound
        while let index = Self.firstIndex(of: Self.lineFeed, in: bytes, lineStart..<range.upperBound) {
            var lineEnd = index
            if lineEnd > lineStart && bytes[lineEnd - 1] == Self.carriageReturn { lineEnd -= 1 }
            if lineEnd > lineStart { lines.append(lineStart..<lineEnd) }
            lineStart = index + 1
        }
        guard lines.count <= maximumHeaderCount + 1 else { throw .tooManyHeaders }
        guard let statusLine = lines.first else { throw .malformed("empty head") }
        // `HTTP/1.x`, spaces, a three-digit status, and a reason that is not read.
        var index = statusLine.lowerBound
        while index < statusLine.upperBound && bytes[index] != Self.space { index += 1 }
        let version = statusLine.lowerBound..<index
        while index < statusLine.upperBound && bytes[index] == Self.space { index += 1 }
        let codeStart = index
        while index < statusLine.upperBound && bytes[index] != Self.space { index += 1 }
        guard bytes[version].starts(with: Self.http1Prefix), let status = Self.decimal(bytes[codeStart..<index]),
            (100...999).contains(status)
        else {
            throw .malformed("bad status line")
        }
        var head = Head(status: status, version11: bytes[version].elementsEqual(Self.http11))
        for line in lines.dropFirst() {
            guard let colon = bytes[line].firstIndex(of: Self.colon) else { throw .malformed("bad header line") }
            let name = Self.trimmed(bytes[line.lowerBound..<colon])
            let value = Self.trimmed(bytes[(colon + 1)..<line.upperBound])
            if Self.equalsIgnoringCase(name, "content-length") {
                guard let length = Self.decimal(value) else { throw .malformed("bad Content-Length") }
                if let contentLength = head.contentLength, contentLength != length {
                    throw .malformed("conflicting Content-Length")
                }
                head.contentLength = length
            } else if Self.equalsIgnoringCase(name, "transfer-encoding") {
                head.chunked = Self.equalsIgnoringCase(Self.trimmed(Self.lastListItem(value)), "chunked")
            } else if Self.equalsIgnoringCase(name, "connection") {
                // The last Connection header decides, as when its value was kept whole.
                head.closes = Self.containsIgnoringCase(value, "close")
                head.keepsAlive = Self.containsIgnoringCase(value, "keep-alive")
            }
        }
        return head
    }

    // MARK: - Bytes

    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    private static let httpPrefix = Array("HTTP/".utf8)
    private static let http1Prefix = Array("HTTP/1.".utf8)
    private static let http11 = Array("HTTP/1.1".utf8)

    /// The index just past the blank line that ends the head, or nil when it has not arrived.
    private func headEnd() -> Int? {
        self.buffer.withUnsafeBufferPointer { bytes in
            var index = self.cursor
            while let found = Self.firstIndex(of: Self.lineFeed, in: bytes, index..<bytes.count) {
                var next = found + 1
                if next < bytes.count && bytes[next] == Self.carriageReturn { next += 1 }
                if next < bytes.count && bytes[next] == Self.lineFeed { return next + 1 }
                if next >= bytes.count { return nil }
                index = found + 1
            }
            return nil
        }
    }
}
