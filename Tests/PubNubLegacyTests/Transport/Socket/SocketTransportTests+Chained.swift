import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// Chained requests (`TransportRequest.chained`, the engine's sequential publishes): one at a time and in order, each
/// written by the worker that read the answer before it, before that answer is reported.
extension SocketTransportTests {
    static func chained(_ server: RawHTTPServer, _ path: String, timeout: TimeInterval = 20) -> TransportRequest {
        var request = TransportRequest(method: "GET", url: server.url(path), body: nil, timeout: timeout)
        request.chained = true
        return request
    }

    /// The status of request `id`'s one outcome, or its failure; nil before it came.
    static func status(_ log: CompletionLog, _ id: Int) -> Result<Int, TransportFailure>? {
        let results = log.results(id)
        #expect(results.count <= 1, "request \(id) reported \(results.count) times")
        return results.first.map { $0.map(\.status) }
    }

    @Test func chainedRequestsSentAtOnceGoOneAfterTheOtherOnOneConnection() async throws {
        let server = try RawHTTPServer { request in .send(RawHTTPServer.ok(request.target), close: false) }
        defer { server.stop() }
        // Room for four connections: requests sent at once would get a worker and a connection each, were they not
        // chained.
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        let count = 12
        let order = Locked<[Int]>([])
        let log = CompletionLog()
        for index in 0..<count {
            let record = log.completion(index)
            transport.send(Self.chained(server, "/c\(index)")) { result in
                order.withLock { $0.append(index) }
                record(result)
            }
        }
        try await eventually("every chained request to be answered") { order.current.count == count }
        #expect(order.current == Array(0..<count))
        for index in 0..<count { #expect(try Self.status(log, index)?.get() == 200) }
        #expect(server.requests.map(\.target) == (0..<count).map { "/c\($0)" })
        #expect(server.accepted == 1)
        // Each after the first was written by the worker that read the answer before it, before reporting that answer.
        #expect(transport.writtenAheadCount == count - 1)
    }

    @Test func theRequestAfterOneWithoutAnAnswerGoesOnANewConnection() async throws {
        let server = try RawHTTPServer { request in
            request.target == "/lost" ? .hangUp : .send(RawHTTPServer.ok(request.target), close: false)
        }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        let order = Locked<[Int]>([])
        let log = CompletionLog()
        for (index, path) in ["/lost", "/after"].enumerated() {
            let record = log.completion(index)
            transport.send(Self.chained(server, path)) { result in
                order.withLock { $0.append(index) }
                record(result)
            }
        }
        try await eventually("both requests to be reported") { order.current.count == 2 }
        #expect(order.current == [0, 1])
        guard case .failure(let failure)? = Self.status(log, 0), failure != .cancelled else {
            Issue.record("the hung-up request should fail without an answer, got \(log.results(0))")
            return
        }
        #expect(try Self.status(log, 1)?.get() == 200)
        // Not written ahead: there was no answer to write it after, and no open connection to write it on.
        #expect(transport.writtenAheadCount == 0)
        #expect(server.accepted == 2)
    }

    // The held requests' timeouts (and the server's hold) are far past the tests' waits: a loaded whole run starved a
    // test's wait past a 20 s timeout, which then ended the held request itself.
    static let held: TimeInterval = 120

    @Test func aChainedRequestCancelledWhileItWaitsIsNeverSentAndTheChainGoesOn() async throws {
        let release = Latch()
        let server = try RawHTTPServer { request in
            if request.target == "/held" { _ = release.wait(timeout: Self.held) }
            return .send(RawHTTPServer.ok(request.target), close: false)
        }
        defer { server.stop() }
        defer { release.open() }
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        transport.send(Self.chained(server, "/held", timeout: Self.held), completion: log.completion(0))
        let waiting = transport.send(Self.chained(server, "/cancelled"), completion: log.completion(1))
        transport.send(Self.chained(server, "/last"), completion: log.completion(2))
        try await eventually("the server to hold the first request") {
            server.requests.contains { $0.target == "/held" }
        }
        #expect(transport.queuedRequestCount == 2)
        waiting.cancel()
        release.open()
        try await eventually("every request to be reported") {
            (0..<3).allSatisfy { !log.results($0).isEmpty } && transport.outstandingReportCount == 0
        }
        #expect(try Self.status(log, 0)?.get() == 200)
        guard case .failure(.cancelled)? = Self.status(log, 1) else {
            Issue.record("expected one .cancelled report, got \(log.results(1))")
            return
        }
        #expect(try Self.status(log, 2)?.get() == 200)
        #expect(server.requests.map(\.target) == ["/held", "/last"])
    }

    @Test func invalidatingCancelsTheChainedRequestsThatWaitOnce() async throws {
        let release = Latch()
        let server = try RawHTTPServer { request in
            _ = release.wait(timeout: Self.held)
            return .send(RawHTTPServer.ok(request.target), close: false)
        }
        defer { server.stop() }
        defer { release.open() }
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        let log = CompletionLog()
        for index in 0..<3 {
            transport.send(Self.chained(server, "/c\(index)", timeout: Self.held), completion: log.completion(index))
        }
        try await eventually("the server to hold the first request") { !server.requests.isEmpty }
        transport.invalidate()
        try await eventually("every request to be reported") {
            (0..<3).allSatisfy { !log.results($0).isEmpty } && transport.outstandingReportCount == 0
        }
        for index in 0..<3 {
            guard case .failure(.cancelled)? = Self.status(log, index) else {
                Issue.record("request \(index): expected one .cancelled report, got \(log.results(index))")
                continue
            }
        }
        #expect(server.requests.map(\.target) == ["/c0"])
    }
}
