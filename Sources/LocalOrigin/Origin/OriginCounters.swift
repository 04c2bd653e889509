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
}
