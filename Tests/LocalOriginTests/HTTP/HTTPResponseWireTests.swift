import TestSupport
import Testing

@testable import LocalOrigin

@Suite struct HTTPResponseWireTests {
    @Test func writesStatusLineHeadersAsGivenLengthConnectionAndBody() {
        let response = HTTPResponse(
            status: 403,
            headers: [(name: "content-type", value: "text/javascript"), (name: "X-A", value: "1")],
            body: Array("t_a1b2c([1])".utf8)
        )
        var output: [UInt8] = Array("prefix".utf8)
        response.write(to: &output, keepAlive: true, includeBody: true)
        #expect(
            String(decoding: output, as: UTF8.self)
                == "prefixHTTP/1.1 403 Forbidden\r\ncontent-type: text/javascript\r\nX-A: 1\r\n"
                + "Content-Length: 12\r\nConnection: keep-alive\r\n\r\nt_a1b2c([1])"
        )
    }

    @Test func closingAnswerAndHeadAnswer() {
        var output: [UInt8] = []
        HTTPResponse(status: 200, body: Array("abc".utf8)).write(to: &output, keepAlive: false, includeBody: false)
        #expect(
            String(decoding: output, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\n"
        )
    }

    @Test(arguments: [0, 7, 10, 99, 1_048_576, -42, Int.min])
    func decimalsMatchSwiftFormatting(value: Int) {
        var output: [UInt8] = []
        HTTPResponse.appendDecimal(value, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == String(value))
    }

    @Test func unsignedDecimalsMatchSwiftFormatting() {
        var generator = SeededGenerator(seed: 0x3030)
        let values: [UInt] =
            [0, 9, 10, 17_958_095_154_434_614, UInt.max, UInt.max / 10]
            + (0..<500).map { _ in
                UInt.random(in: 0...UInt.max, using: &generator) >> UInt.random(in: 0...63, using: &generator)
            }
        for value in values {
            var output: [UInt8] = [UInt8(ascii: "x")]
            HTTPResponse.appendDecimal(value, to: &output)
            #expect(String(decoding: output, as: UTF8.self) == "x" + String(value))
        }
    }

    @Test func unknownStatusGetsAGenericReason() {
        var output: [UInt8] = []
        HTTPResponse(status: 299, body: [0x31]).write(to: &output, keepAlive: true, includeBody: true)
        #expect(String(decoding: output, as: UTF8.self).hasPrefix("HTTP/1.1 299 Unknown\r\n"))
    }
}
