import Foundation

/// A misbehaviour a `LocalOrigin` can be told to show (see `LocalOrigin.inject(_:on:count:)`), so a client's
/// handling of bad networks and bad servers can be tested over real sockets.
///
/// Which faults reach the PubNub logic: `delay`, `closeMidResponse` and `stallSubscribe` (on release) hand the
/// request to the origin, which acts on it (a publish is stored); every other request-level fault answers in its
/// place, as a balancer, proxy or captive portal in front of the origin would, and the origin never sees the request
/// (it is not in `requestLog` or `counters`).
public enum OriginFault: Sendable, Equatable, CustomStringConvertible {
    /// Where `closeMidResponse` cuts the origin's answer.
    public enum CutPoint: String, Sendable, Equatable, CaseIterable {
        /// Half of the status line (`HTTP/1.1 2`), no line end.
        case statusLine = "status"
        /// The whole status line and half of the header block, without the blank line that ends it.
        case headers
        /// The whole head (with its `Content-Length`) and less than the full body (half of it, rounded down).
        case body
    }

    /// Closes the listening socket: new connections are refused (the client's `connect` fails with ECONNREFUSED)
    /// until the fault is cleared. With `dropExisting`, every open connection is also closed at once without an
    /// answer; without it, open keep-alive connections go on working. Connection-level: needs scope `.all` and no
    /// count.
    case refuseConnections(dropExisting: Bool)
    /// Accepts the request and never answers it. The request is held until the fault is cleared — then its
    /// connection is closed without an answer, like a black hole that lost it; the origin never sees it — or until
    /// the client closes the connection. Later requests pipelined on that connection wait behind it.
    case neverAnswer
    /// Hands the request to the origin at once and holds the origin's answer until at least this many seconds
    /// (0…86,400) after the request arrived. A long-poll parked longer than that is answered as soon as it is
    /// ready. Clearing the fault does not hurry answers already delayed.
    case delay(TimeInterval)
    /// Hands the request to the origin; when it answers, sends only the part of that answer up to `CutPoint` and
    /// closes the connection.
    case closeMidResponse(CutPoint)
    /// Answers with a 5xx status (500…599) and the JSON body
    /// `{"status":S,"error":true,"message":"<reason>","service":"Balancer"}` (docs/PROTOCOL.md §2.14), JSONP-wrapped
    /// when the request names a callback.
    case serverError(status: Int)
    /// Answers 403 with the Access Manager body of docs/PROTOCOL.md §2.13.1,
    /// `{"message":"Forbidden","payload":{"channels":[…]},"error":true,"service":"Access Manager","status":403}`,
    /// listing the channels the request names (and `"channel-groups"` when it names groups), JSONP-wrapped when the
    /// request names a callback.
    case accessDenied
    /// Answers 200 with JSON cut short: `[[{"truncated":` (after `callback(` when the request names a callback, with
    /// no closing parenthesis).
    case malformedJSON
    /// Answers 200 with bytes that are not UTF-8: `["`, `C3 28 A0 A1 FF FE`, `"]` (inside `callback(…)` when the
    /// request names a callback).
    case nonUTF8
    /// Answers 200 with `Content-Type: text/html; charset=utf-8` and a captive-portal sign-in page, whatever the
    /// request (never JSONP).
    case htmlPage
    /// Holds subscribe requests (and only those, whatever the scope) for this many seconds (0…86,400), or forever
    /// when `nil`, then hands them to the origin, which answers from its state at that moment (a cursor request is
    /// never answered with stale data). Clearing the fault releases the held requests to the origin at once.
    case stallSubscribe(TimeInterval?)

    /// The longest delay or stall accepted, one day.
    public static let maximumSeconds: TimeInterval = 86_400

    /// The fault in the command-line grammar of `OriginFaultSpec`, e.g. `503`, `delay=2.5`, `cut=body`.
    public var description: String {
        switch self {
        case .refuseConnections(let dropExisting): return dropExisting ? "refuse-drop" : "refuse"
        case .neverAnswer: return "never"
        case .delay(let seconds): return "delay=\(OriginFault.format(seconds))"
        case .closeMidResponse(let point): return "cut=\(point.rawValue)"
        case .serverError(let status): return String(status)
        case .accessDenied: return "403"
        case .malformedJSON: return "malformed"
        case .nonUTF8: return "non-utf8"
        case .htmlPage: return "html"
        case .stallSubscribe(let seconds): return seconds.map { "stall=\(OriginFault.format($0))" } ?? "stall"
        }
    }

    /// True for `refuseConnections`, which acts on the listening socket rather than on requests.
    var isConnectionLevel: Bool {
        if case .refuseConnections = self { return true }
        return false
    }

    /// Checks the fault's values and how it is scoped; returns why they are not accepted, or `nil`.
    func problem(scope: OriginFaultScope, count: Int?) -> String? {
        if let count, count < 1 { return "count must be at least 1" }
        if let problem = scope.problem { return problem }
        switch self {
        case .refuseConnections:
            if scope != .all || count != nil { return "refuse acts on connections: it takes no scope and no count" }
        case .delay(let seconds):
            if !OriginFault.acceptable(seconds) { return "delay must be 0…86400 seconds" }
        case .stallSubscribe(let seconds):
            if let seconds, !OriginFault.acceptable(seconds) { return "stall must be 0…86400 seconds" }
        case .serverError(let status):
            if !(500...599).contains(status) { return "a server error status must be 500…599" }
        case .neverAnswer, .closeMidResponse, .accessDenied, .malformedJSON, .nonUTF8, .htmlPage:
            break
        }
        return nil
    }

    private static func acceptable(_ seconds: TimeInterval) -> Bool {
        seconds.isFinite && seconds >= 0 && seconds <= OriginFault.maximumSeconds
    }

    /// `2`, `2.5`: seconds without a trailing `.0`.
    static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
