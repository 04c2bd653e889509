// The client-level connection state machine of docs/BEHAVIOR.md §2 with emulated reachability (docs/BEHAVIOR.md §2.2,
// docs/DESIGN.md A5). Pure: no I/O, clocks or queues. `ClientEngine` feeds it inputs and carries out the `Action`s it
// returns, in order. Over HTTP there are no sockets to open, so "opening both sockets" is one Time request (the connect
// attempt, 10 s timeout, up to 3 retries 2 s apart, docs/BEHAVIOR.md §2.8).
//
// The machine also holds the `ConnectionWork` — the operation that carries the current connect, restore or hard reset
// — without looking into it: it decides when that work starts and ends, and hands it back in the action that ends it,
// so the engine keeps no bookkeeping of its own about it.

struct ConnectionStateMachine: Equatable {
    private(set) var state: State = .created
    private(set) var reachability: Reachability = .unknown
    /// A connect was asked for while the network was down (T4) or unknown (T3); it starts on the next good probe.
    private(set) var connectWhenReachable = false
    /// The current connect restores the previous subscription (reconnect after a loss, hard reset).
    private(set) var restoring = false
    /// Failed connect attempts of the current connect (docs/BEHAVIOR.md §2.8: 3 retries before reporting).
    private(set) var failedAttempts = 0
    /// The operation carrying the current connect, hard reset or restore; it holds the operation lock until the
    /// machine hands it back.
    private(set) var work: ConnectionWork?

    static let maximumConnectRetries = 3
    static let connectRetryDelay = 2.0

    /// Whether reachability probing continues after a probe: while connected (dead-uplink detection), while
    /// waiting for the network, and while a connect waits for the origin.
    var keepsProbing: Bool {
        switch self.state {
        case .connected, .disconnectedOnNetworkError:
            return true
        case .created, .disconnected:
            return self.connectWhenReachable
        case .connecting, .disconnecting, .disconnectingOnConfigurationChange, .disconnectingOnNetworkError, .reset:
            return false
        }
    }

    /// `isConnected()`: true only in Connected.
    var isConnected: Bool { self.state == .connected }

    /// A connect attempt is due or running (a retry timer or an attempt that outlived its connect finds otherwise).
    var isConnecting: Bool { self.state == .connecting }

    /// Waiting for the network after a loss (DisconnectedOnNetworkError): a probe may bring the client back.
    var waitsForNetwork: Bool { self.state == .disconnectedOnNetworkError }

    /// Whether a best-effort request (leave) may go out: connected, and the origin not known to be gone.
    var allowsBestEffortRequests: Bool { self.isConnected && self.reachability != .notReachable }

    /// A restore that asked the delegate (asynchronously) still goes ahead: connected, and its work not ended
    /// meanwhile (by a disconnect, a network loss or a reset).
    var restoreStillWanted: Bool { self.isConnected && self.work != nil }

    /// Whether a user `disconnect` ends the connect in progress at once instead of waiting behind it: a connect
    /// carried by an operation whose first attempt already failed would otherwise hold the queue for up to 46 s of
    /// retries (docs/BEHAVIOR.md §2.6).
    var disconnectCutsConnectShort: Bool {
        self.state == .connecting && self.failedAttempts > 0 && self.work != nil
    }

    /// Gate G of docs/BEHAVIOR.md §1.3: whether result events reach the delegate and notifications.
    var gateIsOpen: Bool {
        switch self.state {
        case .connected, .disconnectingOnConfigurationChange, .disconnectingOnNetworkError,
            .disconnectedOnNetworkError:
            return true
        case .created, .connecting, .disconnecting, .disconnected, .reset:
            return false
        }
    }

    /// The pre-flight code of a request made now (docs/API-3.4.md §3.3): nil when it may run, 104 when the network is
    /// not known to be reachable, 105 otherwise.
    var preflightErrorCode: Int? {
        if self.state == .connected { return nil }
        return self.reachability == .reachable ? 105 : 104
    }

    // MARK: - Inputs

    /// `connect` was called (with a valid configuration), carried by `work`. The machine holds `work` for
    /// `.probeFirst` and `.startConnecting`; for the other decisions the caller finishes it.
    mutating func connectRequested(carrying work: ConnectionWork) -> ConnectDecision {
        switch self.state {
        case .connected, .connecting, .disconnectingOnConfigurationChange:
            return .alreadyConnected
        case .created, .disconnected, .disconnectedOnNetworkError, .disconnecting, .disconnectingOnNetworkError,
            .reset:
            break
        }
        switch self.reachability {
        case .unknown:
            self.connectWhenReachable = true
            self.work = work
            return .probeFirst
        case .notReachable:
            self.connectWhenReachable = true
            return .noNetwork
        case .reachable:
            self.startConnecting(restoring: false)
            self.work = work
            return .startConnecting
        }
    }

    /// The automatic connect submitted by `.submitAutomaticConnect` got the operation lock. Returns false (the
    /// caller finishes `work`) when there is no connect to carry any more.
    mutating func automaticConnectStarting(carrying work: ConnectionWork) -> Bool {
        guard self.state == .connecting, self.work == nil else { return false }
        self.work = work
        return true
    }

    /// A reachability probe answered. Returns what follows from the new status.
    mutating func probeFinished(reachable: Bool) -> [Action] {
        self.reachability = reachable ? .reachable : .notReachable
        if !reachable {
            if self.state == .connected {
                return self.networkLost()
            }
            switch self.state {
            case .created, .disconnected, .disconnectedOnNetworkError:
                if let work = self.work {
                    // T3 → T4: the first probe of a connect found no network.
                    self.work = nil
                    return [.deferConnect(work), .scheduleProbe]
                }
            case .connecting, .connected, .disconnecting, .disconnectingOnConfigurationChange,
                .disconnectingOnNetworkError, .reset:
                break
            }
            return [.scheduleProbe]
        }
        switch self.state {
        case .created, .disconnected:
            if self.connectWhenReachable {
                self.startConnecting(restoring: false)
                return [self.connectAction]
            }
            return []
        case .disconnectedOnNetworkError:
            return [.askReconnect]
        case .connected, .connecting, .disconnecting, .disconnectingOnConfigurationChange,
            .disconnectingOnNetworkError, .reset:
            return []
        }
    }

    /// The engine's answer to `.askReconnect` (delegate `shouldReconnectPubNubClient:` or configuration).
    mutating func reconnectDecided(_ allowed: Bool) -> [Action] {
        guard self.state == .disconnectedOnNetworkError else { return [] }
        if allowed {
            self.startConnecting(restoring: true)
            return [self.connectAction]
        }
        // T13: no automatic recovery; a later `connect` starts from an empty subscription list.
        self.state = .disconnected
        if self.connectWhenReachable {
            // The app called `connect` while waiting (T4 answered it 102): that connect goes ahead now (T5), as a
            // fresh one; refusing the automatic reconnect must not swallow the app's own request.
            self.startConnecting(restoring: false)
            return [self.connectAction]
        }
        return []
    }

    /// The connect attempt (Time request) answered. `retryable` false reports a failure at once (a TLS failure
    /// past the fallback ladder will not go away by retrying).
    mutating func connectAttemptFinished(success: Bool, networkClass: Bool, retryable: Bool = true) -> [Action] {
        guard self.state == .connecting else { return [] }
        if success {
            self.state = .connected
            self.reachability = .reachable
            self.failedAttempts = 0
            self.connectWhenReachable = false
            if self.restoring {
                self.restoring = false
                return [.connectedRestoring]
            }
            return [.connected(self.takeWork())]
        }
        self.failedAttempts += 1
        if retryable && self.failedAttempts <= Self.maximumConnectRetries {
            return [.retryConnectAttempt(delay: Self.connectRetryDelay)]
        }
        if networkClass { self.reachability = .notReachable }
        let wasRestoring = self.restoring
        self.restoring = false
        self.failedAttempts = 0
        let work = self.takeWork()
        if wasRestoring {
            // A reconnect after a loss that cannot reach the origin: stay waiting for the network (T8).
            self.state = .disconnectedOnNetworkError
            return [.connectFailed(networkClass: networkClass, clearsSubscription: false, work), .scheduleProbe]
        }
        self.state = .disconnected
        self.connectWhenReachable = false
        return [.connectFailed(networkClass: networkClass, clearsSubscription: true, work), .scheduleProbe]
    }

    /// The held work ended outside the machine's own transitions — the restore after a reconnect, hard reset or
    /// forced reconnect ended (restored, declined, nothing to restore, or failed), or the work was aborted by a
    /// network loss or a user disconnect: hands it back to finish, if it is still held.
    mutating func workEnded() -> ConnectionWork? {
        self.takeWork()
    }

    /// A network-class failure while Connected (T10), or a probe that found the origin gone.
    mutating func networkLost() -> [Action] {
        self.reachability = .notReachable
        guard self.state == .connected else { return [] }
        self.state = .disconnectingOnNetworkError
        return [.beginNetworkLoss]
    }

    /// In-flight work has been failed and the loop suspended (T11).
    mutating func networkLossFinished() -> [Action] {
        guard self.state == .disconnectingOnNetworkError else { return [] }
        self.state = .disconnectedOnNetworkError
        return [.finishNetworkLoss, .scheduleProbe]
    }

    /// User `disconnect` (T9). `tearDown` is false when there was nothing to disconnect (no events are due);
    /// `work` is the connect work it ends (its failure block gets nil; the caller finishes it).
    mutating func disconnectRequested() -> (tearDown: Bool, work: ConnectionWork?) {
        self.connectWhenReachable = false
        self.restoring = false
        self.failedAttempts = 0
        let work = self.takeWork()
        switch self.state {
        case .connected, .connecting, .disconnectedOnNetworkError, .disconnectingOnNetworkError,
            .disconnectingOnConfigurationChange:
            self.state = .disconnecting
            return (true, work)
        case .created, .disconnected, .disconnecting, .reset:
            return (false, work)
        }
    }

    /// The user disconnect has torn everything down.
    mutating func disconnectFinished() {
        if self.state == .disconnecting { self.state = .disconnected }
    }

    /// A new configuration different from the applied one; `reconnectNeeded` when it cannot be applied to a live
    /// connection (another origin, keys, TLS settings; docs/BEHAVIOR.md §2.9).
    mutating func configurationChanged(reconnectNeeded: Bool) -> ConfigurationDecision {
        switch self.state {
        case .connected:
            return reconnectNeeded ? .hardReset : .applyInPlace
        case .connecting:
            return self.work != nil ? .restartConnectAttempt : .store
        case .created, .disconnecting, .disconnectingOnConfigurationChange, .disconnectingOnNetworkError,
            .disconnected, .disconnectedOnNetworkError, .reset:
            self.configurationReplaced()
            return .store
        }
    }

    /// The hard reset operation got the lock, carried by `work` (T15): Connected → DisconnectingOnConfigurationChange.
    /// Returns false when the client is no longer connected: the new configuration is then simply stored (the
    /// caller stores it and finishes `work`).
    mutating func hardResetStarting(carrying work: ConnectionWork) -> Bool {
        guard self.state == .connected else {
            self.configurationReplaced()
            return false
        }
        self.state = .disconnectingOnConfigurationChange
        self.work = work
        return true
    }

    /// Hard reset, after its 1 s pause: Created → Connecting, restoring the previous channels.
    mutating func hardResetReconnect() -> [Action] {
        guard self.state == .disconnectingOnConfigurationChange else { return [] }
        self.startConnecting(restoring: true)
        return [self.connectAction]
    }

    /// A forced reconnect (the async overlay's `forceReconnect`) restores the subscription while connected,
    /// carried by `work` until `workEnded`.
    mutating func restoreStarting(carrying work: ConnectionWork) {
        self.work = work
    }

    /// A new configuration was stored while not connected. Reachability is emulated (docs/DESIGN.md A5, docs/API-3.4.md
    /// §4.6): the new origin is assumed available until a connect attempt or a probe fails, so calls made before
    /// `connect` fail with 105, not 104 (docs/DESIGN.md A3).
    mutating func configurationReplaced() {
        if self.state == .created || self.state == .disconnected {
            self.reachability = .reachable
        }
    }

    /// `resetClient` or the client's release (T17): hands back the work, if any, whose failure block the engine
    /// completes with 105 before it stops.
    mutating func resetRequested() -> ConnectionWork? {
        self.state = .reset
        self.connectWhenReachable = false
        self.restoring = false
        return self.takeWork()
    }

    /// The action that starts the connect now in Connecting: the held work carries it, else an automatic connect.
    private var connectAction: Action {
        self.work != nil ? .beginConnectAttempt : .submitAutomaticConnect
    }

    private mutating func takeWork() -> ConnectionWork? {
        defer { self.work = nil }
        return self.work
    }

    private mutating func startConnecting(restoring: Bool) {
        self.state = .connecting
        self.restoring = restoring
        self.failedAttempts = 0
        self.connectWhenReachable = false
    }
}
