import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

/// A stand-in for the PubNub service that answers a client with recorded answers (Tests/Recordings/README.md), over
/// real HTTP on 127.0.0.1: `/time/0` with `[17000000000000000]`, a subscribe handshake with a fixed cursor, the
/// first long-poll after it with the recorded subscribe answer (later polls wait until the service stops), a leave
/// with the recorded leave answer or the service's usual one, and the request of the call under test with the
/// recorded status, `Content-Type` and body.
final class RecordedService: @unchecked Sendable {
    // @unchecked: the recorded answers are `let`s; `RawHTTPServer` is thread-safe.

    /// The cursor of the handshake; the long-poll that follows it gets the recorded subscribe answer.
    static let handshakeCursor: UInt64 = 17_000_000_000_000_001
    /// The subscribe key the client is configured with, standing for `{sub}`.
    static let subscribeKey = "sub-c-replay"

    private let exchange: RecordedExchange?
    private var server: RawHTTPServer!
    private let received = Locked<[String]>([])

    /// Starts serving `exchange`'s answer to the request of its endpoint (nil: only time, handshake and leave).
    init(answering exchange: RecordedExchange?) throws {
        self.exchange = exchange
        self.server = try RawHTTPServer { [unowned self] request in self.reply(to: request) }
    }

    /// `127.0.0.1:PORT`.
    var origin: String { "127.0.0.1:\(self.server.port)" }

    func stop() { self.server.stop() }

    /// The targets of the requests the client sent, in order.
    var targets: [String] { self.received.withLock { $0 } }

    private func reply(to request: RawHTTPServer.Request) -> RawHTTPServer.Reply {
        let target = request.target
        self.received.withLock { $0.append(target) }
        if target.hasPrefix("/time/") {
            if let exchange, exchange.endpoint == "time" { return Self.answer(exchange) }
            return Self.answer(status: 200, type: "text/javascript", body: "[17000000000000000]")
        }
        if target.hasPrefix("/v2/subscribe/") {
            let cursor = RawHTTPServer.subscribeCursor(request)
            if cursor == 0 {
                let body = #"{"t":{"t":"\#(Self.handshakeCursor)","r":1},"m":[]}"#
                return Self.answer(status: 200, type: "text/javascript", body: body)
            }
            if cursor == Self.handshakeCursor, let exchange, exchange.endpoint == "subscribe" {
                return Self.answer(exchange)
            }
            self.server.hold(seconds: 60)
            return .hangUp
        }
        if target.contains("/leave?") {
            if let exchange, exchange.endpoint == "leave" { return Self.answer(exchange) }
            let body = #"{"status": 200, "action": "leave", "message": "OK", "service": "Presence"}"#
            return Self.answer(status: 200, type: "text/javascript", body: body)
        }
        if let exchange { return Self.answer(exchange) }
        return .hangUp
    }

    /// The recorded answer, `{sub}` replaced by the client's subscribe key.
    static func answer(_ exchange: RecordedExchange) -> RawHTTPServer.Reply {
        Self.answer(
            status: exchange.status,
            type: exchange.headers["content-type"] ?? "text/javascript",
            body: exchange.answer.replacingOccurrences(of: "{sub}", with: Self.subscribeKey)
        )
    }

    private static func answer(status: Int, type: String, body: String) -> RawHTTPServer.Reply {
        let reason = status == 200 ? "OK" : status == 403 ? "Forbidden" : "Bad Request"
        let text = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        return .send(text + body, close: false)
    }

    /// A client of the stand-in reporting to `recorder`, connected.
    func connectedClient(_ recorder: EventRecorder) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: self.origin, subscribeKey: Self.subscribeKey)
        // No replay is about the client's own timeouts: they are pushed past the tests' deadlines, as a whole-suite
        // run on two busy cores once kept a handshake's answer from the client for more than the default 10 s.
        configuration.subscriptionRequestTimeout = 60
        configuration.nonSubscriptionRequestTimeout = 60
        let client = PubNub(configuration: configuration, delegate: recorder, eventSinks: [recorder])
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        try await recorder.next(.block, "connect", within: 60)
        return client
    }
}

extension RecordedJSON {
    /// A payload the client decoded (Foundation objects), as a JSON value to compare with a recorded one.
    init?(decoded value: Any?) {
        guard let value, JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value]),
            case .array(let elements)? = try? JSONDecoder().decode(RecordedJSON.self, from: data),
            let first = elements.first
        else { return nil }
        self = first
    }
}
