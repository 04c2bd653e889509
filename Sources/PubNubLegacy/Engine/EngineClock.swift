import Foundation

// The engine's clock seam: every timer of `ClientEngine` and `SubscribeLoop` (probe, probe timeout, connect attempt
// and its retries, heartbeat, hard-reset delay, long-poll handshake/settle/deadline/idle restart, operation timeouts)
// is scheduled through one `EngineClock`, and every interval it uses comes from one `EngineTimings` given when the
// client is made. Production runs on `DispatchClock`; tests may pass a clock they advance by hand.

/// Schedules the engine's timers.
protocol EngineClock: Sendable {
    /// Performs `item` on `queue` once `delay` seconds have passed on this clock, unless `item` was cancelled by
    /// then. Timers due at the same moment run in the order they were scheduled.
    func schedule(_ item: DispatchWorkItem, after delay: TimeInterval, on queue: DispatchQueue)
}

/// The wall clock: `queue.asyncAfter`.
struct DispatchClock: EngineClock {
    func schedule(_ item: DispatchWorkItem, after delay: TimeInterval, on queue: DispatchQueue) {
        queue.asyncAfter(deadline: .now() + delay, execute: item)
    }
}

/// The engine's fixed intervals, in seconds. `standard` holds the documented values; tests make clients with
/// shorter or longer ones instead of changing a running engine.
struct EngineTimings: Sendable, Equatable {
    /// Between reachability probes (docs/BEHAVIOR.md §2.2: 10).
    var probeInterval: TimeInterval = 10
    /// Before an unanswered probe counts as "not reachable" (docs/BEHAVIOR.md §2.2: 5).
    var probeTimeout: TimeInterval = 5
    /// Before one connect attempt is abandoned (docs/BEHAVIOR.md §2.8: 10).
    var connectAttemptTimeout: TimeInterval = 10
    /// Before a catch-up restore that got no answer counts as the running long-poll.
    var restoreSettleInterval: TimeInterval = 1
    /// Between the disconnect and the reconnect of a hard reset (a configuration change while connected).
    var hardResetDelay: TimeInterval = 1
    /// The idle restart of a stopped loop when no settings are applied (`subscribeMaximumIdleTime` otherwise).
    var idleTimeout: TimeInterval = 310

    /// The documented intervals.
    static let standard = EngineTimings()
}
