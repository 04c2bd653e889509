import Foundation

// The wire forms of docs/DESIGN.md §6 / docs/PROTOCOL.md §2 as the current SDKs send them: `/time/0`, publish, v2
// subscribe with `tt`/`tr`, v2 presence, v2 history and v1 push. Plain JSON (no JSONP callbacks). Building a
// request is pure: the same endpoint, context and timestamp always give the same URL, so tests check it as text.
// With a secret key every request is signed as current SDKs sign it (`timestamp` + v2 `signature`).

/// The values every request needs from the configuration, captured when the request is built (docs/BEHAVIOR.md §2.4:
/// a configuration change applies to the next request, never to one already built).
struct EndpointContext: Sendable, Equatable {
    /// Host, optionally with `:port` (`127.0.0.1:8090`).
    var origin: String
    /// `https` when true, `http` otherwise. False also when a secure client fell back to plain HTTP: the host and
    /// any explicit port stay, so an origin without a port is then reached on port 80.
    var secure: Bool
    var publishKey: String
    var subscribeKey: String
    /// The client identifier sent as `uuid`.
    var uuid: String
    /// Sent as `auth` when not empty.
    var authKey: String
    /// Whether the transport may accept any server certificate (the relaxed rung of the TLS ladder).
    var relaxedCertificateValidation = false
    /// The trust anchors and pins of `https` requests.
    var trust = TLSTrust()
    /// When not empty, every request is signed with it (`timestamp` and a v2 `signature`, as current SDKs do);
    /// empty also when 3.4's "no secret key" value `0` is configured.
    var secretKey = ""
}

/// One PubNub REST operation with its arguments.
enum Endpoint: Sendable, Equatable {
    case time
    /// `message` is the JSON text to publish (already encrypted and quoted when a cipher key is set).
    case publish(channel: String, message: String, method: PublishMethod)
    case subscribe(channels: [String], timetoken: UInt64, region: Int?, heartbeat: Int?)
    case leave(channels: [String])
    case heartbeat(channels: [String], heartbeat: Int?)
    case hereNow(channel: String)
    case whereNow(uuid: String)
    case setState(channel: String, uuid: String, stateJSON: String)
    case getState(channel: String, uuid: String)
    case history(channel: String, start: UInt64?, end: UInt64?, count: Int, reverse: Bool)
    case pushAddChannels(token: Data, channels: [String])
    case pushRemoveChannels(token: Data, channels: [String])
    case pushListChannels(token: Data)
    case pushRemoveDevice(token: Data)

    /// How a publish carries its message.
    enum PublishMethod: Sendable, Equatable {
        /// In the last path segment, percent-escaped (what 3.4.2 and the Python SDK do by default).
        case get
        /// As the request body; used for large messages so the URL stays short.
        case post
    }

    /// The `pnsdk` value (docs/PROTOCOL.md §1.6), already escaped.
    static let sdkName = "PubNubLegacy-Swift%2F3.4"

    /// The method, the path-and-query string (escaped, starting with `/`) and the body. With a secret key in
    /// `context` the query also carries `timestamp` (Unix seconds) and its `signature`.
    func target(
        in context: EndpointContext,
        timestamp: UInt64 = Endpoint.currentTimestamp()
    ) -> (method: String, pathAndQuery: String, body: Data?) {
        let sub = PercentEncoding.escape(context.subscribeKey)
        var query: [(String, String)] = []
        let path: String
        var method = "GET"
        var body: Data?
        switch self {
        case .time:
            path = "/time/0"
        case .publish(let channel, let message, let publishMethod):
            // Built as bytes: every publish comes here, and `String.append` checks each join for a grapheme break.
            var bytes = Array("/publish/".utf8)
            bytes.append(contentsOf: PercentEncoding.escape(context.publishKey).utf8)
            bytes.append(UInt8(ascii: "/"))
            bytes.append(contentsOf: sub.utf8)
            bytes.append(contentsOf: "/0/".utf8)
            bytes.append(contentsOf: PercentEncoding.escape(channel).utf8)
            bytes.append(contentsOf: "/0".utf8)
            switch publishMethod {
            case .get:
                bytes.append(UInt8(ascii: "/"))
                bytes.append(contentsOf: PercentEncoding.escape(message).utf8)
            case .post:
                method = "POST"
                body = Data(message.utf8)
            }
            path = String(decoding: bytes, as: UTF8.self)
        case .subscribe(let channels, let timetoken, let region, let heartbeat):
            path = "/v2/subscribe/\(sub)/\(PercentEncoding.escapeList(channels))/0"
            query.append(("tt", String(timetoken)))
            if let region { query.append(("tr", String(region))) }
            if let heartbeat { query.append(("heartbeat", String(heartbeat))) }
        case .leave(let channels):
            path = "/v2/presence/sub-key/\(sub)/channel/\(PercentEncoding.escapeList(channels))/leave"
        case .heartbeat(let channels, let heartbeat):
            path = "/v2/presence/sub-key/\(sub)/channel/\(PercentEncoding.escapeList(channels))/heartbeat"
            if let heartbeat { query.append(("heartbeat", String(heartbeat))) }
        case .hereNow(let channel):
            path = "/v2/presence/sub-key/\(sub)/channel/\(PercentEncoding.escape(channel))"
        case .whereNow(let uuid):
            path = "/v2/presence/sub-key/\(sub)/uuid/\(PercentEncoding.escape(uuid))"
        case .setState(let channel, let uuid, let stateJSON):
            let channelPart = PercentEncoding.escape(channel)
            path = "/v2/presence/sub-key/\(sub)/channel/\(channelPart)/uuid/\(PercentEncoding.escape(uuid))/data"
            query.append(("state", PercentEncoding.escape(stateJSON)))
        case .getState(let channel, let uuid):
            let channelPart = PercentEncoding.escape(channel)
            path = "/v2/presence/sub-key/\(sub)/channel/\(channelPart)/uuid/\(PercentEncoding.escape(uuid))"
        case .history(let channel, let start, let end, let count, let reverse):
            path = "/v2/history/sub-key/\(sub)/channel/\(PercentEncoding.escape(channel))"
            if let start { query.append(("start", String(start))) }
            if let end { query.append(("end", String(end))) }
            query.append(("count", String(count)))
            query.append(("reverse", reverse ? "true" : "false"))
        case .pushAddChannels(let token, let channels):
            path = Self.pushPath(sub, token)
            query.append(("add", PercentEncoding.escapeList(channels)))
            query.append(("type", "apns"))
        case .pushRemoveChannels(let token, let channels):
            path = Self.pushPath(sub, token)
            query.append(("remove", PercentEncoding.escapeList(channels)))
            query.append(("type", "apns"))
        case .pushListChannels(let token):
            path = Self.pushPath(sub, token)
            query.append(("type", "apns"))
        case .pushRemoveDevice(let token):
            path = Self.pushPath(sub, token) + "/remove"
            query.append(("type", "apns"))
        }
        query.append(("pnsdk", Self.sdkName))
        query.append(("uuid", PercentEncoding.escape(context.uuid)))
        if !context.authKey.isEmpty {
            query.append(("auth", PercentEncoding.escape(context.authKey)))
        }
        if !context.secretKey.isEmpty {
            query.append(("timestamp", String(timestamp)))
            query.append(("signature", Self.signature(method, path, query, body, context)))
        }
        // Appended as bytes into one buffer sized up front (every request is built here).
        var text: [UInt8] = []
        text.reserveCapacity(query.reduce(path.utf8.count) { $0 + $1.0.utf8.count + $1.1.utf8.count + 2 })
        text.append(contentsOf: path.utf8)
        for (index, (name, value)) in query.enumerated() {
            text.append(UInt8(ascii: index == 0 ? "?" : "&"))
            text.append(contentsOf: name.utf8)
            text.append(UInt8(ascii: "="))
            text.append(contentsOf: value.utf8)
        }
        return (method, String(decoding: text, as: UTF8.self), body)
    }

    /// The full request, or `nil` when the origin does not form a valid URL (a misconfiguration the caller
    /// reports as an error).
    func request(in context: EndpointContext, timeout: TimeInterval) -> TransportRequest? {
        let target = self.target(in: context)
        guard
            let text = RequestURLText.make(
                secure: context.secure,
                origin: context.origin,
                pathAndQuery: target.pathAndQuery
            )
        else { return nil }
        return TransportRequest(
            method: target.method,
            acceptedURLText: text,
            body: target.body,
            timeout: timeout,
            relaxedCertificateValidation: context.secure && context.relaxedCertificateValidation,
            trust: context.secure ? context.trust : TLSTrust()
        )
    }

    /// The current time in Unix seconds, the `timestamp` of a signed request.
    static func currentTimestamp() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970))
    }

    /// The v2 request signature over the request as sent (docs/PROTOCOL.md §2.13.3): current SDKs sign GET and
    /// POST alike this way (the body is part of what is signed). 3.4.2 computed a publish signature and sent `0`.
    private static func signature(
        _ method: String,
        _ path: String,
        _ query: [(String, String)],
        _ body: Data?,
        _ context: EndpointContext
    ) -> String {
        var parameters: [String: String] = [:]
        for (name, value) in query { parameters[name] = PercentEncoding.unescape(value) }
        let signature = RequestSignature.v2Signature(
            secretKey: context.secretKey,
            method: method,
            publishKey: context.publishKey,
            path: path,
            parameters: parameters,
            body: body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        )
        return PercentEncoding.escape(signature)
    }

    /// Device tokens go on the wire as uppercase hex, as 3.4.2's `HEXPushToken` wrote them.
    static func hexToken(_ token: Data) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        out.reserveCapacity(token.count * 2)
        for byte in token {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return out
    }

    private static func pushPath(_ sub: String, _ token: Data) -> String {
        "/v1/push/sub-key/\(sub)/devices/\(Self.hexToken(token))"
    }
}
