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

@Suite struct HTTPServerTests {
    // MARK: - Lifecycle

    @Test func startBindsAKernelChosenPortOnLoopback() throws {
        let server = HTTPServer(handler: HTTPTestHandler())
        #expect(server.port == 0)
        #expect(server.host == "127.0.0.1")
        try server.start()
        defer { server.stop() }
        #expect(server.port != 0)
        #expect(server.isAccepting)
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /echo HTTP/1.1\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test func startFailsClearlyWhenThePortIsTaken() throws {
        let first = HTTPServer(handler: HTTPTestHandler())
        try first.start()
        defer { first.stop() }
        let second = HTTPServer(port: first.port, handler: HTTPTestHandler())
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) { try second.start() }
        #expect(
            HTTPServerError.addressInUse(host: "127.0.0.1", port: 80).description == "127.0.0.1:80 is already in use"
        )
    }

    @Test(arguments: ["not-an-address.invalid", "256.1.1.1", "192.0.2.1"])
    func startFailsClearlyOnAHostItCannotListenOn(host: String) {
        let server = HTTPServer(host: host, handler: HTTPTestHandler())
        #expect {
            try server.start()
        } throws: { error in
            guard case .invalidHost(let reported, _) = error as? HTTPServerError else { return false }
            return reported == host
        }
    }

    @Test func startIsRefusedWhenRunningOrStopped() throws {
        let server = HTTPServer(handler: HTTPTestHandler())
        try server.start()
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
        server.stop()
        #expect(throws: HTTPServerError.stopped) { try server.start() }
    }

    @Test func stopEndsParkedRequestsAndConnectionsAndFreesThePort() throws {
        let handler = HTTPTestHandler()
        let server = HTTPServer(handler: handler)
        try server.start()
        let port = server.port
        let parkedA = try HTTPTestClient(port: port)
        try parkedA.send("GET /park/a HTTP/1.1\r\n\r\nGET /park/b HTTP/1.1\r\n\r\n")
        let parkedC = try HTTPTestClient(port: port)
        try parkedC.send("GET /park/c HTTP/1.1\r\n\r\n")
        let idle = try HTTPTestClient(port: port)
        try eventuallyBlocking("handler.parkedCount == 3 && server.connectionCount == 3") {
            handler.parkedCount == 3 && server.connectionCount == 3
        }

        server.stop()
        #expect(server.connectionCount == 0)
        #expect(!server.isAccepting)
        for id in ["a", "b", "c"] { #expect(handler.closeCount(id) == 1) }
        try parkedA.expectEndOfStream()
        try parkedC.expectEndOfStream()
        try idle.expectEndOfStream()
        server.stop()  // idempotent

        let again = HTTPServer(port: port, handler: handler)
        try again.start()
        defer { again.stop() }
        #expect(again.port == port)
        let client = try HTTPTestClient(port: port)
        try client.send("GET /echo HTTP/1.1\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test func concurrentStopsAllReturnAfterTheServerEnded() throws {
        let handler = HTTPTestHandler()
        let server = HTTPServer(handler: handler)
        try server.start()
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /park/x HTTP/1.1\r\n\r\n")
        try eventuallyBlocking("handler.parkedCount == 1") { handler.parkedCount == 1 }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            server.stop()
            #expect(server.connectionCount == 0)
            #expect(handler.closeCount("x") == 1)
        }
    }

    @Test func stopCalledFromTheHandlerDoesNotDeadlock() throws {
        let box = Locked<HTTPServer?>(nil)
        let handler = StopFromHandler(server: box)
        let server = HTTPServer(handler: handler)
        box.withLock { $0 = server }
        try server.start()
        let bystander = try HTTPTestClient(port: server.port)
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /stop HTTP/1.1\r\n\r\n")
        try client.expectEndOfStream()
        try bystander.expectEndOfStream()
        server.stop()  // from the test thread: waits for every thread, including the one that called stop
        #expect(server.connectionCount == 0)
        box.withLock { $0 = nil }
    }

    @Test func stopWithoutStartAndDeinitAreHarmless() {
        HTTPServer(handler: HTTPTestHandler()).stop()
        var server: HTTPServer? = HTTPServer(handler: HTTPTestHandler())
        try? server?.start()
        server = nil  // deinit stops the threads
        #expect(server == nil)
    }

    // MARK: - Fault injection

    @Test func stopAcceptingRefusesNewConnectionsUntilResumed() throws {
        try withHTTPServer { server, _ in
            let port = server.port
            let existing = try HTTPTestClient(port: port)
            try existing.send("GET /echo/accepted HTTP/1.1\r\n\r\n")
            #expect(try existing.readResponse().status == 200)  // accepted, not just queued in the backlog
            server.stopAccepting()
            #expect(!server.isAccepting)
            #expect(throws: HTTPTestError.self) { _ = try HTTPTestClient(port: port) }
            try existing.send("GET /echo/still HTTP/1.1\r\n\r\n")
            #expect(try existing.readResponse().json()["target"] as? String == "/echo/still")

            try server.resumeAccepting()
            #expect(server.isAccepting)
            #expect(server.port == port)
            let fresh = try HTTPTestClient(port: port)
            try fresh.send("GET /echo/fresh HTTP/1.1\r\n\r\n")
            #expect(try fresh.readResponse().status == 200)
        }
    }

    @Test func whileRefusingThePortStaysHeld() throws {
        // Another test asking the kernel for a free port must not get this one while it refuses, or the resume
        // would fail: a plain bind (no SO_REUSEADDR, as a port-0 bind is treated) finds it in use.
        try withHTTPServer { server, _ in
            server.stopAccepting()
            #expect(throws: HTTPTestError.self) { _ = try HTTPTestClient(port: server.port) }
            #expect(Self.plainBind(port: server.port) == EADDRINUSE)
            try server.resumeAccepting()
            #expect(try HTTPTestClient(port: server.port).send("GET /echo/x HTTP/1.1\r\n\r\n") == ())
        }
    }

    /// Binds a fresh socket without SO_REUSEADDR to 127.0.0.1:`port`; returns 0 or the errno.
    private static func plainBind(port: UInt16) -> Int32 {
        let fd = LoopbackSocket.tcp()
        defer { close(fd) }
        return LoopbackSocket.bind(fd, port: port)
    }

    @Test func resumeAcceptingNeedsARunningServer() throws {
        let server = HTTPServer(handler: HTTPTestHandler())
        #expect(throws: HTTPServerError.notStarted) { try server.resumeAccepting() }
        try server.start()
        try server.resumeAccepting()  // already accepting: no-op
        server.stop()
        #expect(throws: HTTPServerError.stopped) { try server.resumeAccepting() }
    }

    @Test func closeAllConnectionsDropsEveryConnectionAndKeepsListening() throws {
        try withHTTPServer { server, handler in
            let parked = try HTTPTestClient(port: server.port)
            try parked.send("GET /park/p HTTP/1.1\r\n\r\n")
            let idle = try HTTPTestClient(port: server.port)
            try eventuallyBlocking("handler.parkedCount == 1 && server.connectionCount == 2") {
                handler.parkedCount == 1 && server.connectionCount == 2
            }
            server.closeAllConnections()
            #expect(server.connectionCount == 0)
            #expect(handler.closeCount("p") == 1)
            try parked.expectEndOfStream()
            try idle.expectEndOfStream()
            let fresh = try HTTPTestClient(port: server.port)
            try fresh.send("GET /echo HTTP/1.1\r\n\r\n")
            #expect(try fresh.readResponse().status == 200)
        }
    }

    // The connection cap's refusal and reclaiming are tested in `HTTPServerBoundsTests`.

    // MARK: - Scale

    @Test func thousandConcurrentParkedRequestsAreAllAnswered() throws {
        let count = 1_000
        try withHTTPServer { server, handler in
            var clients: [HTTPTestClient] = []
            for number in 0..<count {
                let client = try HTTPTestClient(port: server.port)
                try client.send("GET /park/\(number) HTTP/1.1\r\nHost: x\r\n\r\n")
                clients.append(client)
            }
            try eventuallyBlocking("handler.parkedCount == count", within: 30) { handler.parkedCount == count }
            #expect(server.connectionCount == count)
            for number in 0..<count { try handler.answer("\(number)", "answer-\(number)") }
            for (number, client) in clients.enumerated() {
                #expect(try client.readResponse().bodyText == "answer-\(number)")
            }
        }
    }
}

/// Stops the server from inside `handle`, on a loop thread.
private struct StopFromHandler: HTTPHandler {
    let server: Locked<HTTPServer?>

    func handle(_ request: HTTPRequest, sink: any HTTPResponseSink) {
        self.server.withLock { $0 }?.stop()
    }
}
