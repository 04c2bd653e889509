import Foundation

/// A snapshot of what a local origin has done since it started. Values only grow, except `parkedPolls` and
/// `channels`, which are the current numbers.
public struct OriginCounters: Sendable, Equatable {
    /// HTTP requests handed to the origin (every endpoint, errors included).
    public var requests = 0
    /// Publish requests that succeeded.
    public var publishes = 0
    /// Messages written to history (publishes without `store=0`; presence events are not stored).
    public var messagesStored = 0
    /// Messages and presence events handed out in subscribe answers, counted once per answer that carried them.
    public var deliveries = 0
    /// Subscribe long-polls parked right now, waiting for a message or their timeout.
    public var parkedPolls = 0
    /// Long-polls answered empty because their timeout passed.
    public var expiredPolls = 0
    /// Presence events (join, leave, timeout, state-change) published on `-pnpres` channels.
    public var presenceEvents = 0
    /// Channels the origin keeps state for right now (messages, presence or state; `-pnpres` ones included).
    public var channels = 0

    /// All zero.
    public init() {}
}

/// One answered request, as recorded in the origin's request log and passed to request observers.
public struct RequestLogEntry: Sendable, Equatable {
    /// When the request was answered (or dropped), by the origin's clock.
    public var date: Date
    /// The HTTP method, e.g. `GET`.
    public var method: String
    /// The raw request-target as received, still percent-encoded; past 2 KiB cut and ended with `…`.
    public var target: String
    /// The HTTP status sent; 0 when the connection closed before a parked long-poll was answered.
    public var status: Int

    /// Creates an entry.
    public init(date: Date, method: String, target: String, status: Int) {
        self.date = date
        self.method = method
        self.target = target
        self.status = status
    }

    /// Query parameters whose values are credentials: redacted by `redactedTarget`.
    static let secretParameters: Set<Substring> = ["auth", "signature"]

    /// `target` for logs and screens: the value of every `auth` and `signature` parameter replaced by `set` and, for
    /// a long value, its last characters (`auth=set(…c0de)`: 4 of 16 or more, 2 of 8 to 15), so a log shows that a
    /// request carried a credential and which one, without the credential. Parameters are found as the origin finds
    /// them: after `&` or any `?` (3.4.2's push requests append `?auth=`).
    public var redactedTarget: String {
        guard let mark = self.target.firstIndex(of: "?") else { return self.target }
        var result = String(self.target[...mark])
        var rest = self.target[self.target.index(after: mark)...]
        while !rest.isEmpty {
            let end = rest.firstIndex { $0 == "&" || $0 == "?" } ?? rest.endIndex
            let pair = rest[..<end]
            if let equals = pair.firstIndex(of: "="), Self.secretParameters.contains(pair[..<equals]) {
                let value = pair[pair.index(after: equals)...]
                let shown = value.count >= 16 ? 4 : value.count >= 8 ? 2 : 0
                result += pair[...equals] + (value.isEmpty ? "" : shown == 0 ? "set" : "set(…\(value.suffix(shown)))")
            } else {
                result += pair
            }
            guard end < rest.endIndex else { break }
            result.append(rest[end])
            rest = rest[rest.index(after: end)...]
        }
        return result
    }
}
