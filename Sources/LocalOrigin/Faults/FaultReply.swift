// The answers faults send in the origin's place. Every body is non-empty (3.4.2 never delivers an empty one,
// docs/PROTOCOL.md §1.2) and, apart from the captive portal, JSONP-wrapped like the origin's own answers, so a 3.4
// client can match it to its request and has to judge its content.

/// Canned fault answers, built for one request.
enum FaultReply {
    /// The body of `OriginFault.malformedJSON` (before any JSONP prefix).
    static let truncatedJSON = Array(#"[[{"truncated":"#.utf8)

    /// The bytes of `OriginFault.nonUTF8` inside `["…"]`: a bad continuation, lone continuations, and two bytes
    /// that never occur in UTF-8.
    static let invalidUTF8: [UInt8] = [0xC3, 0x28, 0xA0, 0xA1, 0xFF, 0xFE]

    /// The captive-portal page of `OriginFault.htmlPage`.
    static let captivePortal = Array(
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>Sign in to the network</title></head>
        <body><h1>Welcome to the guest network</h1><p>Please <a href="/login">sign in</a> to continue.</p></body></html>

        """.utf8
    )

    /// The answer `fault` sends in place of the origin, or `nil` for faults that do not answer by themselves.
    static func response(for fault: OriginFault, target: FaultTarget) -> HTTPResponse? {
        switch fault {
        case .serverError(let status):
            let reason = HTTPResponse.reasonPhrase(for: status)
            return OriginReply.error(status, reason, service: "Balancer").httpResponse(callback: target.callback)
        case .accessDenied:
            return self.forbidden(target).httpResponse(callback: target.callback)
        case .malformedJSON:
            return HTTPResponse(
                status: 200,
                headers: OriginReply.headers,
                body: self.prefix(target.callback) + self.truncatedJSON
            )
        case .nonUTF8:
            let inner = Array(#"[""#.utf8) + self.invalidUTF8 + Array(#""]"#.utf8)
            let body = target.callback == nil ? inner : self.prefix(target.callback) + inner + [UInt8(ascii: ")")]
            return HTTPResponse(status: 200, headers: OriginReply.headers, body: body)
        case .htmlPage:
            return HTTPResponse(
                status: 200,
                headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                body: self.captivePortal
            )
        case .refuseConnections, .neverAnswer, .delay, .closeMidResponse, .stallSubscribe:
            return nil
        }
    }

    /// The Access Manager refusal of docs/PROTOCOL.md §2.13.1 for the channels and groups `target` names.
    static func forbidden(_ target: FaultTarget) -> OriginReply {
        var payload = [JSONMember(key: "channels", value: .array(target.channels.map { .string($0) }))]
        if !target.groups.isEmpty {
            payload.append(JSONMember(key: "channel-groups", value: .array(target.groups.map { .string($0) })))
        }
        return OriginReply(
            status: 403,
            body: .object([
                "message": .string("Forbidden"), "payload": .object(payload), "error": .bool(true),
                "service": .string("Access Manager"), "status": .int(403),
            ])
        )
    }

    private static func prefix(_ callback: String?) -> [UInt8] {
        guard let callback else { return [] }
        return Array(callback.utf8) + [UInt8(ascii: "(")]
    }

    /// The first bytes of `response` as the server would write them, up to `point` (never all of them).
    static func cut(_ response: HTTPResponse, at point: OriginFault.CutPoint) -> [UInt8] {
        var wire: [UInt8] = []
        response.write(to: &wire, keepAlive: true, includeBody: true)
        let lineEnd = self.index(of: [13, 10], in: wire) ?? wire.count
        let headEnd = self.index(of: [13, 10, 13, 10], in: wire) ?? wire.count
        let end: Int
        switch point {
        case .statusLine:
            end = max(1, lineEnd / 2)
        case .headers:
            let headersStart = min(lineEnd + 2, headEnd)
            end = headersStart + (headEnd - headersStart) / 2
        case .body:
            let bodyStart = min(headEnd + 4, wire.count)
            end = bodyStart + response.body.count / 2
        }
        return Array(wire[..<min(end, wire.count - 1)])
    }

    private static func index(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
