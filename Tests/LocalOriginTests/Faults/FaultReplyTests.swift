import Testing

@testable import LocalOrigin

// The canned answers and the cut points, byte for byte.

@Suite struct FaultReplyTests {
    private let response = HTTPResponse(
        status: 200,
        headers: [(name: "Content-Type", value: "text/javascript")],
        body: Array(#"[1,"Sent","17000000000000000"]"#.utf8)
    )

    private var wire: [UInt8] {
        var bytes: [UInt8] = []
        self.response.write(to: &bytes, keepAlive: true, includeBody: true)
        return bytes
    }

    @Test func cutInTheStatusLineSendsHalfOfIt() {
        let cut = FaultReply.cut(self.response, at: .statusLine)
        #expect(String(decoding: cut, as: UTF8.self) == "HTTP/1.")
    }

    @Test func cutInTheHeadersEndsBeforeTheBlankLine() {
        let text = String(decoding: FaultReply.cut(self.response, at: .headers), as: UTF8.self)
        let head = String(decoding: self.wire, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.hasPrefix(text))
        #expect(text.utf8.count == 17 + (head.utf8.count - 17) / 2)
    }

    @Test func cutInTheBodySendsTheHeadAndHalfOfTheBody() {
        let cut = FaultReply.cut(self.response, at: .body)
        let headLength = self.wire.count - self.response.body.count
        #expect(cut.count == headLength + self.response.body.count / 2)
        #expect(Array(self.wire.prefix(cut.count)) == cut)
    }

    @Test func aCutNeverSendsTheWholeAnswer() {
        let tiny = HTTPResponse(status: 200, body: [])
        var whole: [UInt8] = []
        tiny.write(to: &whole, keepAlive: true, includeBody: true)
        for point in OriginFault.CutPoint.allCases {
            #expect(FaultReply.cut(tiny, at: point).count < whole.count)
        }
    }

    @Test func answersInTheOriginsPlaceAreNeverEmpty() {
        let faults: [OriginFault] = [.serverError(status: 500), .accessDenied, .malformedJSON, .nonUTF8, .htmlPage]
        for fault in faults {
            for target in ["/time/0", "/time/t_1", "/v2/presence/sub-key/s/channel/c"] {
                let response = FaultReply.response(for: fault, target: FaultTarget(target))
                #expect(response?.body.isEmpty == false, "\(fault) on \(target)")
            }
        }
        let passing: [OriginFault] = [
            .neverAnswer, .delay(1), .closeMidResponse(.body), .stallSubscribe(nil),
            .refuseConnections(dropExisting: false),
        ]
        for fault in passing {
            #expect(FaultReply.response(for: fault, target: FaultTarget("/time/0")) == nil)
        }
    }
}
