import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// Counts every completion of every request, so a test can check each was reported exactly once.
final class CompletionLog: @unchecked Sendable {
    // @unchecked: the mutable state is in `results`, a `Locked` box.
    private let results = Locked<[Int: [Result<TransportResponse, TransportFailure>]]>([:])

    func completion(_ id: Int) -> @Sendable (Result<TransportResponse, TransportFailure>) -> Void {
        { result in self.results.withLock { $0[id, default: []].append(result) } }
    }

    func results(_ id: Int) -> [Result<TransportResponse, TransportFailure>] {
        self.results.withLock { $0[id] ?? [] }
    }

    /// Requests that reported at least once.
    var reported: Int { self.results.withLock { $0.count } }

    /// Reports received, over all requests (a request reported twice counts twice).
    var reports: Int { self.results.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Waits until `count` requests have reported, or fails the test after `seconds`.
    func waitFor(_ count: Int, within seconds: Double = 20) async throws {
        try await eventually("\(count) requests reported (\(self.reported) so far)", within: seconds) {
            self.reported >= count
        }
    }
}

@Suite struct SocketTransportTests {
    static func outcome(
        _ transport: any HTTPTransport,
        _ request: TransportRequest
    ) async -> Result<TransportResponse, TransportFailure> {
        await withCheckedContinuation { continuation in
            transport.send(request) { continuation.resume(returning: $0) }
        }
    }

    static func get(_ url: String, timeout: TimeInterval = 20) -> TransportRequest {
        TransportRequest(method: "GET", url: URL(string: url)!, body: nil, timeout: timeout)
    }

    // MARK: - Success

    @Test func getAndPostAreAnswered() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let time = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0?uuid=t")).get()
        #expect(time.status == 200)
        #expect((try? ResponseParser.time(time).get()) != nil)
        let missing = try await Self.outcome(transport, Self.get("http://\(origin.address)/nowhere")).get()
        #expect(missing.status == 404)
        let publish = TransportRequest(
            method: "POST",
            url: try #require(URL(string: "http://\(origin.address)/publish/pub/sub/0/ch%20one/0?uuid=t")),
            body: Data("{\"text\":\"h\u{e9}llo\"}".utf8),
            timeout: 20
        )
        let answer = try await Self.outcome(transport, publish).get()
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("[1,\"Sent\""))
        #expect(origin.counters.publishes == 1)
        #expect(origin.requestLog.last?.method == "POST")
        #expect(origin.requestLog.last?.target.hasPrefix("/publish/pub/sub/0/ch%20one/0") == true)
    }

    @Test func theRequestHeadCarriesHostLengthTypeAndAgent() async throws {
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("fine"), close: false) }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let post = TransportRequest(method: "POST", url: server.url("/p?q=a%2Fb"), body: Data("[1]".utf8), timeout: 20)
        let answer = try await Self.outcome(transport, post).get()
        #expect(String(decoding: answer.body, as: UTF8.self) == "fine")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST" && request.target == "/p?q=a%2Fb")
        #expect(request.body == Array("[1]".utf8))
        let head = request.head.lowercased() + "\r\n"
        #expect(head.contains("host: 127.0.0.1:\(server.port)\r\n"))
        #expect(head.contains("content-length: 3\r\n"))
        #expect(head.contains("content-type: application/json\r\n"))
        #expect(head.contains("user-agent: pubnublegacy-swift/3.4\r\n"))
        #expect(head.contains("accept: */*\r\n"))
    }

    @Test func localhostResolves() async throws {
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("here"), close: false) }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let answer = try await Self.outcome(transport, Self.get("http://localhost:\(server.port)/")).get()
        #expect(String(decoding: answer.body, as: UTF8.self) == "here")
    }

    // MARK: - Framing

    @Test func chunkedBodiesAreJoinedAndTheConnectionIsReused() async throws {
        let chunked =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-T: 1\r\n\r\n"
        let server = try RawHTTPServer { _ in .send(chunked, close: false) }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        for _ in 0..<3 {
            let answer = try await Self.outcome(transport, Self.get(server.url("/c").absoluteString)).get()
            #expect(String(decoding: answer.body, as: UTF8.self) == "hello, world")
        }
        #expect(server.accepted == 1)
        #expect(server.requests.count == 3)
    }

    @Test func aCloseDelimitedBodyEndsAtTheEndOfTheStream() async throws {
        let server = try RawHTTPServer { _ in
            .send("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end", close: true)
        }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        for _ in 0..<2 {
            let answer = try await Self.outcome(transport, Self.get(server.url("/d").absoluteString)).get()
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "until the end")
        }
        #expect(server.accepted == 2)
        #expect(transport.idleConnectionCount == 0)
    }

    @Test func connectionCloseIsHonoured() async throws {
        let server = try RawHTTPServer { _ in
            .send(RawHTTPServer.ok("bye", extraHeaders: "Connection: close\r\n"), close: true)
        }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        for _ in 0..<2 {
            let answer = try await Self.outcome(transport, Self.get(server.url("/").absoluteString)).get()
            #expect(String(decoding: answer.body, as: UTF8.self) == "bye")
        }
        #expect(server.accepted == 2)
        #expect(server.requests.count == 2)
    }

    @Test func anOversizedHeadFailsClearly() async throws {
        let huge = String(repeating: "x", count: 100_000)
        let server = try RawHTTPServer { _ in .send("HTTP/1.1 200 OK\r\nX-Big: \(huge)\r\n\r\n", close: false) }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get(server.url("/").absoluteString))
        #expect(result == .failure(.responseTooLarge("its header is larger than 65536 bytes")))
    }

    @Test func garbageIsABadServerResponse() async throws {
        let server = try RawHTTPServer { _ in .send("SSH-2.0-OpenSSH\r\n\r\n", close: false) }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get(server.url("/").absoluteString))
        #expect(result == .failure(SocketFailure.badServerResponse))
    }
}
