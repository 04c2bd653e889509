import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// The server's bounds against slow, idle, too many and non-reading clients (`HTTPServerLimits`). Every timeout is
// shortened through the limits value, so each test runs in seconds; the deadlines of the waits leave room for a
// loaded machine and are never what a test asserts.

@Suite(.holdsAThread) struct HTTPServerBoundsTests {
    // MARK: - Slow requests

    @Test func slowlorisConnectionsAreAnswered408WithinTheHeaderTimeoutWhileOthersAreServed() throws {
        var limits = HTTPServerLimits()
        limits.headerTimeoutMilliseconds = 1_000
        try withHTTPServer(limits: limits) { server, _ in
            let slow = try (0..<100).map { _ in try HTTPTestClient(port: server.port) }
            for client in slow { try client.send("GET /echo/slow HTTP/1.1\r\nX-Drip: ") }
            let fast = try HTTPTestClient(port: server.port)
            var answered = 0
            // One byte per slow connection every 100 ms for 2.5 header timeouts (and for five answers to the other
            // client at least): the bytes never stop, so only a deadline on the whole header block ends them.
            let dripEnd = ContinuousClock.now + .milliseconds(2_500)
            while ContinuousClock.now < dripEnd || answered < 5 {
                for client in slow { client.sendIfOpen([UInt8(ascii: "a")]) }
                try fast.send("GET /echo/fast HTTP/1.1\r\n\r\n")
                #expect(try fast.readResponse().status == 200)
                answered += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
            for client in slow {
                let response = try client.readResponse(within: .seconds(10))
                #expect(response.status == 408)
                #expect(try response.json()["message"] as? String == "Request Timeout")
                try client.expectEndOfStream()
            }
            try eventuallyBlocking("only the fast client's connection") { server.connectionCount == 1 }
        }
    }

    @Test func bodyShorterThanItsLengthIsAnswered408AfterTheBodyTimeout() throws {
        var limits = HTTPServerLimits()
        limits.bodyTimeoutMilliseconds = 500
        try withHTTPServer(limits: limits) { server, _ in
            let short = try HTTPTestClient(port: server.port)
            try short.send("POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789")
            let other = try HTTPTestClient(port: server.port)
            try other.send("GET /echo HTTP/1.1\r\n\r\n")
            #expect(try other.readResponse().status == 200)
            let started = ContinuousClock.now
            let response = try short.readResponse(within: .seconds(10))
            #expect(response.status == 408)
            try short.expectEndOfStream()
            #expect(ContinuousClock.now - started < .seconds(10))
            try other.send("GET /echo HTTP/1.1\r\n\r\n")
            #expect(try other.readResponse().status == 200)
        }
    }

    @Test func headerTimeoutRunsForEachRequestOfAKeepAliveConnection() throws {
        var limits = HTTPServerLimits()
        limits.headerTimeoutMilliseconds = 2_000
        try withHTTPServer(limits: limits) { server, _ in
            let client = try HTTPTestClient(port: server.port)
            // Each request arrives in two pieces 500 ms apart: within its own deadline, though the connection's
            // life is longer than one timeout.
            for _ in 0..<5 {
                try client.send("GET /echo HTTP/1.1\r\n")
                Thread.sleep(forTimeInterval: 0.5)
                try client.send("\r\n")
                #expect(try client.readResponse().status == 200)
            }
        }
    }

    // MARK: - Idle connections

    @Test func idleKeepAliveConnectionIsClosedAfterTheIdleTimeoutButAParkedRequestIsNot() throws {
        var limits = HTTPServerLimits()
        limits.idleTimeoutMilliseconds = 300
        try withHTTPServer(limits: limits) { server, handler in
            let parked = try HTTPTestClient(port: server.port)
            try parked.send("GET /park/p HTTP/1.1\r\n\r\n")
            _ = try handler.takeParked("p")  // waits until it is parked; answered below through a new park
            let idle = try HTTPTestClient(port: server.port)
            try idle.send("GET /echo HTTP/1.1\r\n\r\n")
            #expect(try idle.readResponse().status == 200)
            try idle.expectEndOfStream(within: .seconds(10))
            let silent = try HTTPTestClient(port: server.port)  // never sends a byte
            try silent.expectEndOfStream(within: .seconds(10))
            // The parked request's connection outlived both.
            try eventuallyBlocking("only the parked request's connection") { server.connectionCount == 1 }
        }
    }

    @Test func parkedRequestOutlivesManyIdleTimeouts() throws {
        var limits = HTTPServerLimits()
        limits.idleTimeoutMilliseconds = 200
        try withHTTPServer(limits: limits) { server, handler in
            let parked = try HTTPTestClient(port: server.port)
            try parked.send("GET /park/p HTTP/1.1\r\n\r\n")
            let sink = try handler.takeParked("p")
            // Three idle connections end one after another, each after its own idle timeout.
            for _ in 0..<3 {
                let idle = try HTTPTestClient(port: server.port)
                try idle.expectEndOfStream(within: .seconds(10))
            }
            sink.respond(HTTPResponse(status: 200, body: Array("late".utf8)))
            #expect(try parked.readResponse().bodyText == "late")
        }
    }

    // MARK: - Connection cap

    @Test func connectionAtTheCapTakesThePlaceOfAnIdleOne() throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 8
        try withHTTPServer(limits: limits) { server, _ in
            // More idle connections than the cap (10,050 against 10,000 in the probe): none may lock others out.
            var idle: [HTTPTestClient] = []
            for _ in 0..<12 {
                idle.append(try HTTPTestClient(port: server.port))
                try eventuallyBlocking("server.connectionCount <= 8 && server.connectionCount == min(idle.count, 8)") {
                    server.connectionCount <= 8 && server.connectionCount == min(idle.count, 8)
                }
            }
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /echo HTTP/1.1\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(server.connectionCount == 8)
            // The five oldest ones made room (each loop gives up its own oldest; both loops hold some).
            var ended = 0
            for connection in idle where (try? connection.expectEndOfStream(within: .milliseconds(500))) != nil {
                ended += 1
            }
            #expect(ended == 5)
        }
    }

    @Test func connectionAtTheCapIsAnswered503WhenNoneIsIdleAndParkedRequestsAreStillServed() throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 4
        try withHTTPServer(limits: limits) { server, handler in
            var parked: [HTTPTestClient] = []
            for number in 0..<4 {
                let client = try HTTPTestClient(port: server.port)
                try client.send("GET /park/\(number) HTTP/1.1\r\n\r\n")
                parked.append(client)
            }
            try eventuallyBlocking("handler.parkedCount == 4") { handler.parkedCount == 4 }
            let refused = try HTTPTestClient(port: server.port)
            try refused.send("GET /echo HTTP/1.1\r\n\r\n")
            let response = try refused.readResponse()
            #expect(response.status == 503)
            #expect(response.header("Connection") == "close")
            let body = try response.json()
            #expect(body["status"] as? Int == 503)
            #expect(body["error"] as? Bool == true)
            #expect(body["message"] as? String == "Too Many Connections")
            try refused.expectEndOfStream()
            for number in 0..<4 { try handler.answer("\(number)", "answer-\(number)") }
            for (number, client) in parked.enumerated() {
                #expect(try client.readResponse().bodyText == "answer-\(number)")
            }
        }
    }

    // MARK: - Clients that do not read

    @Test func pipelinedAnswersAreProducedOnlyAsTheClientDrainsThem() throws {
        var limits = HTTPServerLimits()
        limits.maxBufferedOutputBytes = 65_536
        let answerSize = 1_048_576
        try withHTTPServer(limits: limits) { server, handler in
            let client = try HTTPTestClient(port: server.port, receiveBufferBytes: 4_096)
            let request = "GET /big/\(answerSize) HTTP/1.1\r\n\r\n"
            try client.send(String(repeating: request, count: 32))  // 1 KiB asking for 32 MiB
            // Once the connection holds answers up to the bound that the client does not take, it reads no more
            // requests until the client does; without the bound it never gets there (all 32 are produced at once).
            try eventuallyBlocking("server.heldBackConnectionCount == 1", within: 30) {
                server.heldBackConnectionCount == 1
            }
            // The kernel's buffers take a few answers (up to 4 MiB on Linux); the server holds at most one more.
            #expect(handler.handled <= 8)
            for _ in 0..<32 {
                #expect(try client.readResponse(within: .seconds(30)).body.count == answerSize)
            }
            #expect(handler.handled == 32)
        }
    }

    @Test func connectionWhoseClientTakesNoBytesIsClosedAfterTheSendTimeout() throws {
        var limits = HTTPServerLimits()
        limits.sendTimeoutMilliseconds = 500
        try withHTTPServer(limits: limits) { server, handler in
            let client = try HTTPTestClient(port: server.port, receiveBufferBytes: 4_096)
            try client.send("GET /big/16777216 HTTP/1.1\r\n\r\n")
            try eventuallyBlocking("handler.handled == 1") { handler.handled == 1 }
            try eventuallyBlocking("server.connectionCount == 0") { server.connectionCount == 0 }
        }
    }
}
