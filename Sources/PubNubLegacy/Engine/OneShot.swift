import Foundation

/// A completion that runs at most once: the first `fire(_:)` runs it, later calls do nothing. Used where an answer,
/// a timeout and a cancellation race to conclude one exchange (a reachability probe, a connect attempt, a leave).
/// Confined to one serial queue (the client queue for the engine's exchanges); it takes no lock.
final class OneShot<Input> {
    private var body: ((Input) -> Void)?
    private var timer: (any EngineTimer)?

    /// A shot that runs `body` on its first `fire(_:)`.
    init(_ body: @escaping (Input) -> Void) {
        self.body = body
    }

    /// True once the shot fired or was disarmed.
    var isSpent: Bool { self.body == nil }

    /// Runs the body with `input` if the shot is not spent yet, and cancels its timeout; returns whether it ran.
    @discardableResult
    func fire(_ input: Input) -> Bool {
        guard let body = self.body else { return false }
        self.body = nil
        self.timer?.cancel()
        self.timer = nil
        body(input)
        return true
    }

    /// Spends the shot without running the body (the exchange was replaced or abandoned) and cancels its timeout.
    func disarm() {
        self.body = nil
        self.timer?.cancel()
        self.timer = nil
    }

    /// Fires with `timedOut()` when `timer` runs, unless the shot is spent by then. `timedOut` runs only then (it may
    /// cancel the exchange the shot concludes). The timer must run on the shot's queue.
    func arm(_ timer: (@escaping () -> Void) -> any EngineTimer, timedOut: @escaping () -> Input) {
        guard !self.isSpent else { return }
        // The timer holds the shot until it runs or the shot is spent (which cancels it and drops what it captured).
        self.timer = timer {
            guard !self.isSpent else { return }
            self.fire(timedOut())
        }
    }
}

extension ClientEngine {
    /// A shot whose body runs once: on the first `fire(_:)`, or with `timedOut()` after `timeout` seconds, whichever
    /// comes first. Call on `queue`; fire it on `queue`.
    func oneShot<Input>(
        timeout: TimeInterval,
        timedOut: @escaping () -> Input,
        _ body: @escaping (Input) -> Void
    ) -> OneShot<Input> {
        let shot = OneShot(body)
        shot.arm({ self.schedule(after: timeout, $0) }, timedOut: timedOut)
        return shot
    }
}
