import PlatformSupport

// The bookkeeping of URLSession's server-trust challenges, kept out of the platform file so Linux tests cover it: a
// task that must be judged by the package (relaxed, own anchors, pins) is registered before it starts; its challenge
// asks for the answer; a refusal is kept until the task completes, so the task reports the refusal instead of the
// cancellation URLSession reports for a refused challenge.

/// The tasks of one URLSession whose server trust the package judges, and their refusals.
final class TrustChallenges: Sendable {
    /// How a server-trust challenge is answered.
    enum Answer: Equatable, Sendable {
        /// Not a task the package judges: URLSession's own evaluation (with App Transport Security's checks).
        case platformDefault
        /// The package accepted the server: use the server's trust as the credential.
        case accept
        /// The package refused the server: cancel the challenge (the task then reports the kept refusal).
        case refuse
    }

    private struct Entry {
        var evaluation: TrustEvaluation
        var refusal: TransportFailure?
    }

    private let entries = Locked<[Int: Entry]>([:])

    /// Registers the task `taskIdentifier` to be judged by `evaluation`; call before the task is resumed, so its
    /// challenge finds it.
    func register(_ taskIdentifier: Int, _ evaluation: TrustEvaluation) {
        self.entries.withLock { $0[taskIdentifier] = Entry(evaluation: evaluation) }
    }

    /// The answer to the server-trust challenge of `taskIdentifier`: `judge` carries out the task's evaluation on
    /// the server's trust (its failure is kept for `finish`). Called on the session's delegate queue; `judge` runs
    /// outside the lock.
    func answer(_ taskIdentifier: Int, judge: (TrustEvaluation) -> TransportFailure?) -> Answer {
        guard let evaluation = self.entries.withLock({ $0[taskIdentifier]?.evaluation }) else {
            return .platformDefault
        }
        guard let refusal = judge(evaluation) else { return .accept }
        self.entries.withLock { $0[taskIdentifier]?.refusal = refusal }
        return .refuse
    }

    /// Forgets `taskIdentifier` once it completed; returns the refusal its challenge got, if any, which is the
    /// task's real outcome (URLSession reports a refused challenge as a cancellation).
    @discardableResult
    func finish(_ taskIdentifier: Int) -> TransportFailure? {
        self.entries.withLock { $0.removeValue(forKey: taskIdentifier)?.refusal }
    }

    /// Tasks registered and not finished, for tests.
    var count: Int { self.entries.withLock { $0.count } }
}
