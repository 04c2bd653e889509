import Foundation
import Testing

@testable import LocalOrigin

// Text that is not UTF-8 once percent-decoded is refused the same way wherever it appears, before anything reads
// it lossily: the same 400 body for every form, nothing stored, and no two distinct byte sequences naming the same
// channel. Targets are written as the HTTP layer hands them over (raw invalid bytes arrive as `%XX`; the raw form
// over a socket is in `LocalOriginTests`).

@Suite struct OriginStoreUTF8Tests {
    static let refusal = #"{"status":400,"error":true,"message":"Invalid UTF-8","service":"Balancer"}"#

    /// One request per form: method, target, body.
    static let forms: [(String, String, [UInt8])] = [
        ("GET", "/publish/pub/sub/0/c/0/%22%FF%FE%22", []),  // message in the path
        ("POST", "/publish/pub/sub/0/c/0", [0x22, 0xFF, 0xFE, 0x22]),  // message in the body
        ("GET", "/publish/pub/sub/0/a%FFb/0/1", []),  // channel of a publish
        ("GET", "/publish/pub/sub/0/c/0/1?meta=%7B%22k%22%3A%22%FF%22%7D", []),  // a query value
        ("GET", "/publish/pub/sub/0/c/0/1?uuid=%C3", []),
        ("GET", "/v2/history/sub-key/sub/channel/a%FEb", []),
        ("GET", "/v3/history/sub-key/sub/channel/ok,a%FEb", []),  // one element of a list
        ("GET", "/v2/subscribe/sub/a%FFb/0?tt=0", []),
        ("GET", "/v2/presence/sub-key/sub/channel/a%FFb/heartbeat", []),
        ("GET", "/time/0?%FF=1", []),  // a parameter name
        ("GET", "/publish/p%FF/sub/0/c/0/1", []),  // a key
    ]

    @Test(arguments: forms)
    func notUTF8IsRefusedAlikeInEveryForm(_ method: String, _ target: String, _ body: [UInt8]) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(target, method: method, body: body)
        #expect(reply.status == 400)
        #expect(reply.text == Self.refusal)
        #expect(origin.handler.counters.publishes == 0)
        #expect(origin.handler.counters.channels == 0)
    }

    @Test func refusalIsWrappedForAJSONPClient() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/publish/pub/sub/0/a%FFb/m_12345/1", callback: "m_12345")
        #expect(reply.status == 400)
        #expect(reply.text == "m_12345(\(Self.refusal))")
    }

    @Test func distinctInvalidBytesNoLongerNameOneChannel() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/publish/pub/sub/0/a%FFb/0/%22secret%22").status == 400)
        #expect(origin.get("/v2/history/sub-key/sub/channel/a%FEb").status == 400)
        // The replacement character itself is a valid channel name, and nothing was stored under it.
        #expect(origin.get("/v2/history/sub-key/sub/channel/a%EF%BF%BDb").text == "[[],0,0]")
    }

    @Test func validUTF8IsStillAcceptedEscapedOrNot() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.publish(#""€ 😀""#, on: "aüb")
        let reply = origin.get("/v2/history/sub-key/sub/channel/a%C3%BCb")
        #expect(reply.array.first as? [String] == ["€ 😀"])
        #expect(origin.get("/v2/history/sub-key/sub/channel/aüb").array.first as? [String] == ["€ 😀"])
    }
}
