import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

@Suite struct HTTPConnectionSinkTests {
    @Test func peerClosingFiresOnCloseOnceAndLaterAnswersAreIgnored() throws {
        try withHTTPServer { server, handler in
            var client: HTTPTestClient? = try HTTPTestClient(port: server.port)
            try client!.send("GET /park/gone HTTP/1.1\r\n\r\n")
            let sink = try handler.takeParked("gone")
            #expect(!sink.isClosed)
            client = nil  // closes the socket
            try eventuallyBlocking("handler.closeCount(\"gone\") == 1") { handler.closeCount("gone") == 1 }
            #expect(sink.isClosed)
            sink.respond(HTTPResponse(status: 200, body: Array("late".utf8)))  // ignored, must not crash
            // Registered after the close: runs at once, on this thread.
            let ranAtOnce = HTTPLocked(false)
            sink.onClose { ranAtOnce.withLock { $0 = true } }
            #expect(ranAtOnce.withLock { $0 })
            try eventuallyBlocking("server.connectionCount == 0") { server.connectionCount == 0 }
            #expect(handler.closeCount("gone") == 1)
        }
    }

    @Test func answeredRequestNeverRunsOnClose() throws {
        try withHTTPServer { server, handler in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /park/done HTTP/1.1\r\n\r\n")
            let sink = try handler.takeParked("done")
            sink.respond(HTTPResponse(status: 200, body: Array("first".utf8)))
            sink.respond(HTTPResponse(status: 500, body: Array("second".utf8)))  // ignored: first answer wins
            #expect(try client.readResponse().bodyText == "first")
            let ran = HTTPLocked(false)
            sink.onClose { ran.withLock { $0 = true } }
            try client.send("GET /close HTTP/1.1\r\n\r\n")
            try client.expectEndOfStream()
            try eventuallyBlocking("server.connectionCount == 0") { server.connectionCount == 0 }
            #expect(handler.closeCount("done") == 0)
            #expect(!ran.withLock { $0 })
        }
    }

    @Test func respondRawWritesExactBytesAndKeepsTheConnection() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            // The raw bytes are unframed, so a framed answer right after them shows both arrived in order.
            try client.send("GET /raw HTTP/1.1\r\n\r\nGET /echo/after HTTP/1.1\r\n\r\n")
            let next = try client.readResponse()
            #expect(next.statusLine == "RAW-BYTESHTTP/1.1 200 OK")
            #expect(try next.json()["target"] as? String == "/echo/after")
        }
    }

    @Test func respondRawThenCloseEndsTheConnectionAfterTheBytes() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /raw HTTP/1.1\r\nX-Then-Close: 1\r\n\r\nGET /echo/ignored HTTP/1.1\r\n\r\n")
            #expect(try client.readToEnd() == Array("RAW-BYTES".utf8))
        }
    }

    @Test func respondRawTakesItsTurnAfterEarlierRequests() throws {
        try withHTTPServer { server, handler in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /park/early HTTP/1.1\r\n\r\nGET /raw HTTP/1.1\r\nX-Then-Close: 1\r\n\r\n")
            try handler.answer("early", "E")
            let all = String(decoding: try client.readToEnd(), as: UTF8.self)
            #expect(all.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(all.hasSuffix("\r\n\r\nERAW-BYTES"))
        }
    }

    @Test func closeEndsTheConnectionWithoutAnswer() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /close HTTP/1.1\r\n\r\n")
            try client.expectEndOfStream()
            try eventuallyBlocking("server.connectionCount == 0") { server.connectionCount == 0 }
        }
    }

    @Test func closeWaitsForEarlierAnswersAndDropsLaterRequests() throws {
        try withHTTPServer { server, handler in
            let client = try HTTPTestClient(port: server.port)
            try client.send(
                "GET /park/before HTTP/1.1\r\n\r\nGET /close HTTP/1.1\r\n\r\nGET /park/after HTTP/1.1\r\n\r\n"
            )
            let after = try handler.takeParked("after")
            try handler.answer("before", "B")
            #expect(try client.readResponse().bodyText == "B")
            try client.expectEndOfStream()
            try eventuallyBlocking("handler.closeCount(\"after\") == 1") { handler.closeCount("after") == 1 }
            #expect(after.isClosed)
        }
    }

    @Test func closeFromTheHandlerRunsThatRequestsOnCloseHandlers() throws {
        try withHTTPServer { server, handler in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /park/victim HTTP/1.1\r\n\r\n")
            let sink = try handler.takeParked("victim")
            sink.close()
            #expect(sink.isClosed)
            try client.expectEndOfStream()
            try eventuallyBlocking("handler.closeCount(\"victim\") == 1") { handler.closeCount("victim") == 1 }
        }
    }
}
