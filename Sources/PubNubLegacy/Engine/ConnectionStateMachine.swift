// The client-level connection state machine of docs/BEHAVIOR.md §2 with emulated reachability (docs/BEHAVIOR.md §2.2,
// docs/DESIGN.md A5). Pure: no I/O, clocks or queues. `ClientEngine` feeds it inputs and carries out the `Action`s it
// returns, in order. Over HTTP there are no sockets to open, so "opening both sockets" is one Time request (the connect
// attempt, 10 s timeout, up to 3 retries 2 s apart, docs/BEHAVIOR.md §2.8).

struct ConnectionStateMachine: Equatable {
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
        /// T2: 101 (connection-failed event and block, as 3.4.2), the connection untouched.
        case alreadyConnected
        /// T3: probe first, then decide again with `probeFinished`.
        case probeFirst
        /// T4: block-only 102; the client connects on its own once a probe succeeds.
        case noNetwork
        /// T5: will-connect, then the connect attempt.
        case startConnecting
    }

    /// Side effects, in the order the engine must perform them.
    enum Action: Equatable {
        /// Emit `willConnectToOrigin:` and send a connect attempt (Time request).
        case beginConnectAttempt
        /// Send another connect attempt after `delay` seconds.
        case retryConnectAttempt(delay: Double)
        /// The connect attempt succeeded: emit did-connect, then restore if `restoring`.
        case connected(restoring: Bool)
        /// The attempt failed for good (T7/T8): emit connection-failed; `networkClass` selects 102.
        case connectFailed(networkClass: Bool)
        /// T10: emit will-disconnect (103), fail in-flight requests with 104, suspend the subscribe loop.
        case beginNetworkLoss
        /// T11: emit did-disconnect-with-error (103).
        case finishNetworkLoss
        /// Ask the delegate / configuration whether to reconnect automatically (answer: `reconnectDecided`).
        case askReconnect
        /// Start probing every 10 s (while Unknown / NotReachable or after a loss).
        case scheduleProbe
    }

    private(set) var state: State = .created
    private(set) var reachability: Reachability = .unknown
    /// A connect was asked for while the network was down (T4) or unknown (T3); it starts on the next good probe.
    private(set) var connectWhenReachable = false
    /// The current connect restores the previous subscription (reconnect after a loss, hard reset).
    private(set) var restoring = false
    /// Failed connect attempts of the current connect (docs/BEHAVIOR.md §2.8: 3 retries before reporting).
    private(set) var failedAttempts = 0

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

    /// `connect` was called (with a valid configuration).
    mutating func connectRequested() -> ConnectDecision {
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
            return .probeFirst
        case .notReachable:
            self.connectWhenReachable = true
            return .noNetwork
        case .reachable:
            self.startConnecting(restoring: false)
            return .startConnecting
        }
    }

    /// A reachability probe answered. Returns what follows from the new status.
    mutating func probeFinished(reachable: Bool) -> [Action] {
        self.reachability = reachable ? .reachable : .notReachable
        if !reachable {
            if self.state == .connected {
                return self.networkLost()
            }
            return [.scheduleProbe]
        }
        switch self.state {
        case .created, .disconnected:
            if self.connectWhenReachable {
                self.startConnecting(restoring: false)
                return [.beginConnectAttempt]
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
            return [.beginConnectAttempt]
        }
        // T13: no automatic recovery; a later `connect` starts from an empty subscription list.
        self.state = .disconnected
        if self.connectWhenReachable {
            // The app called `connect` while waiting (T4 answered it 102): that connect goes ahead now (T5), as a
            // fresh one; refusing the automatic reconnect must not swallow the app's own request.
            self.startConnecting(restoring: false)
            return [.beginConnectAttempt]
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
            let restoring = self.restoring
            self.restoring = false
            return [.connected(restoring: restoring)]
        }
        self.failedAttempts += 1
        if retryable && self.failedAttempts <= Self.maximumConnectRetries {
            return [.retryConnectAttempt(delay: Self.connectRetryDelay)]
        }
        if networkClass { self.reachability = .notReachable }
        let wasRestoring = self.restoring
        self.restoring = false
        self.failedAttempts = 0
        if wasRestoring {
            // A reconnect after a loss that cannot reach the origin: stay waiting for the network (T8).
            self.state = .disconnectedOnNetworkError
            return [.connectFailed(networkClass: networkClass), .scheduleProbe]
        }
        self.state = .disconnected
        self.connectWhenReachable = false
        return [.connectFailed(networkClass: networkClass), .scheduleProbe]
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

    /// User `disconnect` (T9). Returns false when there was nothing to disconnect (no events are due).
    mutating func disconnectRequested() -> Bool {
        self.connectWhenReachable = false
        self.restoring = false
        self.failedAttempts = 0
        switch self.state {
        case .connected, .connecting, .disconnectedOnNetworkError, .disconnectingOnNetworkError,
            .disconnectingOnConfigurationChange:
            self.state = .disconnecting
            return true
        case .created, .disconnected, .disconnecting, .reset:
            return false
        }
    }

    /// The user disconnect has torn everything down.
    mutating func disconnectFinished() {
        if self.state == .disconnecting { self.state = .disconnected }
    }

    /// Hard reset (T15): Connected → DisconnectingOnConfigurationChange.
    mutating func hardResetStarted() {
        self.state = .disconnectingOnConfigurationChange
    }

    /// Hard reset, after its 1 s pause: Created → Connecting, restoring the previous channels.
    mutating func hardResetReconnect() -> [Action] {
        guard self.state == .disconnectingOnConfigurationChange else { return [] }
        self.startConnecting(restoring: true)
        return [.beginConnectAttempt]
    }

    /// A new configuration was stored while not connected. Reachability is emulated (docs/DESIGN.md A5, docs/API-3.4.md
    /// §4.6): the new origin is assumed available until a connect attempt or a probe fails, so calls made before
    /// `connect` fail with 105, not 104 (docs/DESIGN.md A3).
    mutating func configurationReplaced() {
        if self.state == .created || self.state == .disconnected {
            self.reachability = .reachable
        }
    }

    /// `resetClient` (T17).
    mutating func resetRequested() {
        self.state = .reset
        self.connectWhenReachable = false
        self.restoring = false
    }

    private mutating func startConnecting(restoring: Bool) {
        self.state = .connecting
        self.restoring = restoring
        self.failedAttempts = 0
        self.connectWhenReachable = false
    }
}
