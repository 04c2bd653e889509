// Every answer of the origin: a status and a JSON body, JSONP-wrapped when the request named a callback other than
// `0` (docs/PROTOCOL.md §1.3) — errors too, because 3.4.2 finds a response's owner only through the callback name.

/// Which part of the service answers a request: its answers carry that part's headers (docs/PROTOCOL.md §1.2).
enum OriginService: Sendable, Equatable {
    case time, subscribe, presence, storage, push, channelRegistry
    /// Publish: the service names the request's method as the one allowed.
    case publish(method: String)
    /// The service's front end: unknown paths and the errors it answers before any service sees the request.
    case edge

    /// `Access-Control-Allow-Methods` as each part of the service sends it (recorded 2024–2025; time and presence
    /// were last recorded 2016–2021).
    var allowedMethods: String {
        switch self {
        case .time, .subscribe, .edge: return "GET"
        case .publish(let method): return method
        case .presence: return "OPTIONS, GET, POST"
        case .storage, .push, .channelRegistry: return "GET, POST, DELETE, OPTIONS"
        }
    }
}

/// A status and JSON body, not yet wrapped or framed.
struct OriginReply: Sendable {
    /// The HTTP status.
    var status: Int
    /// The JSON body; never empty (docs/PROTOCOL.md §1.2).
    var body: JSONValue
    /// True for the errors the service's front end answers (the Access Manager and Balancer shapes): they carry
    /// `Cache-Control: no-cache, no-store, must-revalidate` and an unquoted charset.
    var isEdgeError = false

    /// The headers the service sends with every answer of `service`, as recorded (the HTTP layer adds
    /// `Content-Length` and `Connection`): the channel registry answers `application/json`, everything else
    /// `text/javascript`; front-end errors are not to be cached at all. `Access-Control-Allow-Origin: *` is
    /// LocalOrigin's own (the service now names the page's origin, or nothing when the request has no `Origin`), so
    /// that a browser app works against it.
    static func headers(for service: OriginService, edgeError: Bool, jsonp: Bool) -> [(name: String, value: String)] {
        guard let kind = OriginReply.kinds.firstIndex(of: service) else {
            return OriginReply.buildHeaders(for: service, edgeError: edgeError, jsonp: jsonp)
        }
        return OriginReply.madeHeaders[kind * 4 + (edgeError ? 2 : 0) + (jsonp ? 1 : 0)]
    }

    /// The services whose header lists are made once (every answer of theirs shares one): all but a publish with a
    /// method other than GET or POST (answered 405 anyway).
    private static let kinds: [OriginService] = [
        .publish(method: "GET"), .subscribe, .time, .presence, .storage, .push, .channelRegistry, .edge,
        .publish(method: "POST"),
    ]

    /// `buildHeaders` for each of `kinds`, with and without `edgeError` and `jsonp` (index `kind * 4 + edge * 2 +
    /// jsonp`).
    private static let madeHeaders: [[(name: String, value: String)]] = (0..<(4 * OriginReply.kinds.count)).map {
        OriginReply.buildHeaders(for: OriginReply.kinds[$0 / 4], edgeError: $0 & 2 != 0, jsonp: $0 & 1 != 0)
    }

    /// The headers of `headers(for:edgeError:jsonp:)`, made anew.
    static func buildHeaders(
        for service: OriginService,
        edgeError: Bool,
        jsonp: Bool
    ) -> [(name: String, value: String)] {
        let type: String
        if edgeError {
            type = "text/javascript; charset=UTF-8"
        } else if service == .channelRegistry, !jsonp {
            type = "application/json"
        } else {
            type = "text/javascript; charset=\"UTF-8\""
        }
        return [
            ("Content-Type", type),
            ("Cache-Control", edgeError ? "no-cache, no-store, must-revalidate" : "no-cache"),
            ("Access-Control-Allow-Origin", "*"),
            ("Access-Control-Allow-Methods", (edgeError ? OriginService.edge : service).allowedMethods),
            ("Access-Control-Allow-Credentials", "true"),
            ("Access-Control-Expose-Headers", "*"),
        ]
    }

    /// The headers of an answer no particular service gives (the fault injector's malformed answers).
    static var headers: [(name: String, value: String)] {
        OriginReply.headers(for: .edge, edgeError: false, jsonp: false)
    }

    /// The HTTP response, as `callback(body)` when `callback` is present, non-empty and not `0`, with the headers of
    /// `service`.
    func httpResponse(callback: String?, service: OriginService = .edge) -> HTTPResponse {
        var bytes = self.body.serializedBytes
        let jsonp = callback.map { !$0.isEmpty && $0 != "0" } ?? false
        if let callback, jsonp {
            bytes = Array(callback.utf8) + [UInt8(ascii: "(")] + bytes + [UInt8(ascii: ")")]
        }
        let headers = OriginReply.headers(for: service, edgeError: self.isEdgeError, jsonp: jsonp)
        return HTTPResponse(status: self.status, headers: headers, body: bytes)
    }

    // MARK: - Common bodies

    /// `{"status":S,"error":true,"message":M,"service":X}`, the error shape of docs/PROTOCOL.md §2.14.
    static func error(_ status: Int, _ message: String, service: String) -> OriginReply {
        OriginReply(
            status: status,
            body: .object([
                "status": .int(status), "error": .bool(true), "message": .string(message), "service": .string(service),
            ]),
            isEdgeError: service == "Balancer"
        )
    }

    /// 404 for a path the origin does not serve (EDGE CASE 1).
    static let notFound = OriginReply.error(404, "Not Found", service: "Balancer")

    /// 405 for a method other than GET (or POST where a body is meaningful).
    static let methodNotAllowed = OriginReply.error(405, "Method Not Allowed", service: "Balancer")

    /// 400 for a request whose path, query or body is not UTF-8 once percent-decoded.
    static let invalidUTF8 = OriginReply.error(400, "Invalid UTF-8", service: "Balancer")

    /// 403 for a request without a valid signature when the origin has a secret key (the Access Manager shape the
    /// service answers a wrong signature with).
    static let signatureMismatch = OriginReply.accessManager(403, "Signature does not match")

    /// 403 for a signed request whose `timestamp` is missing, not a number, or outside the accepted window.
    static let invalidTimestamp = OriginReply.accessManager(403, "Invalid timestamp")

    /// `{"message":M,"error":true,"service":"Access Manager","status":S}`.
    static func accessManager(_ status: Int, _ message: String) -> OriginReply {
        OriginReply(
            status: status,
            body: .object([
                "message": .string(message), "error": .bool(true), "service": .string("Access Manager"),
                "status": .int(status),
            ]),
            isEdgeError: true
        )
    }

    /// 503 once the origin is stopping.
    static let unavailable = OriginReply.error(503, "Service Unavailable", service: "Balancer")

    /// 400 for an unknown subscribe key when key sets are configured (docs/PROTOCOL.md §2.14).
    static let invalidSubscribeKey = OriginReply.accessManager(400, "Invalid Subscribe Key")

    /// A publish status array `[0|1, "text", "tt"]` (timetoken as a string, docs/PROTOCOL.md §1.7).
    static func publishStatus(_ status: Int, _ text: String, _ timetoken: UInt64) -> OriginReply {
        // Written as bytes (every publish is answered so): the array `.array([.int(…), .string(text),
        // .string(String(timetoken))])` would serialize to (OriginReplyTests compare the two).
        var body: [UInt8] = []
        body.reserveCapacity(32 + text.utf8.count)
        body.append(contentsOf: (status == 200 ? "[1," : "[0,").utf8)
        JSONValue.writeString(text, into: &body)
        body.append(contentsOf: #",""#.utf8)
        HTTPResponse.appendDecimal(timetoken, to: &body)
        body.append(contentsOf: #""]"#.utf8)
        return OriginReply(status: status, body: .written(body))
    }

    /// A Presence-service answer: `{"status":200,"message":"OK",…extra…,"service":"Presence"}`.
    static func presenceOK(_ extra: [JSONMember] = []) -> OriginReply {
        var members = [JSONMember(key: "status", value: .int(200)), JSONMember(key: "message", value: .string("OK"))]
        members += extra
        members.append(JSONMember(key: "service", value: .string("Presence")))
        return OriginReply(status: 200, body: .object(members))
    }

    /// A Presence-service error with `"error": 1`, the shape PubNub's presence service uses (docs/PROTOCOL.md §2.9).
    static func presenceError(_ status: Int, _ message: String) -> OriginReply {
        OriginReply(
            status: status,
            body: .object([
                "status": .int(status), "error": .int(1), "message": .string(message), "service": .string("Presence"),
            ])
        )
    }
}
