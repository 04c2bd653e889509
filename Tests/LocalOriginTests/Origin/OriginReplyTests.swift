import TestSupport
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
        #expect(
            response.headers.map(\.name) == [
                "Content-Type", "Cache-Control", "Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
                "Access-Control-Allow-Credentials", "Access-Control-Expose-Headers",
            ]
        )
        #expect(!response.body.isEmpty)
    }

    /// The headers as the service sends them (the 2024–2025 recordings of Tests/Recordings): each part of the service
    /// names its methods; the channel registry answers JSON; the front end's errors are not to be stored.
    @Test(arguments: [
        (OriginService.publish(method: "POST"), false, "text/javascript; charset=\"UTF-8\"", "no-cache", "POST"),
        (.subscribe, false, "text/javascript; charset=\"UTF-8\"", "no-cache", "GET"),
        (.presence, false, "text/javascript; charset=\"UTF-8\"", "no-cache", "OPTIONS, GET, POST"),
        (.storage, false, "text/javascript; charset=\"UTF-8\"", "no-cache", "GET, POST, DELETE, OPTIONS"),
        (.push, false, "text/javascript; charset=\"UTF-8\"", "no-cache", "GET, POST, DELETE, OPTIONS"),
        (.channelRegistry, false, "application/json", "no-cache", "GET, POST, DELETE, OPTIONS"),
        (.subscribe, true, "text/javascript; charset=UTF-8", "no-cache, no-store, must-revalidate", "GET"),
    ])
    func eachServiceSendsItsHeaders(
        _ service: OriginService,
        _ edgeError: Bool,
        _ type: String,
        _ cache: String,
        _ methods: String
    ) {
        let headers = Dictionary(
            uniqueKeysWithValues: OriginReply.headers(for: service, edgeError: edgeError, jsonp: false).map {
                ($0.name, $0.value)
            }
        )
        #expect(headers["Content-Type"] == type)
        #expect(headers["Cache-Control"] == cache)
        #expect(headers["Access-Control-Allow-Methods"] == methods)
        #expect(headers["Access-Control-Allow-Credentials"] == "true")
        #expect(headers["Access-Control-Expose-Headers"] == "*")
        #expect(headers["Access-Control-Allow-Origin"] == "*")
    }

    @Test func aJSONPAnswerOfTheChannelRegistryIsJavaScriptAndEdgeErrorsAreMarked() {
        let jsonp = OriginReply(status: 200, body: .array([])).httpResponse(callback: "cb", service: .channelRegistry)
        #expect(jsonp.headers.first?.value == "text/javascript; charset=\"UTF-8\"")
        #expect(OriginReply.invalidSubscribeKey.isEdgeError && OriginReply.notFound.isEdgeError)
        #expect(!OriginReply.presenceError(400, "No state specified.").isEdgeError)
        #expect(!OriginReply.publishStatus(400, "Invalid Key", 1).isEdgeError)
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

    /// A publish status is written as bytes; they must be what its `JSONValue` array serializes to.
    @Test func publishStatusBytesAreTheArraysSerialization() {
        var generator = SeededGenerator(seed: 0x29_31)
        let texts = ["Sent", "Invalid Key", "Message Too Large", "", "q\"uote\\", "\u{1}\n\u{2028}", "é中😀"]
        for _ in 0..<300 {
            let status = [200, 400, 403].randomElement(using: &generator)!
            let text = texts.randomElement(using: &generator)!
            let token =
                UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)
            let tree: JSONValue = .array([.int(status == 200 ? 1 : 0), .string(text), .string(String(token))])
            #expect(OriginReply.publishStatus(status, text, token).body.serializedBytes == tree.serializedBytes)
        }
        #expect(OriginReply.publishStatus(200, "Sent", UInt64.max).body.serialized == "[1,\"Sent\",\"\(UInt64.max)\"]")
    }

    @Test(arguments: [
        OriginService.time, .subscribe, .presence, .storage, .push, .channelRegistry, .edge, .publish(method: "GET"),
        .publish(method: "POST"), .publish(method: "PUT"),
    ])
    func headerListsMadeOnceAreTheListsMadeAnew(_ service: OriginService) {
        for (edgeError, jsonp) in [(false, false), (false, true), (true, false), (true, true)] {
            let shared = OriginReply.headers(for: service, edgeError: edgeError, jsonp: jsonp)
            let made = OriginReply.buildHeaders(for: service, edgeError: edgeError, jsonp: jsonp)
            #expect(shared.map(\.name) == made.map(\.name))
            #expect(shared.map(\.value) == made.map(\.value))
        }
    }
}
