// Every answer of the origin: a status and a JSON body, JSONP-wrapped when the request named a callback other than
// `0` (docs/PROTOCOL.md §1.3) — errors too, because 3.4.2 finds a response's owner only through the callback name.

/// A status and JSON body, not yet wrapped or framed.
struct OriginReply: Sendable {
    /// The HTTP status.
    var status: Int
    /// The JSON body; never empty (docs/PROTOCOL.md §1.2).
    var body: JSONValue

    /// The headers every answer carries (the HTTP layer adds `Content-Length` and `Connection`).
    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/javascript; charset=\"UTF-8\""),
        ("Cache-Control", "no-cache"),
        ("Access-Control-Allow-Origin", "*"),
    ]

    /// The HTTP response, as `callback(body)` when `callback` is present, non-empty and not `0`.
    func httpResponse(callback: String?) -> HTTPResponse {
        var bytes = self.body.serializedBytes
        if let callback, !callback.isEmpty, callback != "0" {
            bytes = Array(callback.utf8) + [UInt8(ascii: "(")] + bytes + [UInt8(ascii: ")")]
        }
        return HTTPResponse(status: self.status, headers: OriginReply.headers, body: bytes)
    }

    // MARK: - Common bodies

    /// `{"status":S,"error":true,"message":M,"service":X}`, the error shape of docs/PROTOCOL.md §2.14.
    static func error(_ status: Int, _ message: String, service: String) -> OriginReply {
        OriginReply(
            status: status,
            body: .object([
                "status": .int(status), "error": .bool(true), "message": .string(message), "service": .string(service),
            ])
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
            ])
        )
    }

    /// 503 once the origin is stopping.
    static let unavailable = OriginReply.error(503, "Service Unavailable", service: "Balancer")

    /// 400 for an unknown subscribe key when key sets are configured (docs/PROTOCOL.md §2.14).
    static let invalidSubscribeKey = OriginReply(
        status: 400,
        body: .object([
            "message": .string("Invalid Subscribe Key"), "error": .bool(true), "service": .string("Access Manager"),
            "status": .int(400),
        ])
    )

    /// A publish status array `[0|1, "text", "tt"]` (timetoken as a string, docs/PROTOCOL.md §1.7).
    static func publishStatus(_ status: Int, _ text: String, _ timetoken: UInt64) -> OriginReply {
        OriginReply(
            status: status,
            body: .array([.int(status == 200 ? 1 : 0), .string(text), .string(String(timetoken))])
        )
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
