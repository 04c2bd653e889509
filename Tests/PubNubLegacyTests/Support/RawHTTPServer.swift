import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny blocking HTTP server on 127.0.0.1 (kernel-chosen port) that answers with whatever bytes a test gives, for
/// the framings and faults `LocalOrigin` never produces: chunked and close-delimited bodies, oversized heads,
/// garbage, idle keep-alive connections closed by the server, answers dripped a byte at a time, unrequested extra
/// answers, endless bodies. With an `upstream` it is a scriptable proxy: `.forward` relays a request to that origin
/// (a `LocalOrigin`) and its answer back, so a test can misbehave on one request and be a real origin on the others.
/// One thread accepts; one thread serves each connection. `stop()` closes everything, ends every dripping, endless
/// or forwarded answer, and waits for every thread.
final class RawHTTPServer: @unchecked Sendable {
    // @unchecked: the mutable state is in `state`, a `Locked` box; `listener` and `port` are set before `init`
    // returns and never change.

    /// One request as the server read it.
    struct Request: Sendable {
        var connection: Int
        var method: String
        var target: String
        var head: String
        var body: [UInt8]
    }

    /// What to do with a request.
    enum Reply: Sendable {
        /// Writes the bytes; closes the connection afterwards when `close` is set.
        case send(String, close: Bool)
        /// Writes raw bytes (not necessarily UTF-8); closes the connection afterwards when `close` is set.
        case bytes([UInt8], close: Bool)
        /// Closes the connection without an answer.
        case hangUp
        /// Writes `answer`, then after `delay` seconds writes `extra`, which no request asked for (a proxy that
        /// duplicated an answer, a server that answered twice), and goes on serving the connection.
        case sendWithUnrequested(String, extra: String, after: TimeInterval)
        /// Writes `text` one byte every `interval` seconds, then closes the connection (a stalling origin whose
        /// every byte restarts an idle timer).
        case drip(String, every: TimeInterval)
        /// Writes `head`, then `chunk` over and over until the client closes the connection or the server stops
        /// (an endless body, endless chunks, endless trailers).
        case endless(head: String, chunk: String)
        /// Relays the request to the `upstream` origin and writes its answer back (status and body, keep-alive);
        /// closes the connection when the upstream gives no answer.
        case forward
    }

    private struct State {
        var connections: [Int32] = []
        var requests: [Request] = []
        var accepted = 0
        var unrequestedWritten = 0
        var open = 0
        var mostOpen = 0
        var stopped = false
    }

    let port: UInt16
    private let listener: Int32
    private let state = Locked(State())
    private let threads = DispatchGroup()
    private let handler: @Sendable (Request) -> Reply
    private let pipelinedBeforeAnswer: Int
    /// `HOST:PORT` that `.forward` relays to.
    let upstream: String?
    /// Carries `.forward` requests; invalidated by `stop()` so that no relayed long-poll keeps a thread.
    private let forwarder = SocketTransport(maximumConnections: 16, label: "raw-forward")

    /// Starts listening; `handler` runs on the connection's thread and may block (to hold an answer, see `hold`).
    ///
    /// - Parameters:
    ///   - upstream: `HOST:PORT` of the origin `.forward` relays to.
    ///   - pipelinedBeforeAnswer: the first connection's first answer waits until that many complete requests
    ///     arrived on it without any answer (a client that does not pipeline then gets none; the peer closing ends
    ///     the wait).
    init(
        upstream: String? = nil,
        pipelinedBeforeAnswer: Int = 1,
        handler: @escaping @Sendable (Request) -> Reply
    ) throws {
        self.handler = handler
        self.upstream = upstream
        self.pipelinedBeforeAnswer = pipelinedBeforeAnswer
        let fd = LoopbackSocket.tcp()
        guard fd >= 0 else { throw POSIXError(.EIO) }
        LoopbackSocket.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        guard LoopbackSocket.bind(fd, port: 0) == 0, let port = LoopbackSocket.localPort(fd), listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = fd
        self.port = port
        self.threads.enter()
        Thread { [self] in
            self.acceptLoop()
            self.threads.leave()
        }.start()
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(self.port)\(path)")!
    }

    var requests: [Request] { self.state.current.requests }
    /// True once `stop()` was called.
    var isStopped: Bool { self.state.current.stopped }
    /// Connections accepted so far.
    var accepted: Int { self.state.current.accepted }
    /// Unrequested answers (`.sendWithUnrequested`'s `extra`) written so far.
    var unrequestedWritten: Int { self.state.current.unrequestedWritten }
    /// The most connections that were open at once.
    var mostOpen: Int { self.state.current.mostOpen }
    /// Connections open now: accepted, and neither closed by the client (seen as end of stream) nor by a reply.
    var open: Int { self.state.current.open }

    /// Stops accepting, closes every connection and waits for the server's threads.
    func stop() {
        let stopping = self.state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            // Under the lock: a connection's thread takes its descriptor out of the list (under the lock) before it
            // closes it, so every descriptor shut down here is still this server's. Outside it, a descriptor closed
            // meanwhile could already be another socket of the process (another test's client) and lose its
            // connection.
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard stopping else { return }
        self.forwarder.invalidate()
        shutdown(self.listener, Int32(SHUT_RDWR))
        self.threads.wait()
        close(self.listener)
    }

    deinit {
        self.stop()
    }

    private func acceptLoop() {
        while true {
            let fd = accept(self.listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let index = self.state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.connections.append(fd)
                state.accepted += 1
                state.open += 1
                state.mostOpen = max(state.mostOpen, state.open)
                return state.accepted
            }
            guard let index else {
                close(fd)
                return
            }
            self.threads.enter()
            Thread { [self] in
                self.serve(fd, index: index)
                self.state.withLock { state in
                    state.connections.removeAll { $0 == fd }
                    state.open -= 1
                }
                close(fd)
                self.threads.leave()
            }.start()
        }
    }

    private func serve(_ fd: Int32, index: Int) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var gateOpen = self.pipelinedBeforeAnswer <= 1 || index > 1
        while true {
            if !gateOpen {
                var copy = buffer
                var complete = 0
                while Self.takeRequest(from: &copy, connection: index) != nil { complete += 1 }
                gateOpen = complete >= self.pipelinedBeforeAnswer
            }
            while gateOpen, let request = Self.takeRequest(from: &buffer, connection: index) {
                self.state.withLock { $0.requests.append(request) }
                guard self.carryOut(self.handler(request), for: request, on: fd) else { return }
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes `reply`; false when the connection is to be closed (by the reply, a failed write or `stop()`).
    private func carryOut(_ reply: Reply, for request: Request, on fd: Int32) -> Bool {
        switch reply {
        case .hangUp:
            return false
        case .send(let text, let close):
            return Self.writeAll(fd, Array(text.utf8)) && !close
        case .bytes(let bytes, let close):
            return Self.writeAll(fd, bytes) && !close
        case .sendWithUnrequested(let text, let extra, let delay):
            guard Self.writeAll(fd, Array(text.utf8)) else { return false }
            self.hold(seconds: delay)
            guard !self.isStopped, Self.writeAll(fd, Array(extra.utf8)) else { return false }
            self.state.withLock { $0.unrequestedWritten += 1 }
            return true
        case .drip(let text, let interval):
            for byte in text.utf8 {
                guard !self.isStopped, Self.writeAll(fd, [byte]) else { return false }
                self.hold(seconds: interval)
            }
            return false
        case .endless(let head, let chunk):
            guard Self.writeAll(fd, Array(head.utf8)) else { return false }
            let bytes = Array(chunk.utf8)
            while !self.isStopped {
                guard Self.writeAll(fd, bytes) else { return false }
            }
            return false
        case .forward:
            guard let answer = self.relay(request) else { return false }
            return Self.writeAll(fd, answer)
        }
    }

    /// Sleeps `seconds`, waking early when the server stops; for handlers that hold an answer.
    func hold(seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while !self.isStopped, Date() < deadline {
            Thread.sleep(forTimeInterval: min(0.01, max(0, deadline.timeIntervalSinceNow)))
        }
    }

    /// The upstream's answer to `request`, as a complete keep-alive HTTP/1.1 answer; nil when it gave none.
    private func relay(_ request: Request) -> [UInt8]? {
        guard let upstream = self.upstream, let url = URL(string: "http://\(upstream)\(request.target)") else {
            return nil
        }
        let outcome = Locked<Result<TransportResponse, TransportFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let forwarded = TransportRequest(
            method: request.method,
            url: url,
            body: request.body.isEmpty ? nil : Data(request.body),
            timeout: 600
        )
        self.forwarder.send(forwarded) { result in
            outcome.set(result)
            done.signal()
        }
        done.wait()
        guard case .success(let response) = outcome.current else { return nil }
        let head =
            "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(response.body.count)\r\n\r\n"
        return Array(head.utf8) + Array(response.body)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        default: return "Status"
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Self.write(fd, $0) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        return send(fd, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    /// Takes one complete request (head and `Content-Length` body) off the front of `buffer`.
    private static func takeRequest(from buffer: inout [UInt8], connection: Int) -> Request? {
        let marker = Array("\r\n\r\n".utf8)
        guard buffer.count >= 4,
            let end = (0...(buffer.count - 4)).first(where: { Array(buffer[$0..<($0 + 4)]) == marker })
        else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        guard buffer.count >= end + 4 + length else { return nil }
        let body = Array(buffer[(end + 4)..<(end + 4 + length)])
        buffer.removeFirst(end + 4 + length)
        return Request(
            connection: connection,
            method: parts.count > 0 ? String(parts[0]) : "",
            target: parts.count > 1 ? String(parts[1]) : "",
            head: head,
            body: body
        )
    }

    /// A complete `200` answer with a `Content-Length` body.
    static func ok(_ body: String, extraHeaders: String = "") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\(extraHeaders)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    // MARK: - PubNub answers

    /// One message of a scripted subscribe answer: its channel, its payload as JSON text, its publish timetoken.
    struct ScriptedMessage: Sendable {
        var channel: String
        var payload: String
        var timetoken: UInt64
    }

    /// The body of a v2 subscribe answer with cursor `cursor` carrying `messages` (payloads inserted verbatim).
    static func subscribeBody(cursor: UInt64, _ messages: [ScriptedMessage] = []) -> String {
        let envelopes = messages.map { message in
            #"{"a":"1","f":0,"p":{"t":"\#(message.timetoken)","r":1},"k":"sub-c-test","c":"\#(message.channel)","#
                + #""d":\#(message.payload),"b":"\#(message.channel)"}"#
        }
        return #"{"t":{"t":"\#(cursor)","r":1},"m":[\#(envelopes.joined(separator: ","))]}"#
    }

    /// A complete `200` subscribe answer (see `subscribeBody`).
    static func subscribeAnswer(cursor: UInt64, _ messages: [ScriptedMessage] = []) -> String {
        self.ok(self.subscribeBody(cursor: cursor, messages), extraHeaders: "")
    }

    /// The `tt` of a subscribe request's target, nil for other requests.
    static func subscribeCursor(_ request: Request) -> UInt64? {
        guard request.target.hasPrefix("/v2/subscribe/") else { return nil }
        let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        for pair in query.split(separator: "&") where pair.hasPrefix("tt=") {
            return UInt64(pair.dropFirst(3))
        }
        return nil
    }
}
