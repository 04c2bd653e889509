import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// Shared pieces of the HTTP tests: a raw POSIX-socket client with deadline-bounded reads, a routing test handler
// (echo, park, raw, close), and a helper that runs a real server on 127.0.0.1 with a kernel-chosen port.

struct HTTPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Responses

/// One response as read off the wire.
struct HTTPTestResponse {
    var statusLine: String
    var status: Int
    var headerLines: [String]
    var body: [UInt8]

    var bodyText: String { String(decoding: self.body, as: UTF8.self) }

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        for line in self.headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body parsed as a JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(self.body))
        guard let dictionary = object as? [String: Any] else { throw HTTPTestError("body is not an object") }
        return dictionary
    }
}

// MARK: - Client

/// A blocking-send, poll-with-deadline-read TCP client on raw POSIX sockets.
final class HTTPTestClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var sawEOF = false

    /// Connects to 127.0.0.1:`port`. `receiveBufferBytes` shrinks the socket's receive buffer before connecting,
    /// so a client that does not read makes the server's writes block soon (the kernel then holds little).
    init(port: UInt16, receiveBufferBytes: Int32? = nil) throws {
        let fd = LoopbackSocket.tcp()
        guard fd >= 0 else { throw HTTPTestError("socket: errno \(errno)") }
        if let size = receiveBufferBytes {
            LoopbackSocket.setOption(fd, SOL_SOCKET, SO_RCVBUF, size)
        }
        let code = LoopbackSocket.connect(fd, port: port)
        guard code == 0 else {
            close(fd)
            throw HTTPTestError("connect: errno \(code)")
        }
        LoopbackSocket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        #if canImport(Darwin)
        LoopbackSocket.setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
        self.fd = fd
    }

    deinit {
        close(self.fd)
    }

    func send(_ text: String) throws {
        try self.send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let count = bytes.withUnsafeBytes { systemSend(self.fd, $0.baseAddress! + sent, $0.count - sent, flags) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HTTPTestError("send: errno \(errno)")
            }
            sent += count
        }
    }

    /// Sends `bytes` in separate `send` calls of `size` bytes each.
    func send(_ bytes: [UInt8], inPiecesOf size: Int) throws {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            try self.send(Array(bytes[start..<end]))
            start = end
        }
    }

    /// Shuts down the sending side (the server reads end of stream).
    func shutdownWrite() {
        #if canImport(Glibc)
        _ = shutdown(self.fd, Int32(SHUT_WR))
        #else
        _ = shutdown(self.fd, SHUT_WR)
        #endif
    }

    /// Reads more bytes into the buffer; false at end of stream. Throws when nothing arrives before `deadline`.
    private func fill(before deadline: ContinuousClock.Instant) throws -> Bool {
        if self.sawEOF { return false }
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { throw HTTPTestError("timed out waiting for bytes") }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            var descriptor = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET {
                    self.sawEOF = true
                    return false
                }
                throw HTTPTestError("recv: errno \(errno)")
            }
            if count == 0 {
                self.sawEOF = true
                return false
            }
            self.buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    #if canImport(Glibc)
    /// Asks the kernel to stamp what arrives with the time it arrived (`SO_TIMESTAMPNS`).
    func stampArrivals() {
        LoopbackSocket.setOption(self.fd, SOL_SOCKET, Self.timestampOption, 1)
    }

    /// Waits until bytes arrive, reads them into the buffer (`readResponse` then parses them) and returns when the
    /// kernel received them (`stampArrivals()` first), as nanoseconds of the real-time clock.
    func readStamped(within timeout: Duration = .seconds(10)) throws -> Int {
        var descriptor = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        guard poll(&descriptor, 1, milliseconds) == 1 else { throw HTTPTestError("no bytes within \(timeout)") }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        // A control message: `cmsghdr` (length, level, type), then a `timespec`.
        var control = [UInt8](repeating: 0, count: 128)
        let (count, controlLength) = chunk.withUnsafeMutableBytes { bytes in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    return (recvmsg(self.fd, &message, 0), message.msg_controllen)
                }
            }
        }
        guard count > 0 else { throw HTTPTestError("recvmsg: \(count), errno \(errno)") }
        self.buffer.append(contentsOf: chunk[0..<count])
        let header = MemoryLayout<cmsghdr>.size
        guard controlLength >= header + MemoryLayout<timespec>.size else {
            throw HTTPTestError("no arrival time came with the bytes")
        }
        let (level, type, stamp) = control.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: MemoryLayout<cmsghdr>.offset(of: \.cmsg_level)!, as: Int32.self),
                raw.loadUnaligned(fromByteOffset: MemoryLayout<cmsghdr>.offset(of: \.cmsg_type)!, as: Int32.self),
                raw.loadUnaligned(fromByteOffset: header, as: timespec.self)
            )
        }
        guard level == SOL_SOCKET, type == Self.timestampOption else {
            throw HTTPTestError("control message \(level)/\(type) is not an arrival time")
        }
        return stamp.tv_sec * 1_000_000_000 + stamp.tv_nsec
    }

    /// `SO_TIMESTAMPNS` (Linux's generic value; glibc's macro does not reach Swift), also the control message's type.
    private static let timestampOption: Int32 = 35
    #endif

    /// Reads one response framed by `Content-Length`; with `hasBody` false (a HEAD answer) only its head.
    func readResponse(within timeout: Duration = .seconds(10), hasBody: Bool = true) throws -> HTTPTestResponse {
        let deadline = ContinuousClock.now + timeout
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: self.buffer)
            if headEnd == nil, try !self.fill(before: deadline) {
                throw HTTPTestError("end of stream before a response head; have \(self.buffer.count) bytes")
            }
        }
        let head = String(decoding: self.buffer[0..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw HTTPTestError("bad status line \(statusLine)") }
        var response = HTTPTestResponse(statusLine: statusLine, status: status, headerLines: lines, body: [])
        guard let lengthText = response.header("Content-Length"), let length = Int(lengthText) else {
            throw HTTPTestError("no Content-Length in \(head)")
        }
        let bodyStart = headEnd! + 4
        if !hasBody {
            self.buffer.removeFirst(bodyStart)
            return response
        }
        while self.buffer.count < bodyStart + length {
            if try !self.fill(before: deadline) { throw HTTPTestError("end of stream inside a body") }
        }
        response.body = Array(self.buffer[bodyStart..<bodyStart + length])
        self.buffer.removeFirst(bodyStart + length)
        return response
    }

    /// Sends `bytes`, returning false instead of throwing when the server has closed the connection (a test that
    /// keeps writing to connections the server may end).
    @discardableResult
    func sendIfOpen(_ bytes: [UInt8]) -> Bool {
        (try? self.send(bytes)) != nil
    }

    /// Reads everything until the server closes; throws when the server keeps the connection open past the
    /// deadline.
    func readToEnd(within timeout: Duration = .seconds(10)) throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while try self.fill(before: deadline) {}
        defer { self.buffer = [] }
        return self.buffer
    }

    /// Reads until the server closes and expects nothing more to arrive.
    func expectEndOfStream(within timeout: Duration = .seconds(10)) throws {
        let rest = try self.readToEnd(within: timeout)
        guard rest.isEmpty else {
            throw HTTPTestError("expected end of stream, got \(String(decoding: rest, as: UTF8.self))")
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, pointer, count, flags)
}

// MARK: - Handler

/// Routes by path: `/echo…` answers the request as JSON, `/park/ID` parks the sink until the test answers it,
/// `/release/ID` answers the request parked as ID ("released") and then itself ("releaser"), as a publish answers a
/// parked long-poll; `/raw` answers with raw bytes, `/close` closes without answering, `/big/N` answers N bytes of
/// `x`. Anything else → 404.
final class HTTPTestHandler: HTTPHandler, Sendable {
    private struct Record {
        var parked: [String: any HTTPResponseSink] = [:]
        var closedIDs: [String: Int] = [:]
        var handledCount = 0
    }

    private let record = Locked(Record())

    func handle(_ request: HTTPRequest, sink: any HTTPResponseSink) {
        self.record.withLock { $0.handledCount += 1 }
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        if path.hasPrefix("/echo") {
            sink.respond(Self.echo(request))
        } else if path.hasPrefix("/park/") {
            let id = String(path.dropFirst("/park/".count))
            sink.onClose { [weak self] in self?.recordClose(id) }
            self.record.withLock { $0.parked[id] = sink }
        } else if path.hasPrefix("/release/") {
            let id = String(path.dropFirst("/release/".count))
            let parked = self.record.withLock { $0.parked.removeValue(forKey: id) }
            parked?.respond(HTTPResponse(status: 200, body: Array("released".utf8)))
            sink.respond(HTTPResponse(status: parked == nil ? 404 : 200, body: Array("releaser".utf8)))
        } else if path == "/raw" {
            sink.respondRaw(Array("RAW-BYTES".utf8), thenClose: request.header("X-Then-Close") == "1")
        } else if path == "/close" {
            sink.close()
        } else if path.hasPrefix("/big/"), let size = Int(path.dropFirst("/big/".count)) {
            sink.respond(HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(ascii: "x"), count: size)))
        } else {
            sink.respond(HTTPResponse(status: 404, body: Array(#"{"status":404}"#.utf8)))
        }
    }

    var handled: Int { self.record.withLock { $0.handledCount } }

    /// How many times the `onClose` handler of the request parked as `id` ran.
    func closeCount(_ id: String) -> Int { self.record.withLock { $0.closedIDs[id] ?? 0 } }

    var parkedCount: Int { self.record.withLock { $0.parked.count } }

    private func recordClose(_ id: String) {
        self.record.withLock { $0.closedIDs[id, default: 0] += 1 }
    }

    /// Takes the sink parked as `id`, waiting up to `timeout` for it to arrive.
    func takeParked(_ id: String, within timeout: Duration = .seconds(10)) throws -> any HTTPResponseSink {
        var sink: (any HTTPResponseSink)?
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        try eventuallyBlocking("request \(id) to be parked", within: seconds) {
            sink = self.record.withLock { $0.parked.removeValue(forKey: id) }
            return sink != nil
        }
        guard let sink else { preconditionFailure("eventuallyBlocking returned without a sink") }
        return sink
    }

    /// Answers the request parked as `id` with `body`.
    func answer(_ id: String, _ body: String, within timeout: Duration = .seconds(10)) throws {
        try self.takeParked(id, within: timeout).respond(HTTPResponse(status: 200, body: Array(body.utf8)))
    }

    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        let object: [String: Any] = [
            "method": request.method,
            "target": request.target,
            "version": request.version,
            "headers": request.headers.map { [$0.name, $0.value] },
            "body": String(decoding: request.body, as: UTF8.self),
        ]
        let body = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return HTTPResponse(
            status: 200,
            headers: [(name: "Content-Type", value: "application/json")],
            body: Array(body)
        )
    }
}

/// Runs `body` against a started server on 127.0.0.1 with a kernel-chosen port, and stops it afterwards.
func withHTTPServer<Result>(
    limits: HTTPServerLimits = .init(),
    handler: HTTPTestHandler = HTTPTestHandler(),
    _ body: (HTTPServer, HTTPTestHandler) throws -> Result
) throws -> Result {
    let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, handler: handler)
    try server.start()
    defer { server.stop() }
    return try body(server, handler)
}
