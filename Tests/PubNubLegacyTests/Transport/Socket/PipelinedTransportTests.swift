import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// `PipelinedTransport`: requests written back to back on one connection, answers matched in write order, and a
/// broken connection failing every written request without sending it again.
@Suite struct PipelinedTransportTests {
    static func get(_ server: RawHTTPServer, _ path: String, timeout: TimeInterval = 20) -> TransportRequest {
        TransportRequest(method: "GET", url: server.url(path), body: nil, timeout: timeout)
    }

    /// The body of request `id`'s one outcome, or its failure.
    static func body(_ log: CompletionLog, _ id: Int) -> Result<String, TransportFailure>? {
        let results = log.results(id)
        #expect(results.count == 1, "request \(id) reported \(results.count) times")
        return results.first.map { $0.map { String(decoding: $0.body, as: UTF8.self) } }
    }

    /// Runs `body` with a server that holds every request unanswered until `body` returns (at 120 s the handler
    /// hangs up anyway), so that only the transport can end a request sent to it.
    static func withHoldingServer(_ body: (RawHTTPServer) async throws -> Void) async throws {
        let ended = Locked(false)
        let server = try RawHTTPServer { _ in
            try? eventuallyBlocking("the test to end", within: 120) { ended.current }
            return .hangUp
        }
        defer {
            ended.set(true)
            server.stop()
        }
        try await body(server)
    }

    static func isCancelled(_ result: Result<TransportResponse, TransportFailure>) -> Bool {
        if case .failure(.cancelled) = result { true } else { false }
    }

    @Test func requestsAreWrittenBeforeTheirAnswersAndMatchedInOrder() async throws {
        // The server answers nothing until all five requests are on the connection: only a pipelining client passes.
        let server = try RawHTTPServer(pipelinedBeforeAnswer: 5) { request in
            .send(RawHTTPServer.ok("answer:\(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        for id in 0..<5 {
            transport.send(Self.get(server, "/r\(id)"), completion: log.completion(id))
        }
        try await log.waitFor(5)
        for id in 0..<5 {
            #expect(try Self.body(log, id)?.get() == "answer:/r\(id)")
        }
        #expect(server.accepted == 1)
        #expect(server.requests.map(\.target) == (0..<5).map { "/r\($0)" })
    }

    @Test func answersAreReportedByTheReaderAsAWorkerThatLeavesListenerCallsToTheirQueue() async throws {
        // The reader reports each answer as a socket worker does (the engine's handling then runs on it, with no
        // queue thread woken), but a delivery lane must not make its listener calls there: the answers behind would
        // wait for app code.
        let server = try RawHTTPServer { request in .send(RawHTTPServer.ok("answer:\(request.target)"), close: false) }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let seen = Locked<[(reporting: Bool, makesListenerCalls: Bool)?]>([])
        let log = CompletionLog()
        for id in 0..<3 {
            let record = log.completion(id)
            transport.send(Self.get(server, "/w\(id)")) { result in
                let worker = WorkerThread.current
                seen.withLock { $0.append(worker.map { ($0.reporting, $0.makesListenerCalls) }) }
                record(result)
            }
        }
        try await log.waitFor(3)
        for id in 0..<3 {
            #expect(try Self.body(log, id)?.get() == "answer:/w\(id)")
        }
        let workers = seen.current
        #expect(workers.count == 3)
        #expect(workers.allSatisfy { $0?.reporting == true && $0?.makesListenerCalls == false })
    }

    @Test func postBodiesArePipelinedToo() async throws {
        let server = try RawHTTPServer(pipelinedBeforeAnswer: 3) { request in
            .send(RawHTTPServer.ok(String(decoding: request.body, as: UTF8.self)), close: false)
        }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        for id in 0..<3 {
            let body = Data(String(repeating: "\(id)", count: 10_000 + id).utf8)
            let request = TransportRequest(method: "POST", url: server.url("/p\(id)"), body: body, timeout: 20)
            transport.send(request, completion: log.completion(id))
        }
        try await log.waitFor(3)
        for id in 0..<3 {
            #expect(try Self.body(log, id)?.get() == String(repeating: "\(id)", count: 10_000 + id))
        }
    }

    @Test func anOriginThatClosesAfterKAnswersFailsTheRestWithoutResending() async throws {
        // The second answer says `Connection: close`: the third and fourth were written, may have been read, and
        // are failed as lost — not sent again on a new connection.
        let server = try RawHTTPServer(pipelinedBeforeAnswer: 4) { request in
            request.target == "/r1"
                ? .send(RawHTTPServer.ok("closing", extraHeaders: "Connection: close\r\n"), close: true)
                : .send(RawHTTPServer.ok("answer:\(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        for id in 0..<4 {
            transport.send(Self.get(server, "/r\(id)"), completion: log.completion(id))
        }
        try await log.waitFor(4)
        #expect(try Self.body(log, 0)?.get() == "answer:/r0")
        #expect(try Self.body(log, 1)?.get() == "closing")
        for id in 2..<4 {
            guard case .failure(let failure) = Self.body(log, id) else {
                Issue.record("request \(id) did not fail")
                continue
            }
            #expect(failure == SocketFailure.connectionLost)
        }
        #expect(server.accepted == 1)
        // A later request is written on a new connection.
        let later = CompletionLog()
        transport.send(Self.get(server, "/later"), completion: later.completion(0))
        try await later.waitFor(1)
        #expect(try Self.body(later, 0)?.get() == "answer:/later")
        #expect(server.accepted == 2)
        #expect(server.requests.map(\.target) == ["/r0", "/r1", "/later"])
    }

    @Test func aCutInTheMiddleOfAPipelineFailsEveryUnansweredRequestOnce() async throws {
        // Answers for the first two, then the connection is cut while the third is being served.
        let server = try RawHTTPServer(pipelinedBeforeAnswer: 6) { request in
            request.target == "/r2" ? .hangUp : .send(RawHTTPServer.ok("answer:\(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        for id in 0..<6 {
            transport.send(Self.get(server, "/r\(id)"), completion: log.completion(id))
        }
        try await log.waitFor(6)
        #expect(try Self.body(log, 0)?.get() == "answer:/r0")
        #expect(try Self.body(log, 1)?.get() == "answer:/r1")
        for id in 2..<6 {
            guard case .failure(let failure) = Self.body(log, id) else {
                Issue.record("request \(id) did not fail")
                continue
            }
            #expect(failure == SocketFailure.connectionLost)
        }
        // Nothing was sent again: one connection, each request at most once.
        #expect(server.accepted == 1)
        #expect(server.requests.map(\.target) == ["/r0", "/r1", "/r2"])
    }

    // The head is held until the test releases it (or two minutes pass): a loaded machine can pause the test for
    // longer than any short hold, and the others must stay unanswered until the release, however late it comes.
    @Test func aSlowAnswerAtTheHeadHoldsTheOthersWhichThenArriveInOrder() async throws {
        let release = Locked(false)
        let server = try RawHTTPServer(pipelinedBeforeAnswer: 4) { request in
            if request.target == "/r0" {
                // Held until the test lets go; at the deadline the handler answers anyway.
                try? eventuallyBlocking("the test to release the head", within: 120) { release.current }
            }
            return .send(RawHTTPServer.ok("answer:\(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        for id in 0..<4 {
            transport.send(Self.get(server, "/r\(id)", timeout: 120), completion: log.completion(id))
        }
        // All four are on the wire (the server started serving) while the head is held: answers come in order, so
        // none can have arrived.
        try await eventually("server.requests.count >= 1", within: 60) { server.requests.count >= 1 }
        #expect(log.reported == 0)
        release.set(true)
        try await log.waitFor(4)
        for id in 0..<4 {
            #expect(try Self.body(log, id)?.get() == "answer:/r\(id)")
        }
    }

    @Test func aCancelledRequestReportsCancelledAndItsAnswerIsDropped() async throws {
        let release = Locked(false)
        let server = try RawHTTPServer(pipelinedBeforeAnswer: 3) { request in
            if request.target == "/r0" {
                // Held until the test lets go; at the deadline the handler answers anyway.
                try? eventuallyBlocking("the test to release the head", within: 120) { release.current }
            }
            return .send(RawHTTPServer.ok("answer:\(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = PipelinedTransport(label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        var tasks: [any TransportTask] = []
        for id in 0..<3 {
            tasks.append(transport.send(Self.get(server, "/r\(id)", timeout: 120), completion: log.completion(id)))
        }
        try await eventually("server.requests.count >= 1", within: 60) { server.requests.count >= 1 }
        tasks[1].cancel()
        try await log.waitFor(1)
        release.set(true)
        try await log.waitFor(3)
        #expect(try Self.body(log, 0)?.get() == "answer:/r0")
        #expect(Self.body(log, 1).map { if case .failure(.cancelled) = $0 { true } else { false } } == true)
        #expect(try Self.body(log, 2)?.get() == "answer:/r2")
    }

    /// A writer that lingers out retires its line while an answer is still due there: the line is no longer the one
    /// new requests go on, but `invalidate()` still cancels what waits on it (it once did not, and the request hung
    /// until its own timeout when a loaded test invalidated more than the linger after the write).
    @Test func invalidateCancelsWhatWaitsOnALineTheWriterLeft() async throws {
        let transport = PipelinedTransport(label: "test", writerLinger: 0.05)
        let log = CompletionLog()
        try await Self.withHoldingServer { server in
            transport.send(Self.get(server, "/held", timeout: 120), completion: log.completion(0))
            try await eventually("server.requests.count >= 1", within: 60) { server.requests.count >= 1 }
            try await eventually("the writer lingered out", within: 60) { !transport.isWriterRunning }
            #expect(log.reported == 0)
            transport.invalidate()
            try await log.waitFor(1, within: 60)
        }
        #expect(log.results(0).count == 1)
        #expect(log.results(0).first.map(Self.isCancelled) == true)
    }

    @Test func httpsIsRefusedAndInvalidateCancelsWhatIsOutstanding() async throws {
        let transport = PipelinedTransport(label: "test")
        let log = CompletionLog()
        let secure = TransportRequest(method: "GET", url: URL(string: "https://127.0.0.1:1/x")!, body: nil, timeout: 5)
        transport.send(secure, completion: log.completion(0))
        try await log.waitFor(1)
        #expect(
            log.results(0).first.map { if case .failure(SocketFailure.unsupportedURL) = $0 { true } else { false } }
                == true
        )
        // The answer is held until the test ends, so only the invalidation can end the request.
        try await Self.withHoldingServer { server in
            transport.send(Self.get(server, "/held", timeout: 120), completion: log.completion(1))
            try await eventually("server.requests.count >= 1", within: 60) { server.requests.count >= 1 }
            transport.invalidate()
            try await log.waitFor(2, within: 60)
            #expect(log.results(1).count == 1)
            #expect(log.results(1).first.map(Self.isCancelled) == true)
            transport.send(Self.get(server, "/after"), completion: log.completion(2))
            try await log.waitFor(3)
        }
        #expect(log.results(2).first.map(Self.isCancelled) == true)
    }
}
