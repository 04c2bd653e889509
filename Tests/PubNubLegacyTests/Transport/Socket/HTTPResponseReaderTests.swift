import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct HTTPResponseReaderTests {
    /// Feeds `text` in pieces of `step` bytes and returns the first complete response, or the failure.
    static func read(
        _ text: String,
        step: Int,
        reader: HTTPResponseReader = HTTPResponseReader(),
        endOfStream: Bool = false
    ) throws -> HTTPResponseReader.Progress {
        var reader = reader
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + step, bytes.count)
            let piece = Array(bytes[offset..<end])
            let progress = try piece.withUnsafeBytes { try reader.consume($0) }
            if case .complete = progress { return progress }
            offset = end
        }
        return endOfStream ? try reader.finish() : .needMore
    }

    static func complete(_ status: Int, _ body: String, reusable: Bool) -> HTTPResponseReader.Progress {
        .complete(TransportResponse(status: status, body: Data(body.utf8)), reusable: reusable)
    }

    @Test(arguments: [1, 3, 1_000])
    func contentLengthBodiesInAnySplit(step: Int) throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n[1,2]"
        #expect(try Self.read(text, step: step) == Self.complete(200, "[1,2]", reusable: true))
    }

    @Test(arguments: [1, 4, 1_000])
    func chunkedBodiesWithExtensionsAndTrailers(step: Int) throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nT: 1\r\n\r\n"
        #expect(try Self.read(text, step: step) == Self.complete(200, "abc0123456789", reusable: true))
    }

    /// The coding applied last decides, as listed: empty list items do not count, spaces and case do not matter.
    @Test(
        arguments: [
            ("gzip, chunked", true), ("chunked,", true), (" Chunked ,,", true), ("chunked, gzip", false),
            (",,", false), ("", false),
        ]
    )
    func theLastTransferCodingDecidesWhetherTheBodyIsChunked(codings: String, chunked: Bool) throws {
        let body = chunked ? "2\r\nok\r\n0\r\n\r\n" : "ok"
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: \(codings)\r\nContent-Length: 2\r\n\r\n" + body
        let progress = try Self.read(text, step: 1_000, endOfStream: true)
        guard case .complete(let response, _) = progress else {
            Issue.record("no response for \(codings): \(progress)")
            return
        }
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
    }

    @Test func theStatusLineMayHaveSeveralSpacesAndNoReason() throws {
        #expect(
            try Self.read("HTTP/1.1   201\r\nContent-Length: 0\r\n\r\n", step: 3)
                == Self.complete(201, "", reusable: true)
        )
        #expect(throws: HTTPResponseReader.Failure.malformed("bad status line")) {
            try Self.read("HTTP/1.1 \r\n\r\n", step: 100)
        }
        #expect(throws: HTTPResponseReader.Failure.malformed("bad status line")) {
            try Self.read("HTTP/2 200 OK\r\n\r\n", step: 100)
        }
    }

    @Test func aCloseDelimitedBodyCompletesAtTheEndOfTheStream() throws {
        let text = "HTTP/1.1 200 OK\r\n\r\nall of it"
        #expect(try Self.read(text, step: 4) == .needMore)
        #expect(try Self.read(text, step: 4, endOfStream: true) == Self.complete(200, "all of it", reusable: false))
    }

    @Test func connectionCloseAndHTTP10AreNotReusable() throws {
        let close = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"
        #expect(try Self.read(close, step: 100) == Self.complete(200, "ok", reusable: false))
        let old = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok"
        #expect(try Self.read(old, step: 100) == Self.complete(200, "ok", reusable: false))
        let kept = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok"
        #expect(try Self.read(kept, step: 100) == Self.complete(200, "ok", reusable: true))
    }

    @Test func bytesAfterTheResponseMakeTheConnectionUnusable() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA"
        #expect(try Self.read(text, step: 100) == Self.complete(200, "ok", reusable: false))
    }

    @Test func interimAnswersAreSkippedAndEmptyStatusesHaveNoBody() throws {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
        #expect(try Self.read(text, step: 7) == Self.complete(204, "", reusable: true))
    }

    @Test func bareLineFeedsAreAccepted() throws {
        let text = "HTTP/1.1 404 Not Found\nContent-Length: 3\n\nnope"
        #expect(try Self.read(text, step: 2) == Self.complete(404, "nop", reusable: false))
    }

    @Test func theEndOfTheStreamBeforeTheEndIsTruncation() {
        for text in [
            "", "HTTP/1.1 2", "HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc",
        ] {
            #expect(throws: HTTPResponseReader.Failure.truncated) {
                try Self.read(text, step: 5, endOfStream: true)
            }
        }
    }

    @Test func garbageIsMalformed() {
        let cases = [
            "SSH-2.0-OpenSSH_9.0\r\n\r\n",
            "HTTP/1.1 abc OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n",
        ]
        for text in cases {
            #expect(throws: (any Error).self, "\(text)") {
                try Self.read(text, step: 3)
            }
            do {
                _ = try Self.read(text, step: 3)
            } catch {
                guard case .malformed = error as? HTTPResponseReader.Failure else {
                    Issue.record("\(text): \(error)")
                    continue
                }
            }
        }
    }

    static func limited(
        headerBytes: Int = 64,
        headerCount: Int = 8,
        trailerBytes: Int = 32,
        bodyBytes: Int = 8
    ) -> HTTPResponseReader {
        HTTPResponseReader(
            limits: ResponseLimits(
                maximumHeaderBytes: headerBytes,
                maximumHeaderCount: headerCount,
                maximumTrailerBytes: trailerBytes,
                maximumBodyBytes: bodyBytes
            )
        )
    }

    /// Found by the `client-http-response` fuzz target: a long non-HTTP answer was "too large" when it arrived in one
    /// piece and "malformed" when it arrived in small ones.
    @Test(arguments: [1, 5, 1_000])
    func bytesThatAreNotHTTPAreMalformedWhateverTheSplit(step: Int) {
        let small = Self.limited(headerBytes: 64, bodyBytes: 8)
        for text in [
            "<html>" + String(repeating: "x", count: 200), "SSH-2.0\r\n\r\n" + String(repeating: "y", count: 80),
        ] {
            #expect(throws: HTTPResponseReader.Failure.malformed("not an HTTP response"), "\(text.prefix(8))") {
                try Self.read(text, step: step, reader: small)
            }
        }
    }

    @Test func sizesAreBounded() {
        let small = Self.limited()
        let bigHead = "HTTP/1.1 200 OK\r\nX: \(String(repeating: "h", count: 200))"
        #expect(throws: HTTPResponseReader.Failure.headerTooLarge) {
            try Self.read(bigHead, step: 10, reader: small)
        }
        #expect(throws: HTTPResponseReader.Failure.bodyTooLarge) {
            try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", step: 100, reader: small)
        }
        #expect(throws: HTTPResponseReader.Failure.bodyTooLarge) {
            try Self.read(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n5\r\n",
                step: 4,
                reader: small
            )
        }
        #expect(throws: HTTPResponseReader.Failure.bodyTooLarge) {
            try Self.read("HTTP/1.1 200 OK\r\n\r\n0123456789", step: 4, reader: small)
        }
        let fits = "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n01234567"
        #expect((try? Self.read(fits, step: 3, reader: small)) == Self.complete(200, "01234567", reusable: true))
    }

    @Test func headerLinesAreCounted() {
        let reader = Self.limited(headerBytes: 4_096, headerCount: 3)
        let three = "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nContent-Length: 0\r\n\r\n"
        #expect((try? Self.read(three, step: 5, reader: reader)) == Self.complete(200, "", reusable: true))
        let four = "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nContent-Length: 0\r\n\r\n"
        #expect(throws: HTTPResponseReader.Failure.tooManyHeaders) { try Self.read(four, step: 5, reader: reader) }
    }

    @Test func trailersAreBoundedInTotalNotPerLine() {
        let reader = Self.limited(trailerBytes: 32, bodyBytes: 1_024)
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n"
        let fits = head + "T: 1\r\nU: 2\r\n\r\n"
        #expect((try? Self.read(fits, step: 3, reader: reader)) == Self.complete(200, "ok", reusable: true))
        // Every line short, the total endless: refused once the total passes the limit.
        let endless = head + String(repeating: "T: 1\r\n", count: 100)
        #expect(throws: HTTPResponseReader.Failure.trailersTooLarge) { try Self.read(endless, step: 7, reader: reader) }
        let oneLong = head + "T: " + String(repeating: "t", count: 100)
        #expect(throws: HTTPResponseReader.Failure.trailersTooLarge) { try Self.read(oneLong, step: 7, reader: reader) }
    }

    @Test func endlessInterimAnswersAreMalformed() {
        let text = String(
            repeating: "HTTP/1.1 100 Continue\r\n\r\n",
            count: HTTPResponseReader.maximumInterimAnswers + 1
        )
        #expect(throws: HTTPResponseReader.Failure.malformed("more than 16 interim answers")) {
            try Self.read(text, step: 50)
        }
    }

    @Test func anEndlessBodyFailsAtTheLimitWithoutHoldingMore() throws {
        // A close-delimited body fed in 64 KiB reads, as the socket delivers it: the reader fails on the read that
        // passes the limit, never holding more than the limit plus that read.
        var reader = Self.limited(bodyBytes: 1_048_576)
        let head = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)
        _ = try head.withUnsafeBytes { try reader.consume($0) }
        let read = [UInt8](repeating: 0x61, count: 65_536)
        var fed = 0
        do {
            while true {
                _ = try read.withUnsafeBytes { try reader.consume($0) }
                fed += read.count
                #expect(fed <= 1_048_576)
            }
        } catch {
            #expect(error as? HTTPResponseReader.Failure == .bodyTooLarge)
        }
        #expect(fed == 1_048_576)
    }
}
