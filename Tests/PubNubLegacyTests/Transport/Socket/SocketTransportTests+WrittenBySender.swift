import Dispatch
import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A request sent from outside the pool's workers while one waits idle and a kept-alive plain connection is free goes
// out on the sender's thread; the worker woken for it only reads the answer (SocketPool.writeAtOnce).

extension SocketTransportTests {
    /// Returns once a worker of `transport` waits idle for requests. A worker waits `SocketTransport.workerLinger`
    /// and then ends; when a loaded machine kept this test from looking in time, a request to `/warm-up` brings
    /// one back.
    static func untilAWorkerWaits(_ transport: SocketTransport, warmUp: URL) async throws {
        for _ in 0..<4 {
            do {
                try await eventually("a worker to wait for requests", within: 2) { transport.idleWorkerCount == 1 }
                return
            } catch is EventuallyTimeout {
                _ = try await Self.outcome(transport, Self.get(warmUp.absoluteString)).get()
            }
        }
        try await eventually("a worker to wait for requests", within: 2) { transport.idleWorkerCount == 1 }
    }

    /// Sends `request` once a worker waits idle.
    private static func outcomeWhileAWorkerWaits(
        _ transport: SocketTransport,
        _ request: TransportRequest,
        warmUp: URL
    ) async throws -> TransportResponse {
        try await Self.untilAWorkerWaits(transport, warmUp: warmUp)
        return try await Self.outcome(transport, request).get()
    }

    @Test func aRequestSentWhileAWorkerWaitsIsWrittenByItsSender() async throws {
        let server = try RawHTTPServer { request in
            .send(RawHTTPServer.ok("\(request.method) \(request.target) \(request.body.count)"), close: false)
        }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        // The first request opens the connection: its worker writes it.
        let first = try await Self.outcome(transport, Self.get(server.url("/a").absoluteString)).get()
        #expect(first.status == 200)
        #expect(transport.writtenBySenderCount == 0)
        let warmUp = server.url("/warm-up")
        let second = try await Self.outcomeWhileAWorkerWaits(
            transport,
            Self.get(server.url("/b?x=1").absoluteString),
            warmUp: warmUp
        )
        let post = TransportRequest(method: "POST", url: server.url("/c"), body: Data("[1,2]".utf8), timeout: 20)
        let third = try await Self.outcomeWhileAWorkerWaits(transport, post, warmUp: warmUp)
        #expect(transport.writtenBySenderCount == 2)
        #expect(String(decoding: second.body, as: UTF8.self) == "GET /b?x=1 0")
        #expect(String(decoding: third.body, as: UTF8.self) == "POST /c 5")
        #expect(server.requests.map(\.target).filter { $0 != "/warm-up" } == ["/a", "/b?x=1", "/c"])
        #expect(server.requests.last?.body == Array("[1,2]".utf8))
        #expect(server.accepted == 1)
        #expect(transport.idleConnectionCount == 1)
    }

    @Test func aCancelAfterTheSenderWroteReportsCancelledOnceAndDropsTheConnection() async throws {
        let release = Latch()
        let server = try RawHTTPServer { request in
            // The second request is not answered until the test ends.
            if request.target == "/held" { _ = release.wait(timeout: 30) }
            return .send(RawHTTPServer.ok("k"), close: false)
        }
        defer { server.stop() }
        defer { release.open() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        _ = try await Self.outcome(transport, Self.get(server.url("/first").absoluteString)).get()
        try await Self.untilAWorkerWaits(transport, warmUp: server.url("/warm-up"))
        let log = CompletionLog()
        let task = transport.send(Self.get(server.url("/held").absoluteString), completion: log.completion(0))
        #expect(transport.writtenBySenderCount == 1)
        try await eventually("the server to receive the held request") {
            server.requests.contains { $0.target == "/held" }
        }
        task.cancel()
        try await eventually("every report to return") { transport.outstandingReportCount == 0 }
        let results = log.results(0)
        #expect(results.count == 1)
        guard case .failure(.cancelled)? = results.first else {
            Issue.record("expected one .cancelled report, got \(results)")
            return
        }
        // The connection a cancel shut down is never pooled.
        #expect(transport.idleConnectionCount == 0)
    }

    /// The sender writes what the socket takes without waiting; the worker writes the rest, from where the sender
    /// stopped. Nobody reads the peer here and its receive buffer is fixed at 64 KiB, so the kernel's buffers take
    /// only part of an 8 MiB body: here they took 3.9 MB (the sender's buffer grows to `tcp_wmem`'s maximum, 4 MiB
    /// by default), and a fresh clone's run once took a whole 4 MiB body. (The body is made and compared with
    /// whole-block copies: byte loops take over a minute under ThreadSanitizer.)
    @Test func aRequestItsSenderCouldNotFinishReachesThePeerWhole() throws {
        let listener = LoopbackSocket.tcp()
        defer { close(listener) }
        // Set before `listen`: the accepted peer inherits it, and a set size is not grown by the kernel.
        LoopbackSocket.setOption(listener, SOL_SOCKET, SO_RCVBUF, 65_536)
        try #require(LoopbackSocket.bind(listener, port: 0) == 0 && listen(listener, 4) == 0)
        let port = try #require(LoopbackSocket.localPort(listener))
        let url = "http://127.0.0.1:\(port)/big"
        // 128 blocks of 64 KiB, each a run of all byte values starting at the block's number: a byte written twice
        // or skipped shifts the rest out of place.
        let pattern = Data((0..<(65_536 + 128)).map { UInt8(truncatingIfNeeded: $0) })
        var body = Data(capacity: 128 * 65_536)
        for block in 0..<128 { body.append(pattern[block..<(block + 65_536)]) }
        let request = TransportRequest(method: "POST", url: URL(string: url)!, body: body, timeout: 20)
        let target = try #require(HTTPTarget(urlText: request.urlText))
        let task = SocketTask(request: request, target: target, scheduledReports: Locked(0)) { _ in }
        let connection = try SocketConnection.open(to: target, timeout: 20, task: task, contexts: nil).get()
        defer { connection.close() }
        let peer = accept(listener, nil, nil)
        try #require(peer >= 0)
        defer { close(peer) }
        let head = SocketPool.head(of: task)

        let written = try #require(connection.writeWithoutWaiting(head: head, body: body))
        #expect(written > head.count)
        #expect(written < head.count + body.count)

        // The peer reads the whole request, then answers.
        let expected = head.count + body.count
        let received = Locked(Data())
        let answered = Latch()
        DispatchQueue.global().async {
            var bytes = Data(capacity: expected)
            var chunk = Data(count: 65_536)
            while bytes.count < expected {
                let count = chunk.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                bytes.append(chunk.prefix(count))
            }
            received.set(bytes)
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
            _ = answer.withUnsafeBytes { send(peer, $0.baseAddress, $0.count, 0) }
            answered.open()
        }
        let result = connection.exchange(head: head, body: body, written: written, timeout: 20)
        #expect(answered.wait(timeout: 20))
        let response = try result.get().0
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        #expect(received.current == Data(head) + body)
    }
}
