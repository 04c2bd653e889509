import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct EndpointTests {
    static let context = EndpointContext(
        origin: "127.0.0.1:8090",
        secure: false,
        publishKey: "pub-c",
        subscribeKey: "sub-c",
        uuid: "u1",
        authKey: ""
    )
    static let tail = "pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1"
    static let token = Data([0x0A, 0xBC, 0xFF, 0x01])

    static let table: [(Endpoint, String, String)] = [
        (.time, "GET", "/time/0?\(tail)"),
        (
            .publish(channel: "a b", message: "{\"k\":\"v w\"}", method: .get), "GET",
            "/publish/pub-c/sub-c/0/a%20b/0/%7B%22k%22%3A%22v%20w%22%7D?\(tail)"
        ),
        (.publish(channel: "ch", message: "5", method: .post), "POST", "/publish/pub-c/sub-c/0/ch/0?\(tail)"),
        (
            .subscribe(channels: ["a", "a-pnpres"], timetoken: 0, region: nil, heartbeat: nil), "GET",
            "/v2/subscribe/sub-c/a,a-pnpres/0?tt=0&\(tail)"
        ),
        (
            .subscribe(channels: ["x,y", "ü"], timetoken: 17_953_397_910_658_811, region: 4, heartbeat: 60), "GET",
            "/v2/subscribe/sub-c/x%2Cy,%C3%BC/0?tt=17953397910658811&tr=4&heartbeat=60&\(tail)"
        ),
        (.leave(channels: ["a", "a-pnpres"]), "GET", "/v2/presence/sub-key/sub-c/channel/a,a-pnpres/leave?\(tail)"),
        (
            .heartbeat(channels: ["a"], heartbeat: 300), "GET",
            "/v2/presence/sub-key/sub-c/channel/a/heartbeat?heartbeat=300&\(tail)"
        ),
        (.hereNow(channel: "100%"), "GET", "/v2/presence/sub-key/sub-c/channel/100%25?\(tail)"),
        (.whereNow(uuid: "u 2"), "GET", "/v2/presence/sub-key/sub-c/uuid/u%202?\(tail)"),
        (
            .setState(channel: "a", uuid: "u1", stateJSON: "{\"m\":1}"), "GET",
            "/v2/presence/sub-key/sub-c/channel/a/uuid/u1/data?state=%7B%22m%22%3A1%7D&\(tail)"
        ),
        (.getState(channel: "a", uuid: "u1"), "GET", "/v2/presence/sub-key/sub-c/channel/a/uuid/u1?\(tail)"),
        (
            .history(channel: "h", start: 20, end: 10, count: 100, reverse: true), "GET",
            "/v2/history/sub-key/sub-c/channel/h?start=20&end=10&count=100&reverse=true&\(tail)"
        ),
        (
            .history(channel: "h", start: nil, end: nil, count: 5, reverse: false), "GET",
            "/v2/history/sub-key/sub-c/channel/h?count=5&reverse=false&\(tail)"
        ),
        (
            .pushAddChannels(token: token, channels: ["a", "b+c"]), "GET",
            "/v1/push/sub-key/sub-c/devices/0ABCFF01?add=a,b%2Bc&type=apns&\(tail)"
        ),
        (
            .pushRemoveChannels(token: token, channels: ["a"]), "GET",
            "/v1/push/sub-key/sub-c/devices/0ABCFF01?remove=a&type=apns&\(tail)"
        ),
        (.pushListChannels(token: token), "GET", "/v1/push/sub-key/sub-c/devices/0ABCFF01?type=apns&\(tail)"),
        (
            .pushRemoveDevice(token: token), "GET",
            "/v1/push/sub-key/sub-c/devices/0ABCFF01/remove?type=apns&\(tail)"
        ),
    ]

    @Test(arguments: table)
    func buildsTheCurrentSDKWireForm(endpoint: Endpoint, method: String, pathAndQuery: String) {
        let target = endpoint.target(in: Self.context)
        #expect(target.method == method)
        #expect(target.pathAndQuery == pathAndQuery)
    }

    @Test func postPublishCarriesTheMessageAsBody() {
        let target = Endpoint.publish(channel: "ch", message: "{\"a\":[1,2]}", method: .post).target(in: Self.context)
        #expect(target.body == Data("{\"a\":[1,2]}".utf8))
        #expect(Endpoint.time.target(in: Self.context).body == nil)
    }

    @Test(
        arguments: [
            ("user 1", "user%201"),
            ("a+b", "a%2Bb"),
            ("a/b", "a%2Fb"),
            ("who?", "who%3F"),
            ("ünï", "%C3%BCn%C3%AF"),
        ]
    )
    func uuidAndAuthKeyAreEscaped(raw: String, escaped: String) {
        var context = Self.context
        context.uuid = raw
        context.authKey = raw
        let query = Endpoint.time.target(in: context).pathAndQuery
        #expect(query == "/time/0?pnsdk=PubNubLegacy-Swift%2F3.4&uuid=\(escaped)&auth=\(escaped)")
    }

    @Test(
        arguments: [
            ("space name", "space%20name"),
            ("ünïcødé", "%C3%BCn%C3%AFc%C3%B8d%C3%A9"),
            ("100%", "100%25"),
            ("a+b", "a%2Bb"),
            ("日本語", "%E6%97%A5%E6%9C%AC%E8%AA%9E"),
        ]
    )
    func channelNamesAreEscapedInEveryPosition(name: String, escaped: String) {
        let publish = Endpoint.publish(channel: name, message: "1", method: .get).target(in: Self.context)
        #expect(publish.pathAndQuery.hasPrefix("/publish/pub-c/sub-c/0/\(escaped)/0/1?"))
        let subscribe = Endpoint.subscribe(channels: [name], timetoken: 0, region: nil, heartbeat: nil)
            .target(in: Self.context)
        #expect(subscribe.pathAndQuery.hasPrefix("/v2/subscribe/sub-c/\(escaped)/0?"))
        let history = Endpoint.history(channel: name, start: nil, end: nil, count: 100, reverse: false)
            .target(in: Self.context)
        #expect(history.pathAndQuery.hasPrefix("/v2/history/sub-key/sub-c/channel/\(escaped)?"))
    }

    @Test func requestUsesTheSchemeOfTheTLSSettingAndKeepsThePort() throws {
        let plain = try #require(Endpoint.time.request(in: Self.context, timeout: 10))
        #expect(plain.url.absoluteString == "http://127.0.0.1:8090/time/0?\(Self.tail)")
        #expect(plain.timeout == 10)
        var secure = Self.context
        secure.origin = "pubsub.pubnub.com"
        secure.secure = true
        let tls = try #require(Endpoint.time.request(in: secure, timeout: 5))
        #expect(tls.url.scheme == "https")
        #expect(tls.url.host == "pubsub.pubnub.com")
    }

    @Test func anEmptyOriginGivesNoRequest() {
        var context = Self.context
        context.origin = ""
        #expect(Endpoint.time.request(in: context, timeout: 10) == nil)
    }

    // MARK: - Signing

    /// Expected signatures computed with the pinned Python SDK's own functions (pubnub 10.8.0 `utils.sign_sha256`
    /// over `utils.prepare_pam_arguments`, the v2 string of `utils.sign_request`), secret `sec-c-MzQ5YjJhZDg`.
    static let signed: [(Endpoint, String, String)] = [
        (
            .time, "a/b c~",
            "/time/0?pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1&auth=a%2Fb%20c~&timestamp=1700000000"
                + "&signature=v2.hBxw7lk7b6TNyFIRTXA10HI40qI9fDIJ7T6NA1hC_1o"
        ),
        (
            .publish(channel: "ch", message: "{\"a\":[1,2]}", method: .post), "",
            "/publish/pub-c/sub-c/0/ch/0?pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1&timestamp=1700000000"
                + "&signature=v2.4xlwvRN0uXpPsb_zetdHryylEwJXt7Mb6ijvm1dfDRY"
        ),
        (
            .subscribe(channels: ["a b", "c"], timetoken: 0, region: nil, heartbeat: 300), "",
            "/v2/subscribe/sub-c/a%20b,c/0?tt=0&heartbeat=300&pnsdk=PubNubLegacy-Swift%2F3.4&uuid=u1"
                + "&timestamp=1700000000&signature=v2.BHb2Iw0EqZ07Ke0lzSkaseDecQPTAS47IihWPj77zJ0"
        ),
    ]

    @Test(arguments: signed)
    func withASecretKeyEveryRequestCarriesTimestampAndTheSignatureCurrentSDKsCompute(
        endpoint: Endpoint,
        authKey: String,
        pathAndQuery: String
    ) {
        var context = Self.context
        context.authKey = authKey
        context.secretKey = "sec-c-MzQ5YjJhZDg"
        #expect(endpoint.target(in: context, timestamp: 1_700_000_000).pathAndQuery == pathAndQuery)
    }

    @Test func withoutASecretKeyOrWithThe34NoneValueNothingIsSigned() throws {
        #expect(!Endpoint.time.target(in: Self.context).pathAndQuery.contains("signature"))
        var settings = ClientSettings()
        settings.origin = "127.0.0.1:8090"
        #expect(settings.secretKey == "0")
        #expect(settings.endpointContext(uuid: "u").secretKey.isEmpty)
        let unsigned = try #require(Endpoint.time.request(in: settings.endpointContext(uuid: "u"), timeout: 5))
        #expect(
            !unsigned.url.absoluteString.contains("timestamp=") && !unsigned.url.absoluteString.contains("signature=")
        )
        settings.secretKey = "sec-c-1"
        let signed = try #require(Endpoint.time.request(in: settings.endpointContext(uuid: "u"), timeout: 5))
        let query = signed.url.query ?? ""
        let timestamp = try #require(query.split(separator: "&").first { $0.hasPrefix("timestamp=") })
        let seconds = try #require(Double(timestamp.dropFirst("timestamp=".count)))
        #expect(abs(seconds - Date().timeIntervalSince1970) < 60)
        #expect(query.contains("&signature=v2."))
    }

}
