import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

/// Requests as the client sent them, in send order, with their answers once they come. LocalOrigin logs a request
/// only when it answers it (a parked long-poll much later); scenarios about the order and tokens of subscribe
/// requests need the client's side of the wire.
final class TrafficLog: @unchecked Sendable {
    // @unchecked: the only mutable state is `items`, a `Locked` box.

    struct Request: Sendable, CustomStringConvertible {
        let lane: String
        /// Path and query as sent (still percent-escaped).
        let target: String
        /// The HTTP status, nil until answered (and for failures).
        var status: Int?
        var body: String?
        /// The transport failure, when it failed (cancelled included).
        var failure: TransportFailure?

        var description: String { "\(self.lane) \(self.target) → \(self.status.map(String.init) ?? "-")" }

        /// The value of query parameter `name`, still percent-escaped.
        func parameter(_ name: String) -> String? {
            Self.parameter(name, inTarget: self.target[...])
        }

        /// The value of query parameter `name` in `target` (a path and query as sent), still percent-escaped.
        static func parameter(_ name: String, inTarget target: Substring) -> String? {
            guard let query = target.split(separator: "?", maxSplits: 1).last, target.contains("?") else {
                return nil
            }
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
            }
            return nil
        }

        /// True for v2 subscribe requests.
        var isSubscribe: Bool { self.target.hasPrefix("/v2/subscribe/") }
        var isLeave: Bool { self.target.contains("/leave") }
        /// The subscribe `tt`, as a number.
        var timetoken: UInt64? { self.parameter("tt").flatMap { UInt64($0) } }
        /// The channels of a subscribe or leave, unescaped.
        var channels: [String] {
            let path = String(self.target.split(separator: "?").first ?? "")
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let raw: String?
            if self.isSubscribe {
                raw = segments.count > 4 ? segments[4] : nil
            } else if self.isLeave, let index = segments.firstIndex(of: "channel") {
                raw = segments.count > index + 1 ? segments[index + 1] : nil
            } else {
                raw = nil
            }
            return (raw?.removingPercentEncoding ?? "").split(separator: ",").map(String.init)
        }
        /// The `t.t` cursor of a v2 subscribe answer.
        var answeredTimetoken: UInt64? {
            guard let body, let data = body.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let cursor = object["t"] as? [String: Any], let token = cursor["t"] as? String
            else { return nil }
            return UInt64(token)
        }
    }

    private let items = Locked<[Request]>([])

    var requests: [Request] { self.items.current }
    var subscribes: [Request] { self.requests.filter(\.isSubscribe) }
    var count: Int { self.requests.count }

    func sent(lane: String, url: URL) -> Int {
        let text = url.absoluteString
        var target = text
        if let scheme = text.range(of: "://"), let slash = text[scheme.upperBound...].firstIndex(of: "/") {
            target = String(text[slash...])
        }
        return self.items.withLock { items in
            items.append(Request(lane: lane, target: target))
            return items.count - 1
        }
    }

    func ended(_ index: Int, _ result: Result<TransportResponse, TransportFailure>) {
        self.items.withLock { items in
            switch result {
            case .success(let response):
                items[index].status = response.status
                items[index].body = String(decoding: response.body, as: UTF8.self)
            case .failure(let failure):
                items[index].failure = failure
            }
        }
    }

    /// Requests sent from index `start` on.
    func since(_ start: Int) -> [Request] { Array(self.requests.dropFirst(start)) }

    /// Requests sent from index `start` on, without the reachability probe: a connected client sends `/time/0`
    /// every 10 s on its own (docs/BEHAVIOR.md §2.2), so on a loaded machine one can land in any window a test watches.
    func callsSince(_ start: Int) -> [Request] { self.since(start).filter { !$0.target.hasPrefix("/time/0") } }

    /// Waits until `count` requests from `start` on satisfy `match`; returns them.
    @discardableResult
    func wait(
        for count: Int = 1,
        from start: Int = 0,
        within seconds: Double = 10,
        _ what: String,
        where match: @escaping (Request) -> Bool
    ) async throws -> [Request] {
        var found: [Request] = []
        try await eventually("\(count)× \(what); seen: \(self.requests.map(\.description))", within: seconds) {
            found = self.since(start).filter(match)
            return found.count >= count
        }
        return found
    }
}

/// An `HTTPTransport` that hands every request to `inner` and records it, and its outcome, in a `TrafficLog`.
final class TapTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let lane: String
    private let log: TrafficLog

    init(_ inner: any HTTPTransport, lane: String, log: TrafficLog) {
        self.inner = inner
        self.lane = lane
        self.log = log
    }

    /// The two lanes a client gets by default (`RoutingTransport`: the socket transport, TLS with OpenSSL), each
    /// tapped into `log`.
    static func lanes(log: TrafficLog) -> (service: TapTransport, longPoll: TapTransport) {
        (
            TapTransport(RoutingTransport(maximumConnections: 4, label: "service"), lane: "service", log: log),
            TapTransport(
                RoutingTransport(maximumConnections: 2, label: "long-poll", reusesConnections: false),
                lane: "long-poll",
                log: log
            )
        )
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        let index = self.log.sent(lane: self.lane, url: request.url)
        return self.inner.send(request) { [log = self.log] result in
            log.ended(index, result)
            completion(result)
        }
    }

    func invalidate() {
        self.inner.invalidate()
    }

    var canRelaxCertificateValidation: Bool { self.inner.canRelaxCertificateValidation }

    var chainsRequests: Bool { self.inner.chainsRequests }
}
