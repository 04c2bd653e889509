import PlatformSupport
import PubNubLegacy

/// The bridge from one 3.4 completion block to one `async` call: resumes its continuation exactly once — with the
/// block's outcome, or with `CancellationError` when the calling task is cancelled first, whichever comes first.
/// The later of the two is ignored, so the 3.4 block still runs (once, as the engine guarantees) after a
/// cancellation and finds nothing to resume — also for a call withdrawn before its turn, whose block the engine runs
/// alone with a 105 error.
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        /// Created; no continuation yet.
        case idle
        case waiting(CheckedContinuation<Value, any Error>)
        /// The task was cancelled before the continuation was installed.
        case cancelledEarly
        case resumed
    }

    private let state = Locked(State.idle)

    /// Installs `continuation`. False when the task was already cancelled: the continuation has been resumed with
    /// `CancellationError` and the call must not start.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let proceed = self.state.withLock { state -> Bool in
            guard case .idle = state else {
                state = .resumed
                return false
            }
            state = .waiting(continuation)
            return true
        }
        if !proceed {
            continuation.resume(throwing: CancellationError())
        }
        return proceed
    }

    /// Resumes with `result` unless already resumed.
    func resume(_ result: Result<Value, any Error>) {
        let continuation = self.state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waiting(let continuation):
                state = .resumed
                return continuation
            case .idle:
                // The block cannot run before the call started, and the call starts after `install`.
                preconditionFailure("a 3.4 block completed a call that was never started")
            case .cancelledEarly, .resumed:
                return nil
            }
        }
        continuation?.resume(with: result)
    }

    /// The calling task was cancelled: resume with `CancellationError` now (or at `install`).
    func cancel() {
        let continuation = self.state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .idle:
                state = .cancelledEarly
                return nil
            case .waiting(let continuation):
                state = .resumed
                return continuation
            case .cancelledEarly, .resumed:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// Runs `start` with a fresh one-shot inside a cancellable continuation: `start` calls the 3.4 API with a block
    /// that resumes the one-shot. A task cancelled before the call throws `CancellationError` without starting it;
    /// one cancelled while the call waits for its turn withdraws it from the client's queue (`CallTicket`), so it
    /// never runs.
    static func run(_ start: (OneShot<Value>) -> Void) async throws -> Value {
        let shot = OneShot<Value>()
        let ticket = CallTicket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if shot.install(continuation) {
                    ticket.scope { start(shot) }
                }
            }
        } onCancel: {
            shot.cancel()
            ticket.withdraw()
        }
    }
}
