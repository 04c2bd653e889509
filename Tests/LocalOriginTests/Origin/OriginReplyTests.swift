import Testing

@testable import LocalOrigin

@Suite struct OriginReplyTests {
    private let reply = OriginReply(status: 200, body: .array([.int(1)]))

    @Test(arguments: [(String?.none, "[1]"), ("0", "[1]"), ("", "[1]"), ("t_a1b2c", "t_a1b2c([1])")])
    func wrapsOnlyForARealCallback(_ callback: String?, _ expected: String) {
        #expect(String(decoding: self.reply.httpResponse(callback: callback).body, as: UTF8.self) == expected)
    }

    @Test func carriesStatusAndThePubNubHeadersButNoFraming() {
        let response = OriginReply.notFound.httpResponse(callback: nil)
        #expect(response.status == 404)
        #expect(response.headers.map(\.name) == ["Content-Type", "Cache-Control", "Access-Control-Allow-Origin"])
        #expect(!response.body.isEmpty)
    }

    @Test func errorBodiesHaveTheSpecifiedShapes() {
        #expect(
            OriginReply.notFound.body.serialized
                == "{\"status\":404,\"error\":true,\"message\":\"Not Found\",\"service\":\"Balancer\"}"
        )
        #expect(
            OriginReply.invalidSubscribeKey.body.serialized
                == "{\"message\":\"Invalid Subscribe Key\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}"
        )
        #expect(OriginReply.publishStatus(400, "Invalid Key", 42).body.serialized == "[0,\"Invalid Key\",\"42\"]")
        #expect(OriginReply.publishStatus(200, "Sent", 42).body.serialized == "[1,\"Sent\",\"42\"]")
        #expect(
            OriginReply.presenceError(400, "No state specified.").body.serialized
                == "{\"status\":400,\"error\":1,\"message\":\"No state specified.\",\"service\":\"Presence\"}"
        )
    }
}
