import Foundation

// Emulated reachability (docs/BEHAVIOR.md §2.2, docs/DESIGN.md A5): Time probes every 10 s, network loss and its
// recovery, and the presence heartbeat that runs while connected.

extension ClientEngine {
    // MARK: - Reachability probes

    /// Probes in 10 s unless a probe is already due.
    func scheduleProbe() {
        guard self.probeTimer == nil, !self.shutDown else { return }
        self.probeTimer = self.schedule(after: self.timings.probeInterval) {
            self.probeTimer = nil
            self.startProbe()
        }
    }

    /// Sends a Time probe now (5 s timeout) unless one is on its way; its answer drives the connection machine.
    func startProbe() {
        guard self.settings != nil else { return }
        self.performRecovery(self.recovery.probeWanted())
    }

    /// Carries out the recovery machine's actions in order.
    private func performRecovery(_ actions: [RecoveryMachine.Action]) {
        for action in actions {
            switch action {
            case .sendProbe:
                self.sendProbe()
            case .scheduleProbe:
                self.scheduleProbe()
            case .loopConnectionChecked:
                self.loop.connectionChecked()
            case .restoreLoop:
                self.loop.restore(catchUp: self.settings?.restoreSubscriptionFromLastTimeToken ?? true)
            }
        }
    }

    private func sendProbe() {
        var task: (any TransportTask)?
        let conclude = self.oneShot(
            timeout: self.timings.probeTimeout,
            timedOut: {
                self.lastProbeFailure = .timedOut
                task?.cancel()
                return false
            }
        ) { reachable in
            self.recovery.probeConcluded()
            self.probeFinished(reachable: reachable)
        }
        // A probe whose connection was lost without an answer is sent once more, within the same timeout: the pool
        // may have lent it a keep-alive connection the origin was closing at that moment (S-29: the origin closes
        // every connection and keeps listening), which says nothing about the origin. A refused or failed new
        // connection, another status or a timeout still counts as "not reachable" at once.
        func attempt(resendsLeft: Int) {
            task = self.send(.time, lane: self.serviceLane, timeout: self.timings.probeTimeout) { result in
                switch result {
                case .failure(.tls):
                    // The origin answered; only its TLS failed. The connect attempt reports (or downgrades) that.
                    conclude.fire(true)
                case .failure(.cancelled):
                    conclude.fire(false)
                case .failure(.network(let code, _))
                where code == URLLoading.Code.networkConnectionLost && resendsLeft > 0:
                    if !conclude.isSpent { attempt(resendsLeft: resendsLeft - 1) }
                case .failure(let failure):
                    self.lastProbeFailure = failure
                    conclude.fire(false)
                case .success(let response):
                    let answered = (try? ResponseParser.time(response).get()) != nil
                    self.lastProbeFailure = answered ? nil : Self.notATimeToken(response)
                    conclude.fire(answered)
                }
            }
        }
        attempt(resendsLeft: 1)
    }

    private func probeFinished(reachable: Bool) {
        PNLogger.log(.PNLogReachabilityLevel, self, "origin \(reachable ? "reachable" : "not reachable")")
        let actions = self.connection.probeFinished(reachable: reachable)
        self.perform(actions)
        self.performRecovery(self.recovery.probeAnswered(reachable: reachable))
        if reachable {
            self.performRecovery(self.recovery.recoveryDue(connected: self.connection.isConnected))
        }
        if self.connection.keepsProbing {
            self.scheduleProbe()
        }
    }

    /// A request failed at the transport level: check whether the origin is gone.
    func transportFailed(_ failure: TransportFailure) {
        switch failure {
        case .cancelled, .tls, .responseTooLarge:
            return
        case .timedOut, .network, .other:
            self.startProbe()
        }
    }

    /// The loop saw a transport failure: probe, then let it retry (or run the network-loss sequence).
    func checkConnectionForLoop() {
        self.performRecovery(self.recovery.loopNeedsCheck(canProbe: self.settings != nil))
    }

    /// The loop failed for an unknown reason: probe every 10 s, restore after the first success (docs/BEHAVIOR.md
    /// §3.8).
    func startLoopRecovery() {
        self.performRecovery(self.recovery.loopNeedsRecovery())
    }

    // MARK: - Network loss

    /// T10 and T11 in one step. The request in flight fails with 104 before will-disconnect (S-27: "no later than
    /// the will-disconnect event") whichever noticed the loss first — its own transport failure or a probe started
    /// by the long-poll's. Calls waiting behind it start only after did-disconnect, so they fail their pre-flight
    /// with 104 in DisconnectedOnNetworkError instead of slipping in between the two events.
    func beginNetworkLoss() {
        self.holdingOperations {
            self.abortCurrent(code: kPNRequestExecutionFailedOnInternetFailureError)
            self.emit(.willDisconnectWithError(self.connectionError(kPNClientConnectionClosedOnInternetFailureError)))
            self.loop.connectionLost()
            self.stopBackgroundTimers()
            self.recovery.connectionDropped()
            self.perform(self.connection.networkLossFinished())
        }
    }

    // MARK: - Heartbeat

    /// (Re)starts presence heartbeats when configured and connected.
    func restartHeartbeat() {
        self.heartbeatTimer?.cancel()
        self.heartbeatTimer = nil
        guard let settings = self.settings, settings.presenceHeartbeatInterval > 0, self.connection.isConnected else {
            return
        }
        self.heartbeatTimer = self.schedule(after: TimeInterval(settings.presenceHeartbeatInterval)) {
            self.sendHeartbeat()
            self.restartHeartbeat()
        }
    }

    private func sendHeartbeat() {
        let channels = Self.regularNames(self.loop.machine.channels)
        guard !channels.isEmpty, let settings = self.settings else { return }
        let value = settings.presenceHeartbeatValue > 0 ? settings.presenceHeartbeatValue : nil
        self.send(
            .heartbeat(channels: channels, heartbeat: value),
            lane: self.serviceLane,
            timeout: settings.nonSubscriptionRequestTimeout
        ) { _ in }
    }

    func stopBackgroundTimers() {
        self.heartbeatTimer?.cancel()
        self.heartbeatTimer = nil
    }
}
