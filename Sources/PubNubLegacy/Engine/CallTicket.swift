import PlatformSupport

/// Lets the `PubNubAsync` overlay withdraw a 3.4 call it made whose task was cancelled before the call's turn came.
///
/// The overlay makes the call inside `scope(_:)`; the operations that call queues belong to the ticket. `withdraw()`
/// takes those that have not started out of the queue: they never start, the 3.4 listeners never hear of them, and
/// their completion block runs once, alone, on the delivery queue (with a 105 error the overlay ignores, since its
/// caller already got `CancellationError`). An operation that already started runs to its end. Any thread may call
/// every member.
package final class CallTicket: Sendable {
    /// The ticket of the call being made on this thread (the facade reads it when it hands the call to its queue).
    static let current = ThreadLocal<CallTicket>()

    private struct State {
        var withdrawn = false
        weak var engine: ClientEngine?
        var operations: [Int] = []
    }

    private let state = Locked(State())

    package init() {}

    /// Makes the 3.4 call `call`: the operations it queues belong to this ticket. Calls made on other threads
    /// meanwhile do not.
    package func scope<Result>(_ call: () throws -> Result) rethrows -> Result {
        try Self.current.withValue(self, call)
    }

    /// Withdraws this ticket's operations that are still waiting, and the ones it would queue from now on.
    package func withdraw() {
        let (engine, operations) = self.state.withLock { state in
            state.withdrawn = true
            return (state.engine, state.operations)
        }
        guard let engine, !operations.isEmpty else { return }
        engine.queue.async {
            for id in operations {
                engine.withdraw(id, refusing: PNError(code: kPNRequestExecutionFailedClientNotReadyError))
            }
        }
    }

    /// Records that `engine` queued operation `id` for this ticket's call; false when the ticket was withdrawn
    /// already (the operation must not be queued). Called on the engine's queue.
    func admit(_ id: Int, on engine: ClientEngine) -> Bool {
        self.state.withLock { state in
            guard !state.withdrawn else { return false }
            state.engine = engine
            state.operations.append(id)
            return true
        }
    }
}
