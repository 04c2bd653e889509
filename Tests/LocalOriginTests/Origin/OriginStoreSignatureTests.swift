import Foundation
import Testing

@testable import LocalOrigin

// Signature checks of an origin with a secret key. The accepted requests carry signatures computed with the pinned
// Python SDK's own functions (pubnub 10.8.0 `utils.sign_sha256` over `utils.prepare_pam_arguments`), secret
// `sec-c-MzQ5YjJhZDg`, publish key `pub-c`, timestamp 1700000000 — the harness clock's time.

@Suite struct OriginStoreSignatureTests {
    static let secret = "sec-c-MzQ5YjJhZDg"
    static let mismatch =
        #"{"message":"Signature does not match","error":true,"service":"Access Manager","status":403}"#
    static let badTimestamp = #"{"message":"Invalid timestamp","error":true,"service":"Access Manager","status":403}"#

    private func origin(secret: String? = OriginStoreSignatureTests.secret) -> OriginHarness {
        OriginHarness { settings in
            settings.secretKey = secret
            settings.publishKeys = ["pub-c"]
        }
    }

    /// (method, target, body) of requests signed as current SDKs sign them.
    static let signed: [(String, String, String)] = [
        (
            "GET",
            "/time/0?pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1&auth=a%2Fb%20c~&timestamp=1700000000"
                + "&signature=v2.hBxw7lk7b6TNyFIRTXA10HI40qI9fDIJ7T6NA1hC_1o",
            ""
        ),
        (
            "POST",
            "/publish/pub-c/sub-c/0/ch/0?pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1&timestamp=1700000000"
                + "&signature=v2.4xlwvRN0uXpPsb_zetdHryylEwJXt7Mb6ijvm1dfDRY",
            #"{"a":[1,2]}"#
        ),
        (
            "GET",
            "/v2/subscribe/sub-c/a%20b,c/0?tt=0&heartbeat=300&pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1"
                + "&timestamp=1700000000&signature=v2.BHb2Iw0EqZ07Ke0lzSkaseDecQPTAS47IihWPj77zJ0",
            ""
        ),
        // The Python SDK's GET publish (its uuid unescaped but for the space, as httpx sends it).
        (
            "GET",
            "/publish/pub-c/sub-c/0/ch/0/%22hi%22?meta=%7B%22k%22%3A%22v%22%7D&pnsdk=PubNub-Python%2F10.4.0&store=1"
                + "&timestamp=1700000000&uuid=py%20user+1&signature=v2.VGPlJ4J4fP8udxzX67rTXYnFQuvG3WKXMa3MWZRzfvU",
            ""
        ),
        // The Python SDK's POST publish, signed with the v1 scheme (body not signed, padding kept).
        (
            "POST",
            "/publish/pub-c/sub-c/0/ch/0?pnsdk=PubNub-Python%2F10.4.0&timestamp=1700000000&uuid=py%20user+1"
                + "&signature=fhAi9RXzpWXeIjR4bnye_tQJSQzE0T178XfrcWZ5pCE%3D",
            #""posted""#
        ),
    ]

    @Test(arguments: signed)
    func requestsSignedAsCurrentSDKsSignThemAreAccepted(_ method: String, _ target: String, _ body: String) {
        let origin = self.origin()
        defer { origin.stop() }
        let reply = origin.get(target, method: method, body: Array(body.utf8))
        #expect(reply.status == 200, "\(reply.text)")
    }

    /// Each signed request of `signed` changed in one place after signing.
    static let tampered: [(String, String, String, String)] = [
        ("a query value", "GET", signed[0].1.replacingOccurrences(of: "uuid=u1", with: "uuid=u2"), ""),
        ("the body", "POST", signed[1].1, #"{"a":[1,3]}"#),
        ("the method", "POST", signed[0].1, ""),
        ("an added parameter", "GET", signed[2].1.replacingOccurrences(of: "tt=0", with: "tt=0&x=1"), ""),
        ("the path", "GET", signed[2].1.replacingOccurrences(of: "a%20b,c", with: "a%20b,d"), ""),
        ("a message in the path", "GET", signed[3].1.replacingOccurrences(of: "%22hi%22", with: "%22ho%22"), ""),
        ("the v1 scheme on a GET", "GET", signed[4].1, ""),
        ("a signature cut short", "GET", String(signed[0].1.dropLast()), ""),
        ("no signature", "GET", "/time/0?uuid=u1&timestamp=1700000000", ""),
        ("an empty signature", "GET", "/time/0?uuid=u1&timestamp=1700000000&signature=", ""),
    ]

    @Test(arguments: tampered)
    func aRequestChangedAfterSigningIsRefused(_ what: String, _ method: String, _ target: String, _ body: String) {
        let origin = self.origin()
        defer { origin.stop() }
        let reply = origin.get(target, method: method, body: Array(body.utf8))
        #expect(reply.status == 403, "\(what)")
        #expect(reply.text == Self.mismatch, "\(what)")
        #expect(origin.handler.counters.publishes == 0)
    }

    @Test func anotherSecretKeyRefusesTheSameRequests() {
        let origin = self.origin(secret: "sec-c-other")
        defer { origin.stop() }
        for (method, target, body) in Self.signed {
            #expect(origin.get(target, method: method, body: Array(body.utf8)).text == Self.mismatch)
        }
    }

    @Test func timestampsOutsideFiveMinutesAreRefused() {
        let origin = self.origin()
        defer { origin.stop() }
        let (method, target, body) = Self.signed[0]
        origin.clock.advance(by: 300)
        #expect(origin.get(target, method: method, body: Array(body.utf8)).status == 200)
        origin.clock.advance(by: 1)
        #expect(origin.get(target, method: method, body: Array(body.utf8)).text == Self.badTimestamp)
        origin.clock.advance(by: -602)
        #expect(origin.get(target, method: method, body: Array(body.utf8)).text == Self.badTimestamp)
        #expect(origin.get("/time/0?uuid=u1&signature=v2.x").text == Self.badTimestamp)
        #expect(origin.get("/time/0?uuid=u1&timestamp=soon&signature=v2.x").text == Self.badTimestamp)
    }

    @Test func refusalIsWrappedForAJSONPClient() {
        let origin = self.origin()
        defer { origin.stop() }
        let reply = origin.get("/time/t_12345?uuid=u1", callback: "t_12345")
        #expect(reply.status == 403)
        #expect(reply.text == "t_12345(\(Self.mismatch))")
    }

    @Test func withoutASecretKeySignaturesAreIgnored() {
        let origin = self.origin(secret: nil)
        defer { origin.stop() }
        #expect(origin.get("/time/0?uuid=u1&timestamp=1&signature=nonsense").status == 200)
        #expect(origin.get("/time/0?uuid=u1").status == 200)
    }

    @Test func withoutConfiguredPublishKeysOnlyPublishesCanBeVerified() {
        let origin = OriginHarness { $0.secretKey = Self.secret }
        defer { origin.stop() }
        let (postMethod, postTarget, postBody) = Self.signed[1]
        #expect(origin.get(postTarget, method: postMethod, body: Array(postBody.utf8)).status == 200)
        let (timeMethod, timeTarget, _) = Self.signed[0]
        #expect(origin.get(timeTarget, method: timeMethod).text == Self.mismatch)
    }

    @Test func canonicalQuerySortsByNameAndEncodesAllButTheUnreservedFew() {
        let query = OriginStore.canonicalQuery([
            (name: "uuid", value: "a b+c~"), (name: "signature", value: "x"), (name: "Z", value: "1"),
            (name: "auth", value: "ü/,*!'()"), (name: "a", value: "2"), (name: "a", value: "1"),
        ])
        #expect(query == "Z=1&a=2&a=1&auth=%C3%BC%2F%2C%2A%21%27%28%29&uuid=a%20b%2Bc%7E")
    }
}
