import PlatformSupport

/// The second way deliveries reach the main thread, beside main-queue blocks: the main thread's run loop, as in
/// 3.4.2, whose callbacks came from run-loop sources of the main thread (docs/DESIGN.md §4).
///
/// A main-queue block that runs the run loop (`RunLoop.current.run(until:)`) blocks the main queue, so no other
/// main-queue block runs until it returns: a 3.x callback waiting for another callback would wait in vain. The run
/// loop still serves its sources and timers, and through them this drain. One per process, for every lane of the
/// main queue; the platform file says how the run loop is woken (`MainRunLoopDrain+Foundation.swift` on Linux,
/// `MainRunLoopDrain+CoreFoundation.swift` on Apple platforms).
final class MainRunLoopDrain: Sendable {
    static let shared = MainRunLoopDrain()

    private let state = Locked(State())

    private struct State {
        /// Lanes that asked for a drain since the run loop last ran one, in the order they asked. Held weakly: while
        /// the main thread never runs its run loop (`dispatchMain()`), a lane's request stays here for good, and a
        /// lane with jobs is kept alive by its queue's drain block anyway.
        var lanes: [WeakLane] = []
        /// The run loop has been woken and has not drained yet: further requests ride on that wake-up.
        var signalled = false
    }

    private struct WeakLane {
        weak var lane: DeliveryLane?
    }

    /// Asks the main run loop to drain `lane` (it asks at most once per drain). Any thread.
    func request(_ lane: DeliveryLane) {
        let signal = self.state.withLock { state in
            state.lanes.removeAll { $0.lane == nil }
            state.lanes.append(WeakLane(lane: lane))
            defer { state.signalled = true }
            return !state.signalled
        }
        if signal {
            Self.signalMainRunLoop()
        }
    }

    /// Drains every lane that asked; called by the platform's run-loop source or timer, on the main thread.
    func fire() {
        let lanes = self.state.withLock { state in
            state.signalled = false
            defer { state.lanes = [] }
            return state.lanes
        }
        for entry in lanes {
            entry.lane?.drainFromRunLoop()
        }
    }
}
