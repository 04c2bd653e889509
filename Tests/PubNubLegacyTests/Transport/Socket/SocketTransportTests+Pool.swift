import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

// Keep-alive reuse, stale connections, the connection limit, cancel and invalidate.

extension SocketTransportTests {
    @Test func sequentialRequestsShareOneConnection() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        for index in 0..<5 {
            let answer = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0?n=\(index)")).get()
            #expect(answer.status == 200)
        }
        #expect(origin.requestLog.count == 5)
        #expect(transport.idleConnectionCount == 1)
        // The same check against a server that counts connections.
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("k"), close: false) }
        defer { server.stop() }
        for _ in 0..<5 {
            _ = try await Self.outcome(transport, Self.get(server.url("/").absoluteString)).get()
        }
        #expect(server.accepted == 1)
        #expect(server.requests.count == 5)
    }

    @Test func anIdleConnectionTheServerClosedIsDiscardedWithoutResending() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let url = "http://\(origin.address)/publish/p/s/0/ch/0/%22one%22"
        _ = try await Self.outcome(transport, Self.get(url)).get()
        #expect(transport.idleConnectionCount == 1)
        origin.closeAllConnections()
        // Once the close has reached the client's idle socket, publish again: on a fresh connection.
        try await eventually("the origin's close to reach the idle connection") {
            transport.staleIdleConnectionCount == 1
        }
        let second = try await Self.outcome(transport, Self.get(url)).get()
        #expect(second.status == 200)
        #expect(origin.counters.publishes == 2)
        #expect(origin.requestLog.count == 2)

        // A server that answers and then closes the connection (keep-alive idle close).
        let server = try RawHTTPServer { request in
            .send(RawHTTPServer.ok("r\(request.connection)"), close: true)
        }
        defer { server.stop() }
        for _ in 0..<3 {
            let answer = try await Self.outcome(transport, Self.get(server.url("/").absoluteString)).get()
            #expect(answer.status == 200)
            // The answer pooled the connection; the server closes it, and the next request must find it stale.
            try await eventually("the server's close to reach the idle connection", within: 20) {
                transport.staleIdleConnectionCount == 1
            }
        }
        #expect(server.requests.count == 3)
        #expect(server.accepted == 3)
    }

    @Test func noMoreThanTheLimitAreOnTheWireAndTheRestWaitInOrder() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try RawHTTPServer { _ in
            _ = release.wait(timeout: .now() + 300)
            return .send(RawHTTPServer.ok("done"), close: false)
        }
        defer {
            // Held handlers must end before the server can stop, whatever the test saw.
            for _ in 0..<10 { release.signal() }
            server.stop()
        }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        for index in 0..<5 {
            transport.send(
                Self.get(server.url("/\(index)").absoluteString, timeout: 300),
                completion: log.completion(index)
            )
        }
        try await eventually("server.requests.count >= 2", within: 20) { server.requests.count >= 2 }
        // Nothing more goes out while both are held: the other three wait in the transport's queue.
        try await eventually("three requests queued behind the two held", within: 60) {
            transport.queuedRequestCount == 3
        }
        #expect(server.requests.count == 2)
        #expect(server.accepted == 2)
        #expect(Set(server.requests.map(\.target)) == ["/0", "/1"])
        // Freeing one slot at a time sends the waiting requests in the order they were sent.
        for (index, expected) in ["/2", "/3", "/4"].enumerated() {
            release.signal()
            try await eventually("server.requests.count >= 3 + index", within: 20) {
                server.requests.count >= 3 + index
            }
            #expect(server.requests.last?.target == expected)
        }
        release.signal()
        release.signal()
        try await log.waitFor(5)
        #expect(server.mostOpen == 2)
        #expect(server.accepted == 2)
        for index in 0..<5 {
            #expect(log.results(index).count == 1)
        }
    }

    @Test func cancellingAWaitingRequestReportsCancelledOnceAndSendsNothing() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try RawHTTPServer { _ in
            _ = release.wait(timeout: .now() + 300)
            return .send(RawHTTPServer.ok("done"), close: false)
        }
        defer {
            // Held handlers must end before the server can stop, whatever the test saw.
            for _ in 0..<10 { release.signal() }
            server.stop()
        }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        transport.send(Self.get(server.url("/first").absoluteString, timeout: 300), completion: log.completion(0))
        let waiting = transport.send(
            Self.get(server.url("/second").absoluteString, timeout: 300),
            completion: log.completion(1)
        )
        try await eventually("server.requests.count >= 1", within: 20) { server.requests.count >= 1 }
        waiting.cancel()
        waiting.cancel()
        try await log.waitFor(1, within: 60)
        #expect(log.results(1) == [.failure(.cancelled)])
        release.signal()
        try await log.waitFor(2)
        // A later request through the one slot answers after anything queued before it: had the cancelled request
        // still gone out, the server would have seen it before this one.
        release.signal()
        transport.send(Self.get(server.url("/later").absoluteString, timeout: 300), completion: log.completion(2))
        try await log.waitFor(3)
        #expect(server.requests.map(\.target) == ["/first", "/later"])
        #expect(log.results(0).count == 1)
        #expect(log.results(1).count == 1)
    }

    @Test func cancellingARequestInFlightReportsCancelledOnceAndDropsItsConnection() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.neverAnswer, count: 1)
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        let task = transport.send(
            // Long enough that a loaded machine's pause cannot let it time out before the test cancels it.
            Self.get("http://\(origin.address)/time/0", timeout: 300),
            completion: log.completion(0)
        )
        try await eventually("origin.faultCounters.unanswered == 1", within: 120) {
            origin.faultCounters.unanswered == 1
        }
        task.cancel()
        try await log.waitFor(1)
        task.cancel()
        #expect(log.results(0) == [.failure(.cancelled)])
        // The slot is free again and the cancelled connection was not pooled: the next request works.
        let next = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(next.status == 200)
        #expect(transport.idleConnectionCount == 1)
        #expect(log.results(0).count == 1)
    }

    @Test func cancellingAfterTheAnswerChangesNothing() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        let task = transport.send(Self.get("http://\(origin.address)/time/0"), completion: log.completion(0))
        try await log.waitFor(1)
        task.cancel()
        // A second report would be scheduled by `cancel()` itself; wait until every scheduled one has run.
        try await eventually("transport.outstandingReportCount == 0") { transport.outstandingReportCount == 0 }
        let results = log.results(0)
        #expect(results.count == 1)
        #expect(log.reports == 1)
        #expect((try? results.first?.get().status) == 200)
    }

    @Test func invalidateCancelsEverythingAndLaterSendsFail() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        _ = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(transport.idleConnectionCount == 1)
        try origin.inject(.neverAnswer, count: 1)
        let log = CompletionLog()
        transport.send(Self.get("http://\(origin.address)/time/0", timeout: 30), completion: log.completion(0))
        transport.send(Self.get("http://\(origin.address)/time/0", timeout: 30), completion: log.completion(1))
        try await eventually("origin.faultCounters.unanswered == 1", within: 20) {
            origin.faultCounters.unanswered == 1
        }
        transport.invalidate()
        try await log.waitFor(2)
        #expect(log.results(0) == [.failure(.cancelled)])
        #expect(log.results(1) == [.failure(.cancelled)])
        #expect(transport.idleConnectionCount == 0)
        let later = await Self.outcome(transport, Self.get("http://\(origin.address)/time/0"))
        #expect(later == .failure(.cancelled))
        transport.invalidate()
    }

    @Test func concurrentSendsAndCancelsReportEachRequestExactlyOnce() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.delay(0.02), count: 40)
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        let total = 400
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in stride(from: worker, to: total, by: 8) {
                let task = transport.send(
                    Self.get("http://\(origin.address)/time/0?i=\(index)"),
                    completion: log.completion(index)
                )
                if index % 5 == 0 { task.cancel() }
            }
        }
        try await log.waitFor(total, within: 30)
        // Every request reported once; a late second report (a worker finishing a cancelled request, a cancel after
        // the answer) could still be on its way: wait until no request is held and no scheduled report is pending.
        try await eventually("transport.outstandingReportCount == 0", within: 30) {
            transport.outstandingReportCount == 0
        }
        #expect(log.reports == total)
        var answered = 0
        for index in 0..<total {
            let results = log.results(index)
            #expect(results.count == 1, "request \(index) reported \(results.count) times")
            if case .success(let response) = results.first {
                #expect(response.status == 200)
                answered += 1
            } else if index % 5 != 0 {
                Issue.record("request \(index) failed: \(String(describing: results.first))")
            }
        }
        #expect(answered >= total - total / 5)
        #expect(log.reported == total)
    }
}
