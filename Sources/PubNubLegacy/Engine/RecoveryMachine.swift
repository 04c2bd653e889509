// The decisions of emulated reachability around the subscribe loop (docs/BEHAVIOR.md §2.2, §3.8): whether a probe is
// sent now or one is already on its way, and what a probe that found the origin answers for — the loop's transport
// check (retry the same cursor) and the loop's recovery (restore once connected). No I/O, clocks or queues: the
// engine sends the probes, owns the probe timer and carries out the returned actions in order.

/// See the file comment.
struct RecoveryMachine: Equatable {
    /// What the engine does next.
    enum Action: Equatable {
        /// Send a reachability probe now.
        case sendProbe
        /// Probe at the next tick of the probe timer (unless one is already due).
        case scheduleProbe
        /// Tell the loop the origin still answers (`SubscribeLoop.connectionChecked`).
        case loopConnectionChecked
        /// Restore the loop's channels (`SubscribeLoop.restore`).
        case restoreLoop
    }

    /// A probe was sent and has not concluded.
    private(set) var probeInFlight = false
    /// The loop asked for a check of the origin after a transport failure.
    private(set) var loopCheckPending = false
    /// The loop failed for an unknown reason and waits for a good probe while connected to restore.
    private(set) var recoveryPending = false

    /// Something wants the origin probed now (a failed request, a connect on unknown reachability).
    mutating func probeWanted() -> [Action] {
        guard !self.probeInFlight else { return [] }
        self.probeInFlight = true
        return [.sendProbe]
    }

    /// The probe in flight concluded (answered, failed or timed out); `probeAnswered` follows once the connection
    /// machine has taken the answer.
    mutating func probeConcluded() {
        self.probeInFlight = false
    }

    /// The loop saw a transport failure: probe now (when a probe can be sent: `canProbe`, settings applied), then
    /// let it retry.
    mutating func loopNeedsCheck(canProbe: Bool) -> [Action] {
        self.loopCheckPending = true
        return canProbe ? self.probeWanted() : []
    }

    /// The loop failed for an unknown reason: probe every interval, restore after the first success.
    mutating func loopNeedsRecovery() -> [Action] {
        self.recoveryPending = true
        return [.scheduleProbe]
    }

    /// A probe concluded and the connection machine has taken its answer: a good one answers a pending loop
    /// check. Then ask `recoveryDue(connected:)`: the loop's answer to the check may itself start a recovery.
    mutating func probeAnswered(reachable: Bool) -> [Action] {
        guard reachable, self.loopCheckPending else { return [] }
        self.loopCheckPending = false
        return [.loopConnectionChecked]
    }

    /// After a good probe: a pending recovery restores the loop once the client is connected.
    mutating func recoveryDue(connected: Bool) -> [Action] {
        guard self.recoveryPending, connected else { return [] }
        self.recoveryPending = false
        return [.restoreLoop]
    }

    /// The connection went away (network loss, user disconnect): the loop's check and recovery no longer apply.
    mutating func connectionDropped() {
        self.loopCheckPending = false
        self.recoveryPending = false
    }
}
