import Foundation
import Testing

@testable import LocalOrigin

/// A parsed answer of the origin.
struct Reply {
    var status: Int
    var headers: [(name: String, value: String)]
    /// The body as text, JSONP wrapper included.
    var text: String
    /// The JSON inside (JSONP unwrapped), parsed by Foundation, independently of the origin's own parser.
    var json: Any?

    init(_ response: HTTPResponse, callback: String? = nil) {
        self.status = response.status
        self.headers = response.headers
        self.text = String(decoding: response.body, as: UTF8.self)
        var inner = self.text
        if let callback, inner.hasPrefix(callback + "("), inner.hasSuffix(")") {
            inner = String(inner.dropFirst(callback.count + 1).dropLast())
        }
        self.json = try? JSONSerialization.jsonObject(with: Data(inner.utf8), options: [.fragmentsAllowed])
    }

    var array: [Any] { self.json as? [Any] ?? [] }
    var object: [String: Any] { self.json as? [String: Any] ?? [:] }
}

/// An `OriginHandler` on a manual clock with no automatic presence sweeps; requests are answered synchronously.
final class OriginHarness: Sendable {
    let handler: OriginHandler
    let clock: ManualClock

    init(_ configure: (inout OriginSettings) -> Void = { _ in }) {
        var settings = OriginSettings()
        settings.presenceSweepInterval = 0
        configure(&settings)
        let clock = ManualClock()
        self.clock = clock
        self.handler = OriginHandler(settings: settings, now: { clock.now })
    }

    func stop() { self.handler.stop() }

    /// Sends a request and returns its sink (answered or parked).
    @discardableResult
    func send(_ target: String, method: String = "GET", body: [UInt8] = []) -> FakeSink {
        let sink = FakeSink()
        self.handler.handle(HTTPRequest(method: method, target: target, body: body), sink: sink)
        return sink
    }

    /// Sends a request that must be answered at once and returns the answer (JSONP unwrapped with `callback`).
    @discardableResult
    func get(
        _ target: String,
        method: String = "GET",
        body: [UInt8] = [],
        callback: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Reply {
        let sink = self.send(target, method: method, body: body)
        guard let response = sink.response else {
            Issue.record("no immediate answer to \(target)", sourceLocation: sourceLocation)
            return Reply(HTTPResponse(status: 0, body: []))
        }
        return Reply(response, callback: callback)
    }

    /// Publishes `json` on `channel` through GET and returns the timetoken of the answer.
    @discardableResult
    func publish(
        _ json: String,
        on channel: String,
        query: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> UInt64 {
        let escaped = Self.escape(json)
        let reply = self.get(
            "/publish/pub/sub/0/\(Self.escape(channel))/0/\(escaped)\(query.isEmpty ? "" : "?" + query)",
            sourceLocation: sourceLocation
        )
        #expect(reply.status == 200, "publish failed: \(reply.text)", sourceLocation: sourceLocation)
        return UInt64(reply.array.last as? String ?? "") ?? 0
    }

    /// Percent-escapes everything but `A-Z a-z 0-9 - _ . ~` (Python SDK's rule, docs/PROTOCOL.md §1.5).
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Presence payloads delivered on `{channel}-pnpres` after `cursor`, as dictionaries; none when the poll parks
    /// (it is then abandoned).
    func presenceEvents(on channel: String, after cursor: String) -> [[String: Any]] {
        let poll = self.send("/v2/subscribe/sub/\(channel)-pnpres/0?tt=\(cursor)")
        guard let response = poll.response else {
            poll.close()
            return []
        }
        return (Reply(response).object["m"] as? [[String: Any]] ?? []).compactMap { $0["d"] as? [String: Any] }
    }
}
