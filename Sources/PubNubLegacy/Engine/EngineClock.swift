import Foundation
import PlatformSupport

// The engine's clock seam: every timer of `ClientEngine` and `SubscribeLoop` (probe, probe timeout, connect attempt
// and its retries, heartbeat, hard-reset delay, long-poll handshake/settle/deadline/idle restart, operation timeouts)
// is scheduled through one `EngineClock`, and every interval it uses comes from one `EngineTimings` given when the
// client is made. Production runs on `DispatchClock`; tests may pass a clock they advance by hand.

/// Schedules the engine's timers.
protocol EngineClock: Sendable {
    /// Seconds on this clock since an arbitrary origin; any thread may read it. What a facade call notes when it is
    /// made, so that its request's timeout counts from the call (docs/BEHAVIOR.md §1.2).
    var now: TimeInterval { get }

    /// Runs `work` on `queue` once `delay` seconds have passed on this clock, unless the returned timer was cancelled
    /// by then. Timers due at the same moment run in the order they were scheduled. Called on `queue`.
    @discardableResult
    func schedule(after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping () -> Void) -> any EngineTimer
}

/// A scheduled timer of an `EngineClock`. `cancel()` (on the timer's queue) keeps the work from running and releases
/// what it captured.
protocol EngineTimer: AnyObject {
    func cancel()
}

extension ScheduledTimer: EngineTimer {}

/// The wall clock: one `TimerQueue` for the engine's queue (a dispatch timer source and a heap of pending work), so a
/// cancelled timer — every finished request's timeout — releases what it captured at once, not at its deadline.
final class DispatchClock: EngineClock, @unchecked Sendable {
    // @unchecked: `timers` is a lock box; the `TimerQueue` in it is used only on its own queue.
    private let timers = Locked<TimerQueue?>(nil)

    /// The uptime clock the `TimerQueue` schedules on, in seconds.
    var now: TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    @discardableResult
    func schedule(after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping () -> Void) -> any EngineTimer {
        let timers = self.timers.withLock { timers in
            if let existing = timers { return existing }
            let made = TimerQueue(queue: queue)
            timers = made
            return made
        }
        precondition(timers.queue === queue, "a DispatchClock serves the one queue of its engine")
        return timers.schedule(after: delay, work)
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
