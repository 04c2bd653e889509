import Testing

@testable import LocalOrigin

/// Drives the parser directly, the way a connection does: the buffer always starts at the current request and
/// grows as bytes arrive.
private struct ParserDriver {
    var parser: HTTPParser
    var buffer: [UInt8] = []

    init(limits: HTTPServerLimits = .init()) {
        self.parser = HTTPParser(limits: limits)
    }

    /// Feeds `bytes` in pieces of `size` and collects every result other than `.needMore`.
    mutating func feed(_ bytes: [UInt8], pieceSize: Int) -> [HTTPParser.Result] {
        var results: [HTTPParser.Result] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + pieceSize)
            self.buffer.append(contentsOf: bytes[start..<end])
            start = end
            while true {
                let result = self.buffer.withUnsafeBufferPointer { self.parser.parse($0) }
                switch result {
                case .needMore:
                    break
                case .request(_, _, let consumed):
                    self.buffer.removeFirst(consumed)
                    results.append(result)
                    continue
                case .failure:
                    results.append(result)
                    return results
                }
                break
            }
        }
        return results
    }
}

private func requests(_ results: [HTTPParser.Result]) -> [(request: HTTPRequest, keepAlive: Bool)] {
    results.compactMap {
        if case .request(let request, let keepAlive, _) = $0 { return (request, keepAlive) }
        return nil
    }
}

private func failure(_ results: [HTTPParser.Result]) -> HTTPParseError? {
    for result in results {
        if case .failure(let error) = result { return error }
    }
    return nil
}

@Suite struct HTTPParserTests {
    static let pieceSizes = [1, 2, 3, 7, 64, 100_000]

    @Test(arguments: pieceSizes)
    func parsesRequestLineHeadersAndBodyInAnySplit(pieceSize: Int) throws {
        let text =
            "POST /publish/a/b/0/ch/0?uuid=x%20y HTTP/1.1\r\nHost: 127.0.0.1:8090\r\nX-Empty:\r\n"
            + "Content-Type:  application/json \t\r\nContent-Length: 11\r\n\r\n{\"a\":\"hé\"}"
        var driver = ParserDriver()
        let parsed = requests(driver.feed(Array(text.utf8), pieceSize: pieceSize))
        let (request, keepAlive) = try #require(parsed.first)
        #expect(parsed.count == 1)
        #expect(keepAlive)
        #expect(request.method == "POST")
        #expect(request.target == "/publish/a/b/0/ch/0?uuid=x%20y")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers.map(\.name) == ["Host", "X-Empty", "Content-Type", "Content-Length"])
        #expect(request.headers.map(\.value) == ["127.0.0.1:8090", "", "application/json", "11"])
        #expect(String(decoding: request.body, as: UTF8.self) == "{\"a\":\"hé\"}")
        #expect(driver.buffer.isEmpty)
    }

    @Test(arguments: pieceSizes)
    func parsesPipelinedRequestsInOrder(pieceSize: Int) {
        let text =
            "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\nConnection: close\r\n\r\nGET /d"
        var driver = ParserDriver()
        let parsed = requests(driver.feed(Array(text.utf8), pieceSize: pieceSize))
        #expect(parsed.map(\.request.target) == ["/a", "/b", "/c"])
        #expect(parsed.map(\.keepAlive) == [true, true, false])
        #expect(parsed[1].request.body == Array("xyz".utf8))
        #expect(driver.buffer == Array("GET /d".utf8))
    }

    @Test(arguments: [1, 5, 1000])
    func acceptsBareLineFeedsAndLeadingEmptyLines(pieceSize: Int) {
        let text = "\r\n\nGET /x HTTP/1.1\nHost: h\nContent-Length: 2\n\nok"
        var driver = ParserDriver()
        let parsed = requests(driver.feed(Array(text.utf8), pieceSize: pieceSize))
        #expect(parsed.map(\.request.target) == ["/x"])
        #expect(parsed.first?.request.header("host") == "h")
        #expect(parsed.first?.request.body == Array("ok".utf8))
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nConnection: Keep-Alive, CLOSE\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nConnection: upgrade\r\n\r\n", true),
    ])
    func decidesKeepAlive(text: String, keepAlive: Bool) {
        var driver = ParserDriver()
        let parsed = requests(driver.feed(Array(text.utf8), pieceSize: 1_000))
        #expect(parsed.map(\.keepAlive) == [keepAlive])
    }

    @Test func passesAnyMethodTokenAndNewerMinorVersionsThrough() {
        var driver = ParserDriver()
        let parsed = requests(driver.feed(Array("PURGE /x HTTP/1.2\r\n\r\n".utf8), pieceSize: 1))
        #expect(parsed.first?.request.method == "PURGE")
        #expect(parsed.first?.request.version == "HTTP/1.2")
    }

    @Test func rejectsBytesThatCannotStartARequestWithoutALineEnd() {
        var driver = ParserDriver()
        // A TLS ClientHello: rejected on its first byte, without waiting for a line end that never comes.
        let results = driver.feed([0x16, 0x03, 0x01, 0x02, 0x00], pieceSize: 1)
        #expect(failure(results)?.status == 400)
    }

    @Test func rejectsAnOverlongRequestLineAsSoonAsTheLimitIsPassed() {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 64
        var driver = ParserDriver(limits: limits)
        let atLimit = "GET /" + String(repeating: "a", count: 64 - 14) + " HTTP/1.1"
        #expect(atLimit.utf8.count == 64)
        #expect(requests(driver.feed(Array((atLimit + "\r\n\r\n").utf8), pieceSize: 3)).count == 1)

        var overflowing = ParserDriver(limits: limits)
        let results = overflowing.feed(Array(("GET /" + String(repeating: "a", count: 60)).utf8), pieceSize: 1)
        #expect(failure(results)?.status == 414)
    }

    @Test func rejectsAnOverlongHeaderBlockWithoutWaitingForItsEnd() {
        var limits = HTTPServerLimits()
        limits.maxHeaderBytes = 100
        var driver = ParserDriver(limits: limits)
        let results = driver.feed(
            Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 200)).utf8),
            pieceSize: 1
        )
        #expect(failure(results)?.status == 431)
    }

    @Test func rejectsAnOversizedBodyOnItsContentLengthHeader() {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 10
        var driver = ParserDriver(limits: limits)
        // No empty line yet: the header alone decides.
        let results = driver.feed(Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n".utf8), pieceSize: 4)
        #expect(failure(results)?.status == 413)

        var exact = ParserDriver(limits: limits)
        let accepted = exact.feed(Array("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789".utf8), pieceSize: 4)
        #expect(requests(accepted).first?.request.body.count == 10)
    }

    @Test func acceptsRepeatedIdenticalContentLengths() {
        var driver = ParserDriver()
        let text = "POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\nhi"
        #expect(requests(driver.feed(Array(text.utf8), pieceSize: 5)).first?.request.body == Array("hi".utf8))
    }

    @Test func errorAnswersAreJSONAndThe414BodyIsExact() throws {
        let tooLong = HTTPParseError(status: 414, message: "ignored").response
        #expect(
            String(decoding: tooLong.body, as: UTF8.self)
                == #"{"message":"Request URI Too Long","error":true,"service":"Balancer","status":414}"#
        )
        let bad = HTTPParseError(status: 400, message: "Malformed request line").response
        #expect(
            String(decoding: bad.body, as: UTF8.self)
                == #"{"status":400,"error":true,"message":"Malformed request line","service":"Balancer"}"#
        )
        #expect(bad.status == 400)
    }

    // MARK: - Bytes that are not UTF-8

    @Test(
        arguments: [
            ([0x2F, 0x61, 0xFF, 0xFE], "/a%FF%FE"),  // lone invalid bytes
            ([0x2F, 0xC3, 0xBC, 0xFF], "/ü%FF"),  // valid UTF-8 stays raw, the invalid byte after it does not
            ([0x2F, 0x61, 0xC3], "/a%C3"),  // a sequence cut short
            ([0x2F, 0xED, 0xA0, 0x80], "/%ED%A0%80"),  // an encoded surrogate is not UTF-8
            ([0x2F, 0xE2, 0x82, 0xAC, 0x3F, 0x61, 0x3D, 0x62], "/€?a=b"),
        ] as [([UInt8], String)]
    )
    func targetBytesThatAreNotUTF8ArriveEscaped(_ target: [UInt8], _ expected: String) throws {
        var driver = ParserDriver()
        let bytes = Array("GET ".utf8) + target + Array(" HTTP/1.1\r\n\r\n".utf8)
        let parsed = requests(driver.feed(bytes, pieceSize: 3))
        #expect(parsed.count == 1)
        #expect(parsed.first?.request.target == expected)
    }
}
