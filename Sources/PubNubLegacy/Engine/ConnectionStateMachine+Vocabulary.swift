// The vocabulary of `ConnectionStateMachine`: its states, decisions and actions, and the work it holds.

/// The operation that carries the current connect attempt: a user `connect` (with its blocks), an automatic
/// connect once the network is back, a reconnect after a loss, a hard reset, or a restore. Equal when it is the
/// same operation.
struct ConnectionWork: Equatable {
    var operation: EngineOperation
    var success: UserBlock<PNClientConnectionSuccessBlock>?
    var failure: UserBlock<PNClientConnectionFailureBlock>?

    init(
        operation: EngineOperation,
        success: UserBlock<PNClientConnectionSuccessBlock>? = nil,
        failure: UserBlock<PNClientConnectionFailureBlock>? = nil
    ) {
        self.operation = operation
        self.success = success
        self.failure = failure
    }

    static func == (lhs: ConnectionWork, rhs: ConnectionWork) -> Bool {
        lhs.operation === rhs.operation
    }
}

extension ConnectionStateMachine {
    /// docs/BEHAVIOR.md §2.1.
    enum State: Equatable {
        case created
        case connecting
        case connected
        case disconnecting
        case disconnectingOnConfigurationChange
        case disconnectingOnNetworkError
        case disconnected
        case disconnectedOnNetworkError
        case reset
    }

    /// The emulated reachability of the origin: Unknown until the first Time probe answers.
    enum Reachability: Equatable {
        case unknown
        case reachable
        case notReachable
    }

    /// What `connect` should do right now.
    enum ConnectDecision: Equatable {
        /// T2: 101 (connection-failed event and block, as 3.4.2), the connection untouched; the work ends.
        case alreadyConnected
        /// T3: probe first (the work is held), then decide again with `probeFinished`.
        case probeFirst
        /// T4: block-only 102, the work ends; the client connects on its own once a probe succeeds.
        case noNetwork
        /// T5: the work is held: will-connect, then the connect attempt.
        case startConnecting
    }

    /// What a new configuration (different from the applied one) does now (docs/BEHAVIOR.md §2.9).
    enum ConfigurationDecision: Equatable {
        /// Connected, and the change needs a new connection: the hard reset (an operation; `hardResetStarting`).
        case hardReset
        /// Connected: store it; the heartbeat restarts with the new interval.
        case applyInPlace
        /// T16: a connect attempt is running: store it, abort the attempt silently and start it again.
        case restartConnectAttempt
        /// Not connected (or an automatic connect waits for its turn and will read it): store it.
        case store
    }

    /// Side effects, in the order the engine must perform them.
    enum Action: Equatable {
        /// Emit `willConnectToOrigin:` and send a connect attempt (Time request), carried by the held work.
        case beginConnectAttempt
        /// No work carries the connect: an automatic connect takes the operation lock like a user call
        /// (docs/BEHAVIOR.md §1.2 queue jump) and reports `automaticConnectStarting` when its turn comes.
        case submitAutomaticConnect
        /// Send another connect attempt after `delay` seconds.
        case retryConnectAttempt(delay: Double)
        /// The connect attempt succeeded: emit did-connect (with the work's success block), then finish the work.
        case connected(ConnectionWork?)
        /// The connect attempt of a reconnect or hard reset succeeded: emit did-connect, then restore the
        /// subscription; the held work ends with the restore (`workEnded`).
        case connectedRestoring
        /// The attempt failed for good (T7/T8): emit connection-failed (with the work's failure block;
        /// `networkClass` selects 102), forget the subscription when `clearsSubscription`, finish the work.
        case connectFailed(networkClass: Bool, clearsSubscription: Bool, ConnectionWork?)
        /// T3 → T4: the probe a connect waited for found no network: block-only 102, finish the work; the client
        /// connects on its own once a probe succeeds.
        case deferConnect(ConnectionWork)
        /// T10: emit will-disconnect (103), fail in-flight requests with 104, suspend the subscribe loop.
        case beginNetworkLoss
        /// T11: emit did-disconnect-with-error (103).
        case finishNetworkLoss
        /// Ask the delegate / configuration whether to reconnect automatically (answer: `reconnectDecided`).
        case askReconnect
        /// Start probing every 10 s (while Unknown / NotReachable or after a loss).
        case scheduleProbe
    }
}
