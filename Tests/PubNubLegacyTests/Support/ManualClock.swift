import Foundation
import PlatformSupport

@testable import PubNubLegacy

/// A clock for the engine's timers that only moves when the test advances it: a timer scheduled now for `delay`
/// seconds runs during the first `advance` that reaches its deadline, on the queue it was scheduled for, in deadline
/// order (timers due at the same moment in the order they were scheduled). Work a timer schedules while the clock
/// advances runs in the same `advance` if its deadline is reached too.
///
/// Call `advance` from the test, never from the engine queue (it waits for each timer to run there).
final class ManualClock: EngineClock, @unchecked Sendable {
    // @unchecked: `state` is a lock box; a timer's work is only performed on its queue.

    /// A timer of this clock; `cancel()` keeps its work from running and drops it.
    final class Item: EngineTimer, @unchecked Sendable {
        // @unchecked: `work` is a lock box.
        private let work: Locked<(() -> Void)?>

        init(_ work: @escaping () -> Void) {
            self.work = Locked(work)
        }

        var isCancelled: Bool { self.work.withLock { $0 == nil } }

        func cancel() {
            self.work.withLock { $0 = nil }
        }

        /// Runs the work unless cancelled; at most once.
        func perform() {
            let work = self.work.withLock { work -> (() -> Void)? in
                defer { work = nil }
                return work
            }
            work?()
        }
    }

    private struct Timer {
        var deadline: TimeInterval
        var order: Int
        var item: Item
        var queue: DispatchQueue
    }

    private struct State {
        var now: TimeInterval = 0
        var nextOrder = 0
        var timers: [Timer] = []
    }

    private let state = Locked(State())

    /// Seconds this clock has advanced since it was made.
    var now: TimeInterval { self.state.withLock { $0.now } }

    /// Deadlines (seconds from now) of the timers scheduled and not cancelled, soonest first.
    var pendingDelays: [TimeInterval] {
        self.state.withLock { state in
            state.timers.filter { !$0.item.isCancelled }.map { $0.deadline - state.now }.sorted()
        }
    }

    @discardableResult
    func schedule(after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping () -> Void) -> any EngineTimer {
        let item = Item(work)
        self.state.withLock { state in
            state.nextOrder += 1
            state.timers.append(
                Timer(deadline: state.now + max(0, delay), order: state.nextOrder, item: item, queue: queue)
            )
        }
        return item
    }

    /// Moves the clock `seconds` forward, running every timer that falls due on the way.
    func advance(by seconds: TimeInterval) {
        let target = self.now + seconds
        while let timer = self.takeNextDue(until: target) {
            timer.queue.sync {
                timer.item.perform()
            }
        }
        self.state.withLock { $0.now = max($0.now, target) }
    }

    private func takeNextDue(until target: TimeInterval) -> Timer? {
        self.state.withLock { state in
            state.timers.removeAll { $0.item.isCancelled }
            guard
                let index = state.timers.indices.filter({ state.timers[$0].deadline <= target })
                    .min(by: {
                        (state.timers[$0].deadline, state.timers[$0].order) < (
                            state.timers[$1].deadline, state.timers[$1].order
                        )
                    })
            else { return nil }
            let timer = state.timers.remove(at: index)
            state.now = max(state.now, timer.deadline)
            return timer
        }
    }
}
