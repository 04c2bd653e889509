import Foundation

/// Why a `Monitor.wait(_:)` closure is being called.
package enum MonitorWake: Sendable, Equatable {
    /// The first call, before any wait.
    case first
    /// A wait returned before its deadline: a `signal()`, a `broadcast()` or a spurious wake-up. The state may or may
    /// not have changed; the closure looks at it again.
    case woken
    /// A `.waitUntil` wait reached its deadline. The state may still have changed meanwhile (a change made just
    /// before the deadline), so the closure decides what a timeout means for it.
    case timedOut
}

/// What a `Monitor.wait(_:)` closure decides, each time it is called under the lock.
package enum MonitorStep<Result> {
    /// Stop waiting: `wait` unlocks and returns `Result`.
    case done(Result)
    /// Release the lock and wait until woken (`signal()`, `broadcast()`, or spuriously), with no deadline.
    case wait
    /// Release the lock and wait until woken or until the date, whichever comes first. Any date is accepted: one
    /// past `Monitor.longestWait` is waited for in slices (the closure sees `.woken` in between), a NaN one times out.
    case waitUntil(Date)
}

/// A value guarded by a lock with a condition to wait on: `Locked` for state that threads also wait for (a worker
/// waiting for work, a thread waiting for a result, a latch).
///
/// Every read and write of the state happens in a closure run with the lock held (`withLock`, `wait`); those closures
/// must be short and must never call user code, post notifications or touch the network. Waiting is always a loop
/// decided by the caller's closure: it is called under the lock first with `.first`, and again after every wait with
/// whether that wait was woken or timed out, and returns `.done`, `.wait` or `.waitUntil`. So a signal given while
/// nobody waits is never lost (the closure sees the state it was about), and spurious wake-ups are just another
/// look at the state. `signal()` wakes one waiter, `broadcast()` every waiter; both may be called with or without
/// the lock held (from inside a `withLock` closure or after it). Any thread may call every member.
package final class Monitor<State>: @unchecked Sendable {
    // @unchecked: `state` is read and written only while `condition` is locked (in `withLock` and `wait` below).
    // `@usableFromInline` and `@inlinable`, as in `Locked`: the socket transports' worker pools sit on the client's hot
    // path in another module, which can then specialize these for its state types.
    // `@exclusivity(unchecked)`, as in `Locked`: the condition's lock already makes every access exclusive.
    @usableFromInline let condition = NSCondition()
    @exclusivity(unchecked) @usableFromInline var state: State

    @inlinable
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state and returns its result. Wakes nobody: call `signal()` or
    /// `broadcast()` after (or inside) a change a waiter is waiting for.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        self.condition.lock()
        defer { self.condition.unlock() }
        return try body(&self.state)
    }

    /// Blocks the calling thread until `body` returns `.done`, and returns its result.
    ///
    /// `body` runs with the lock held: first with `.first`, then after each wait it asked for, with `.woken` or
    /// `.timedOut`. A `.waitUntil` deadline is the closure's own each time, so a closure that returns the same date
    /// waits until that date overall, and one that computes a new date waits that long again after each wake. If
    /// `body` throws, the lock is released and the error propagates.
    @inlinable
    package func wait<Result>(_ body: (inout State, MonitorWake) throws -> MonitorStep<Result>) rethrows -> Result {
        self.condition.lock()
        defer { self.condition.unlock() }
        var wake = MonitorWake.first
        while true {
            switch try body(&self.state, wake) {
            case .done(let result):
                return result
            case .wait:
                self.condition.wait()
                wake = .woken
            case .waitUntil(let deadline):
                let remaining = deadline.timeIntervalSinceNow
                if remaining.isNaN {
                    // Not a moment in time: nothing to wait for.
                    wake = .timedOut
                } else if remaining > Self.longestWait {
                    // `NSCondition.wait(until:)` traps for a date whose nanoseconds since 1970 pass Int64 (after
                    // 2262; `Date.distantFuture` included): wait one slice, then let the closure look again.
                    _ = self.condition.wait(until: Date(timeIntervalSinceNow: Self.longestWait))
                    wake = .woken
                } else {
                    wake = self.condition.wait(until: deadline) ? .woken : .timedOut
                }
            }
        }
    }

    /// The longest single wait `wait(_:)` asks the condition for, in seconds (a day). A farther deadline — even
    /// `Date.distantFuture` or one computed from an infinite interval — is waited for in slices of this length: the
    /// closure is called again with `.woken` after each one, and gets `.timedOut` only at its own deadline. A NaN
    /// deadline times out at once.
    package static var longestWait: TimeInterval { 86_400 }

    /// Wakes one thread waiting in `wait(_:)`, if any (which one is unspecified).
    @inlinable
    package func signal() {
        self.condition.signal()
    }

    /// Wakes every thread waiting in `wait(_:)`.
    @inlinable
    package func broadcast() {
        self.condition.broadcast()
    }
}
