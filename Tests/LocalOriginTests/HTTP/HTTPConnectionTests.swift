import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

/// A request the server must refuse, with the status it must answer.
struct MalformedRequest: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var status: Int

    init(_ name: String, _ text: String, _ status: Int) {
        self.name = name
        self.bytes = Array(text.utf8)
        self.status = status
    }

    init(_ name: String, bytes: [UInt8], _ status: Int) {
        self.name = name
        self.bytes = bytes
        self.status = status
    }

    var testDescription: String { self.name }
}

@Suite struct HTTPConnectionTests {
    // MARK: - Parsing over the socket

    @Test func requestWrittenByteByByteIsParsed() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            let text = "POST /echo?q=1 HTTP/1.1\r\nHost: local\r\nContent-Length: 5\r\nX-Two:  a b \r\n\r\nhello"
            try client.send(Array(text.utf8), inPiecesOf: 1)
            let response = try client.readResponse()
            #expect(response.status == 200)
            let echo = try response.json()
            #expect(echo["method"] as? String == "POST")
            #expect(echo["target"] as? String == "/echo?q=1")
            #expect(echo["version"] as? String == "HTTP/1.1")
            #expect(echo["body"] as? String == "hello")
            #expect(
                echo["headers"] as? [[String]] == [["Host", "local"], ["Content-Length", "5"], ["X-Two", "a b"]]
            )
        }
    }

    @Test func bareLineFeedsAreAccepted() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /echo/lf HTTP/1.1\nHost: x\n\n")
            let response = try client.readResponse()
            #expect(try response.json()["target"] as? String == "/echo/lf")
        }
    }

    @Test func largeBodyUpToTheLimitArrivesWhole() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            let body = String(repeating: "0123456789abcdef", count: 65_536)  // exactly 1 MiB
            try client.send("POST /echo HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            let response = try client.readResponse()
            #expect(try response.json()["body"] as? String == body)
        }
    }

    @Test func responseHeadIsFramedExactly() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /echo HTTP/1.1\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(
                response.headerLines == [
                    "Content-Type: application/json", "Content-Length: \(response.body.count)",
                    "Connection: keep-alive",
                ]
            )
        }
    }

    @Test func headAnswerAnnouncesTheBodyLengthWithoutSendingTheBody() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("HEAD /echo HTTP/1.1\r\n\r\nGET /echo/next HTTP/1.1\r\n\r\n")
            let head = try client.readResponse(hasBody: false)
            #expect(head.status == 200)
            #expect(Int(head.header("Content-Length") ?? "") ?? 0 > 0)
            // Had the body been sent, this would read its bytes instead of the next response.
            let next = try client.readResponse()
            #expect(next.statusLine == "HTTP/1.1 200 OK")
            #expect(try next.json()["target"] as? String == "/echo/next")
        }
    }

    // MARK: - Keep-alive and pipelining

    @Test func oneConnectionServesManyRequests() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            for number in 0..<200 {
                try client.send("GET /echo/\(number) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try client.readResponse()
                #expect(try response.json()["target"] as? String == "/echo/\(number)")
                #expect(response.header("Connection") == "keep-alive")
            }
            #expect(server.connectionCount == 1)
        }
    }

    @Test func pipelinedRequestsInOneWriteAreAnsweredInOrder() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            var burst = ""
            for number in 0..<20 { burst += "GET /echo/\(number) HTTP/1.1\r\nHost: x\r\n\r\n" }
            burst += "POST /echo/body HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody"
            try client.send(burst)
            for number in 0..<20 {
                #expect(try client.readResponse().json()["target"] as? String == "/echo/\(number)")
            }
            #expect(try client.readResponse().json()["body"] as? String == "body")
        }
    }

    @Test func laterAnswerWaitsForEarlierParkedRequests() throws {
        try withHTTPServer { server, handler in
            let client = try HTTPTestClient(port: server.port)
            try client.send(
                "GET /park/first HTTP/1.1\r\n\r\nGET /park/second HTTP/1.1\r\n\r\nGET /echo/third HTTP/1.1\r\n\r\n"
            )
            // The handler answers the later requests first (the third at once, synchronously).
            try handler.answer("second", "two")
            try handler.answer("first", "one")
            #expect(try client.readResponse().bodyText == "one")
            #expect(try client.readResponse().bodyText == "two")
            #expect(try client.readResponse().json()["target"] as? String == "/echo/third")
        }
    }

    @Test func answersFromOtherThreadsReachTheirConnections() throws {
        try withHTTPServer { server, handler in
            let clients = try (0..<8).map { _ in try HTTPTestClient(port: server.port) }
            for (number, client) in clients.enumerated() { try client.send("GET /park/\(number) HTTP/1.1\r\n\r\n") }
            try eventuallyBlocking("handler.parkedCount == clients.count") { handler.parkedCount == clients.count }
            let sinks = try (0..<clients.count).map { try handler.takeParked("\($0)") }
            DispatchQueue.concurrentPerform(iterations: sinks.count) { number in
                sinks[number].respond(HTTPResponse(status: 200, body: Array("answer \(number)".utf8)))
            }
            for (number, client) in clients.enumerated() {
                #expect(try client.readResponse().bodyText == "answer \(number)")
            }
        }
    }

    @Test func fullPipelinePausesReadingUntilAnAnswerIsWritten() throws {
        var limits = HTTPServerLimits()
        limits.maxPipelinedRequests = 2
        try withHTTPServer(limits: limits) { server, handler in
            let client = try HTTPTestClient(port: server.port)
            var burst = "GET /park/head HTTP/1.1\r\n\r\n"
            for number in 0..<6 { burst += "GET /echo/\(number) HTTP/1.1\r\n\r\n" }
            try client.send(burst)
            try eventuallyBlocking("handler.parkedCount == 1 && handler.handled >= 2") {
                handler.parkedCount == 1 && handler.handled >= 2
            }
            // The parked request and one answered-but-unsent echo fill the pipeline: nothing more is parsed.
            #expect(handler.handled == 2)
            try handler.answer("head", "H")
            #expect(try client.readResponse().bodyText == "H")
            for number in 0..<6 {
                #expect(try client.readResponse().json()["target"] as? String == "/echo/\(number)")
            }
            #expect(handler.handled == 7)
        }
    }

    // MARK: - Closing on request

    @Test func connectionCloseIsHonoured() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            // The second request comes after `Connection: close` and must be ignored.
            try client.send("GET /echo HTTP/1.1\r\nConnection: close\r\n\r\nGET /echo/ignored HTTP/1.1\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            try client.expectEndOfStream()
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        try withHTTPServer { server, _ in
            let plain = try HTTPTestClient(port: server.port)
            try plain.send("GET /echo HTTP/1.0\r\n\r\n")
            let first = try plain.readResponse()
            #expect(try first.json()["version"] as? String == "HTTP/1.0")
            #expect(first.header("Connection") == "close")
            try plain.expectEndOfStream()

            let keepAlive = try HTTPTestClient(port: server.port)
            for _ in 0..<2 {
                try keepAlive.send("GET /echo HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(try keepAlive.readResponse().header("Connection") == "keep-alive")
            }
        }
    }

    @Test func answersAlreadyGivenAreSentWhenTheClientHalfCloses() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /echo/a HTTP/1.1\r\n\r\n")
            client.shutdownWrite()
            #expect(try client.readResponse().json()["target"] as? String == "/echo/a")
            try client.expectEndOfStream()
        }
    }

    // MARK: - Limits

    @Test func oversizedBodyIsRefusedBeforeItIsSent() throws {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 1_000
        try withHTTPServer(limits: limits) { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nContent-Length: 1001\r\n\r\n")  // no body byte sent
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(try response.json()["status"] as? Int == 413)
            #expect(try response.json()["error"] as? Bool == true)
            try client.expectEndOfStream()
        }
    }

    @Test func overlongRequestLineGets414WithPubNubsBody() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /" + String(repeating: "x", count: 50_000) + " HTTP/1.1\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 414 URI Too Long")
            #expect(
                response.bodyText
                    == #"{"message":"Request URI Too Long","error":true,"service":"Balancer","status":414}"#
            )
            try client.expectEndOfStream()
        }
    }

    @Test func overlongHeaderBlockGets431() throws {
        try withHTTPServer { server, _ in
            let client = try HTTPTestClient(port: server.port)
            var text = "GET /echo HTTP/1.1\r\n"
            for number in 0..<400 { text += "X-Filler-\(number): " + String(repeating: "f", count: 80) + "\r\n" }
            try client.send(text + "\r\n")
            let response = try client.readResponse()
            #expect(response.status == 431)
            #expect(try response.json()["status"] as? Int == 431)
            try client.expectEndOfStream()
        }
    }

    // MARK: - Malformed input

    static let malformed: [MalformedRequest] = [
        MalformedRequest("request line without target", "GET\r\n\r\n", 400),
        MalformedRequest("request line without version", "GET /\r\n\r\n", 400),
        MalformedRequest("token after the version", "GET / HTTP/1.1 extra\r\n\r\n", 400),
        MalformedRequest("empty target (two spaces)", "GET  / HTTP/1.1\r\n\r\n", 400),
        MalformedRequest("separator in method", "G(T / HTTP/1.1\r\n\r\n", 400),
        MalformedRequest("leading space", " GET / HTTP/1.1\r\n\r\n", 400),
        MalformedRequest("tab instead of space", "GET\t/ HTTP/1.1\r\n\r\n", 400),
        MalformedRequest("TLS ClientHello", bytes: [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00], 400),
        MalformedRequest("NUL bytes", bytes: [0, 0, 0, 0], 400),
        MalformedRequest("NUL in target", "GET /a\u{0}b HTTP/1.1\r\n\r\n", 400),
        MalformedRequest("DEL in target", "GET /a\u{7F}b HTTP/1.1\r\n\r\n", 400),
        MalformedRequest("HTTP/2.0", "GET / HTTP/2.0\r\n\r\n", 505),
        MalformedRequest("HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", 505),
        MalformedRequest("wrong protocol name", "GET / HTTX/1.1\r\n\r\n", 400),
        MalformedRequest("lowercase protocol name", "GET / http/1.1\r\n\r\n", 400),
        MalformedRequest("two-digit minor version", "GET / HTTP/1.10\r\n\r\n", 400),
        MalformedRequest("bare CR in request line", "GET / HTTP/1.1\rX", 400),
        MalformedRequest("header line without colon", "GET / HTTP/1.1\r\nHost localhost\r\n\r\n", 400),
        MalformedRequest("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        MalformedRequest("empty header name", "GET / HTTP/1.1\r\n: x\r\n\r\n", 400),
        MalformedRequest("NUL in header value", "GET / HTTP/1.1\r\nX: a\u{0}b\r\n\r\n", 400),
        MalformedRequest("control byte in header name", "GET / HTTP/1.1\r\nX-\u{1}: a\r\n\r\n", 400),
        MalformedRequest("obsolete line folding", "GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", 400),
        MalformedRequest("bare CR in header", "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", 400),
        MalformedRequest("non-numeric Content-Length", "POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400),
        MalformedRequest("negative Content-Length", "POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\nhello", 400),
        MalformedRequest("empty Content-Length", "POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", 400),
        MalformedRequest("two numbers in Content-Length", "POST / HTTP/1.1\r\nContent-Length: 1 2\r\n\r\n", 400),
        MalformedRequest(
            "conflicting Content-Lengths",
            "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
            400
        ),
        MalformedRequest("POST without Content-Length", "POST /echo HTTP/1.1\r\nHost: x\r\n\r\n", 411),
        MalformedRequest(
            "chunked body",
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            411
        ),
        MalformedRequest("unknown transfer coding", "POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        MalformedRequest(
            "Content-Length and Transfer-Encoding",
            "POST /echo HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
            400
        ),
        MalformedRequest(
            "Content-Length beyond any integer",
            "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n",
            413
        ),
    ]

    @Test(arguments: malformed)
    func malformedRequestGetsJSONErrorAndCloseWhileOthersKeepWorking(_ bad: MalformedRequest) throws {
        try withHTTPServer { server, _ in
            let bystander = try HTTPTestClient(port: server.port)
            try bystander.send("GET /echo/before HTTP/1.1\r\n\r\n")
            #expect(try bystander.readResponse().status == 200)

            let client = try HTTPTestClient(port: server.port)
            try client.send(bad.bytes)
            let response = try client.readResponse()
            #expect(response.status == bad.status)
            #expect(response.header("Connection") == "close")
            let body = try response.json()
            #expect(body["status"] as? Int == bad.status)
            #expect(body["error"] as? Bool == true)
            #expect(body["service"] as? String == "Balancer")
            #expect(!(body["message"] as? String ?? "").isEmpty)
            try client.expectEndOfStream()

            try bystander.send("GET /echo/after HTTP/1.1\r\n\r\n")
            #expect(try bystander.readResponse().json()["target"] as? String == "/echo/after")
            let fresh = try HTTPTestClient(port: server.port)
            try fresh.send("GET /echo/fresh HTTP/1.1\r\n\r\n")
            #expect(try fresh.readResponse().json()["target"] as? String == "/echo/fresh")
        }
    }

    @Test func malformedRequestAfterAParkedOneIsAnsweredInItsTurn() throws {
        try withHTTPServer { server, handler in
            let client = try HTTPTestClient(port: server.port)
            try client.send("GET /park/p HTTP/1.1\r\n\r\nBAD\u{0} / HTTP/1.1\r\n\r\n")
            try handler.answer("p", "parked answer")
            #expect(try client.readResponse().bodyText == "parked answer")
            #expect(try client.readResponse().status == 400)
            try client.expectEndOfStream()
        }
    }

    @Test func slowClientDoesNotHoldUpOthers() throws {
        try withHTTPServer { server, _ in
            let slow = try HTTPTestClient(port: server.port)
            try slow.send("GET /echo/slow HTTP/1.1\r\nHost: x")  // never finished until the end
            let fast = try HTTPTestClient(port: server.port)
            for _ in 0..<10 {
                try fast.send("GET /echo/fast HTTP/1.1\r\n\r\n")
                #expect(try fast.readResponse().json()["target"] as? String == "/echo/fast")
            }
            try slow.send("\r\n\r\n")
            #expect(try slow.readResponse().json()["target"] as? String == "/echo/slow")
        }
    }
}
