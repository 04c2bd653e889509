import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// Answers nobody asked for (issue 20, item 4): a reused connection with unread bytes is discarded, and a transport
// that does not reuse connections never lets one request read another's answer.

extension SocketTransportTests {
    @Test func anIdleConnectionThatReceivedAnUnrequestedAnswerIsDiscardedBeforeReuse() async throws {
        let server = try RawHTTPServer { request in
            request.target == "/first"
                ? .sendWithUnrequested(RawHTTPServer.ok("first"), extra: RawHTTPServer.ok("unrequested"), after: 0.05)
                : .send(RawHTTPServer.ok("own \(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let first = try await Self.outcome(transport, Self.get(server.url("/first").absoluteString)).get()
        #expect(String(decoding: first.body, as: UTF8.self) == "first")
        // The unrequested answer lands on the idle connection before the next request takes it.
        try await eventually("the unrequested answer to reach the idle connection") {
            transport.staleIdleConnectionCount == 1
        }
        let second = try await Self.outcome(transport, Self.get(server.url("/second").absoluteString)).get()
        #expect(String(decoding: second.body, as: UTF8.self) == "own /second")
        #expect(server.accepted == 2)
    }

    @Test func withoutReuseEveryRequestHasItsOwnConnectionAndItsOwnAnswer() async throws {
        // The first answer is followed, on its connection, by one nobody asked for, late enough that a reused
        // connection would already carry the next request.
        let server = try RawHTTPServer { request in
            request.target == "/first"
                ? .sendWithUnrequested(RawHTTPServer.ok("first"), extra: RawHTTPServer.ok("unrequested"), after: 0.2)
                : .send(RawHTTPServer.ok("own \(request.target)"), close: false)
        }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test", reusesConnections: false)
        defer { transport.invalidate() }
        var bodies: [String] = []
        for path in ["/first", "/second", "/third"] {
            let answer = try await Self.outcome(transport, Self.get(server.url(path).absoluteString)).get()
            bodies.append(String(decoding: answer.body, as: UTF8.self))
            if path == "/first" { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(bodies == ["first", "own /second", "own /third"])
        #expect(server.accepted == 3)
        #expect(server.requests.allSatisfy { $0.head.contains("\r\nConnection: close") })
        #expect(transport.idleConnectionCount == 0)
    }

    @Test func withoutReuseAConnectionIsClosedAfterTheCallsOfItsAnswer() throws {
        // The origin keeps its side open, so the connection ends when the client closes it.
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("answer"), close: false) }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test", reusesConnections: false)
        defer { transport.invalidate() }
        let closedDuringCalls = Locked<Bool?>(nil)
        let done = Latch()
        transport.send(Self.get(server.url("/poll").absoluteString)) { _ in
            // Work left for after the completion is where a delivery lane makes the answer's listener calls
            // (`DeliveryLane.enqueue`): the connection is still open there. Closed before, the origin would see its
            // end well within the half second waited for it.
            WorkerThread.current?.afterCompletion {
                closedDuringCalls.set(
                    (try? eventuallyBlocking("the client's close", within: 0.5) { server.open == 0 }) != nil
                )
                done.open()
            }
        }
        #expect(done.wait(timeout: 20))
        #expect(closedDuringCalls.current == false)
        // And closed right after them, with no request to follow.
        try eventuallyBlocking("the client's close after the calls") { server.open == 0 }
        #expect(server.accepted == 1)
    }
}
