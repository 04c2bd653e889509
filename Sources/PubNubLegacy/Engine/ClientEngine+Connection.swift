import Foundation

// Connect, disconnect, emulated reachability, network loss and recovery, configuration changes and the client
// identifier (docs/BEHAVIOR.md §2). The decisions come from `ConnectionStateMachine`; this file carries them out.

/// The operation that carries the current connect attempt: a user `connect` (with its blocks), an automatic
/// connect once the network is back, a reconnect after a loss, or a hard reset.
struct ConnectionWork {
    var operation: EngineOperation
    var success: UserBlock<PNClientConnectionSuccessBlock>?
    var failure: UserBlock<PNClientConnectionFailureBlock>?
}

extension ClientEngine {
    // MARK: - Configuration

    /// `setConfiguration` / `setupWithConfiguration`: applies `new`, or reports 100 when it is invalid.
    func applyConfiguration(_ new: ClientSettings) {
        guard new.isValid else {
            self.emit(.error(PNError(code: kPNClientConfigurationError)))
            return
        }
        guard let old = self.settings else {
            self.settings = new
            self.connection.configurationReplaced()
            return
        }
        if old == new { return }
        switch self.connection.state {
        case .connected:
            // A client that fell back keeps its weaker level only while the settings that allowed it hold: a change
            // of them reconnects, at `strict` again, like a change of origin.
            let downgraded = self.securityLevel != .strict && old.restartsSecurityLadder(toApply: new)
            if old.requiresHardReset(toApply: new) || downgraded {
                self.submitHardReset(to: new)
            } else {
                self.settings = new
                self.restartHeartbeat()
            }
        case .connecting:
            // T16: abort the attempt silently and start again with the new configuration.
            self.settings = new
            if self.connectionWork != nil {
                self.cancelConnectAttempt()
                self.beginConnectAttempt()
            }
        case .created, .disconnecting, .disconnectingOnConfigurationChange, .disconnectingOnNetworkError,
            .disconnected, .disconnectedOnNetworkError, .reset:
            self.settings = new
            self.connection.configurationReplaced()
        }
    }

    private func submitHardReset(to new: ClientSettings) {
        self.submit("hard reset") { operation in
            guard self.connection.isConnected else {
                self.settings = new
                self.connection.configurationReplaced()
                self.finish(operation)
                return
            }
            self.connectionWork = ConnectionWork(operation: operation, success: nil, failure: nil)
            operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
            self.connection.hardResetStarted()
            self.loop.connectionLost()
            self.stopBackgroundTimers()
            self.updateSnapshot()
            operation.timers.append(
                self.schedule(after: ClientEngine.hardResetDelay) {
                    self.settings = new
                    self.perform(self.connection.hardResetReconnect())
                }
            )
        }
    }

    // MARK: - Client identifier

    /// `setClientIdentifier`: stores the identifier, or runs the soft reset while subscribed (docs/BEHAVIOR.md §2.10).
    func setClientIdentifier(_ identifier: String?) {
        let new = identifier ?? PNUniqueIdentifier()
        guard new != self.uuid else {
            self.updateSnapshot()
            return
        }
        guard self.connection.isConnected else {
            self.uuid = new
            self.updateSnapshot()
            return
        }
        self.submit("set client identifier") { operation in
            let channels = self.loop.machine.channels
            guard self.connection.isConnected, !channels.isEmpty, new != self.uuid else {
                self.uuid = new
                self.updateSnapshot()
                self.finish(operation)
                return
            }
            let cursor = self.loop.machine.cursor
            let replaced = self.loop.unfinishedRequests
            let removed = self.loop.unsubscribe(removing: channels)
            let base = Self.regularChannels(removed)
            operation.onAbort = { [unowned self] code in
                self.subscriptionChanges[operation.id] = nil
                self.uuid = new
                self.updateSnapshot()
                self.emit(.subscriptionDidFail(PNError(code: code, category: .networkIssues, associatedObject: base)))
                self.finish(operation)
            }
            // The leave carries the old uuid only after the long-poll it cancels has ended (it could re-join the
            // old uuid otherwise); the handshake with the new uuid follows the leave (docs/BEHAVIOR.md §2.10).
            self.sendLeave(removed, after: replaced) {
                guard !operation.finished else { return }
                self.emit(.didUnsubscribe(base))
                self.uuid = new
                self.updateSnapshot()
                self.subscriptionChanges[operation.id] = SubscriptionChange(
                    onSuccess: { [unowned self] in
                        self.emit(.didSubscribe(self.subscribedRegularChannels()))
                        self.finish(operation)
                    },
                    onFailure: { [unowned self] failure in
                        let error = PNError.fromSubscribe(failure, timeoutMessage: "Subscription failed by timeout")
                        error.setAssociatedObject(base)
                        self.emit(.subscriptionDidFail(error))
                        self.finish(operation)
                    }
                )
                self.loop.subscribe(op: operation.id, adding: removed, withPresenceEvent: true, continuingFrom: cursor)
            }
        }
    }

    // MARK: - Connect

    /// `connect` / `connectWithSuccessBlock:errorBlock:`.
    func connect(
        success: UserBlock<PNClientConnectionSuccessBlock>?,
        failure: UserBlock<PNClientConnectionFailureBlock>?
    ) {
        self.submit("connect") { operation in
            guard let settings = self.settings, settings.isValid else {
                let error = PNError(code: kPNClientConfigurationError)
                self.emit(.error(error), completion: failure.map { box in DeliveryBlock { box.block(error) } })
                self.finish(operation)
                return
            }
            if self.uuid == nil {
                self.uuid = PNUniqueIdentifier()
                self.updateSnapshot()
            }
            let blockOnly: (Int) -> Void = { code in
                let error = PNError(code: code)
                if let failure {
                    self.dispatcher.deliverBlock(DeliveryBlock { failure.block(error) })
                }
                self.finish(operation)
            }
            switch self.connection.connectRequested() {
            case .alreadyConnected:
                // As 3.4.2: `connectionDidFailWithError:` (101), its notification and the connection observers, then
                // the block; the connection in place is not touched (3.4.2 released the running connect's lock).
                let error = PNError(code: kPNClientTriedConnectWhileConnectedError)
                self.emit(
                    .connectionDidFail(error),
                    completion: failure.map { box in DeliveryBlock { box.block(error) } }
                )
                self.finish(operation)
            case .noNetwork:
                blockOnly(kPNClientConnectionFailedOnInternetFailureError)
                self.scheduleProbe()
            case .probeFirst:
                self.connectionWork = ConnectionWork(operation: operation, success: success, failure: failure)
                operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
                self.startProbe()
            case .startConnecting:
                self.connectionWork = ConnectionWork(operation: operation, success: success, failure: failure)
                operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
                self.beginConnectAttempt()
            }
        }
    }

    /// Carries out the connection machine's actions in order.
    func perform(_ actions: [ConnectionStateMachine.Action]) {
        self.updateSnapshot()
        for action in actions {
            PNLogger.log(.PNLogConnectionLayerInfoLevel, self, "connection \(self.connection.state): \(action)")
            switch action {
            case .beginConnectAttempt:
                if self.connectionWork != nil {
                    self.beginConnectAttempt()
                } else {
                    // An automatic connect takes the operation lock like a user call (docs/BEHAVIOR.md §1.2 queue
                    // jump).
                    self.submit("automatic connect", atHead: true) { operation in
                        guard self.connection.state == .connecting else {
                            self.finish(operation)
                            return
                        }
                        self.connectionWork = ConnectionWork(operation: operation, success: nil, failure: nil)
                        operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
                        self.beginConnectAttempt()
                    }
                }
            case .retryConnectAttempt(let delay):
                self.connectAttemptTimer = self.schedule(after: delay) { self.sendConnectAttempt() }
            case .connected(let restoring):
                self.didConnect(restoring: restoring)
            case .connectFailed(let networkClass):
                self.connectFailed(networkClass: networkClass)
            case .beginNetworkLoss:
                self.beginNetworkLoss()
            case .finishNetworkLoss:
                let error = PNError(code: kPNClientConnectionClosedOnInternetFailureError)
                self.emit(.didDisconnectWithError(origin: self.settings?.origin ?? "", error))
            case .askReconnect:
                self.askReconnect()
            case .scheduleProbe:
                self.scheduleProbe()
            }
        }
        self.updateSnapshot()
    }

    private func beginConnectAttempt() {
        self.emit(.willConnect(origin: self.settings?.origin ?? ""))
        self.sendConnectAttempt()
    }

    /// One connect attempt: a Time request with the connect timeout.
    private func sendConnectAttempt() {
        self.cancelConnectAttempt()
        guard self.connection.state == .connecting else { return }
        let conclude = OneShot<(success: Bool, networkClass: Bool, retryable: Bool)> { outcome in
            self.connectAttemptTimer?.cancel()
            self.connectAttemptTimer = nil
            self.connectAttemptTask = nil
            self.perform(
                self.connection.connectAttemptFinished(
                    success: outcome.success,
                    networkClass: outcome.networkClass,
                    retryable: outcome.retryable
                )
            )
        }
        self.connectAttemptTimer = self.schedule(after: self.connectAttemptTimeout) {
            self.connectAttemptTask?.cancel()
            conclude.fire((false, true, true))
        }
        self.connectAttemptTask = self.send(.time, lane: self.serviceLane, timeout: self.connectAttemptTimeout) {
            result in
            if case .failure(let failure) = result { self.lastConnectFailure = failure }
            switch result {
            case .failure(.cancelled):
                return
            case .failure(.tls):
                if let lower = self.lowerSecurityLevel() {
                    // docs/BEHAVIOR.md §2.8: each rung is a silent retry; only the configuration allows it
                    // (docs/DESIGN.md A12).
                    PNLogger.log(
                        .PNLogConnectionLayerErrorLevel,
                        self,
                        "TLS failed at \(self.securityLevel); retrying with \(lower)"
                    )
                    self.securityLevel = lower
                    self.lastConnectFailure = nil
                    conclude.disarm()
                    self.sendConnectAttempt()
                    return
                }
                conclude.fire((false, false, false))
            case .failure(.other), .failure(.responseTooLarge):
                conclude.fire((false, false, true))
            case .failure:
                conclude.fire((false, true, true))
            case .success(let response):
                let ok = (try? ResponseParser.time(response).get()) != nil
                conclude.fire((ok, !ok, true))
            }
        }
    }

    /// The rung below the current one that the settings allow after a TLS failure, nil when there is none.
    private func lowerSecurityLevel() -> SecurityLevel? {
        guard let settings = self.settings, settings.secure else { return nil }
        return self.securityLevel.next(
            reduceSecurityLevelOnError: settings.reduceSecurityLevelOnError,
            ignoreSecureConnectionRequirement: settings.ignoreSecureConnectionRequirement,
            canRelax: self.canRelaxCertificateValidation
        )
    }

    private func cancelConnectAttempt() {
        self.connectAttemptTimer?.cancel()
        self.connectAttemptTimer = nil
        self.connectAttemptTask?.cancel()
        self.connectAttemptTask = nil
    }

    private func didConnect(restoring: Bool) {
        let origin = self.settings?.origin ?? ""
        self.updateSnapshot()
        let work = self.connectionWork
        let success = work?.success
        self.emit(.didConnect(origin: origin), completion: success.map { box in DeliveryBlock { box.block(origin) } })
        self.restartHeartbeat()
        self.scheduleProbe()
        if restoring {
            self.restoreSubscription()
        } else {
            self.endConnectionWork()
        }
    }

    private func connectFailed(networkClass: Bool) {
        let error: PNError
        switch self.lastConnectFailure {
        case .some(.tls), .some(.other), .some(.responseTooLarge):
            // Not a network condition: report the transport's own error (TLS category for TLS), as 3.4 passed
            // socket errors through.
            error = PNError.fromTransport(
                self.lastConnectFailure ?? .cancelled,
                networkCode: kPNClientConnectionFailedOnInternetFailureError,
                timeoutMessage: nil
            )
        case .none, .some(.cancelled), .some(.timedOut), .some(.network):
            error = PNError(code: kPNClientConnectionFailedOnInternetFailureError)
        }
        self.lastConnectFailure = nil
        let failure = self.connectionWork?.failure
        self.emit(.connectionDidFail(error), completion: failure.map { box in DeliveryBlock { box.block(error) } })
        if self.connection.state == .disconnected {
            self.loop.removeAll()
        }
        self.endConnectionWork()
    }

    /// Finishes the operation carrying the connect (if any).
    func endConnectionWork() {
        guard let work = self.connectionWork else { return }
        self.connectionWork = nil
        self.finish(work.operation)
    }

    // MARK: - Restore

    /// After a reconnect or hard reset: restore the channels (docs/BEHAVIOR.md §2.7 steps 6–8).
    private func restoreSubscription() {
        guard !self.loop.machine.channels.isEmpty, let settings = self.settings else {
            self.endConnectionWork()
            return
        }
        self.dispatcher.ask({ client, delegate -> (Bool?, Bool?) in
            let resubscribe = DelegateAnswers.resubscribe(delegate)
            let catchUp = DelegateAnswers.catchUp(delegate)
            _ = client
            return (resubscribe, catchUp)
        }) { [weak self] (answer: (Bool?, Bool?)) in
            guard let self else { return }
            self.queue.async {
                guard self.connection.isConnected, self.connectionWork != nil else { return }
                let channels = self.loop.machine.channels
                let base = Self.regularChannels(channels)
                if answer.0 ?? settings.resubscribeOnConnectionRestore {
                    self.emit(.willRestoreSubscription(base))
                    self.loop.restore(catchUp: answer.1 ?? settings.restoreSubscriptionFromLastTimeToken)
                } else {
                    self.loop.removeAll()
                    self.emit(.didUnsubscribe(base))
                    self.endConnectionWork()
                }
            }
        }
    }

    /// The loop finished a restore (reconnect, hard reset or recovery).
    func subscriptionRestored(_ channels: [String]) {
        self.emit(.didRestoreSubscription(Self.regularChannels(channels)))
        self.endConnectionWork()
    }

    /// The restore request failed; the loop reported the failure itself.
    func subscriptionRestoreAbandoned() {
        self.endConnectionWork()
    }

    private func askReconnect() {
        let configured = self.settings?.autoReconnectClient ?? true
        self.dispatcher.ask({ client, delegate -> Bool? in
            guard let client else { return nil }
            return DelegateAnswers.reconnect(delegate, client)
        }) { [weak self] (answer: Bool?) in
            guard let self else { return }
            self.queue.async {
                let allowed = answer ?? configured
                if !allowed {
                    self.loop.removeAll()
                }
                self.perform(self.connection.reconnectDecided(allowed))
            }
        }
    }

    // MARK: - Disconnect

    /// `disconnect()`: an operation like the others, so it runs after every call made before it has completed —
    /// `connect(); subscribeOnChannels([a]); disconnect()` connects, subscribes, then disconnects, as 3.4.2 queued
    /// its disconnect behind the calls in progress (docs/BEHAVIOR.md §1.2). Calls made after it fail with 105.
    ///
    /// One exception keeps a disconnect from waiting on an origin that does not answer: a connect (the user's or an
    /// automatic one) whose first attempt already failed would hold the queue for up to 46 s of retries (3.4.2
    /// waited until the network came back, forever when it did not). A disconnect ends it at once — its
    /// `errorBlock` gets nil and `didDisconnectFromOrigin:` follows — and the calls queued meanwhile then fail
    /// with 105.
    func requestDisconnect() {
        if self.connection.state == .connecting, self.connection.failedAttempts > 0, self.connectionWork != nil {
            self.disconnect()
        }
        self.submit("disconnect") { operation in
            self.disconnect()
            self.finish(operation)
        }
    }

    /// User `disconnect` when its turn comes (docs/BEHAVIOR.md §2.6): no leave; anything still running fails with 105;
    /// did-disconnect exactly once; calls queued behind it run afterwards (and fail their pre-flight with 105).
    func disconnect() {
        let hadConnection = self.connection.disconnectRequested()
        self.cancelConnectAttempt()
        self.stopBackgroundTimers()
        self.probeTimer?.cancel()
        self.probeTimer = nil
        self.loopCheckPending = false
        self.recoveryPending = false
        let work = self.connectionWork
        self.connectionWork = nil
        guard hadConnection else {
            if let work {
                if let failure = work.failure {
                    self.dispatcher.deliverBlock(DeliveryBlock { failure.block(nil) })
                }
                self.finish(work.operation)
            }
            return
        }
        self.holdOperations = true
        self.abortCurrent(code: kPNRequestExecutionFailedClientNotReadyError)
        self.loop.removeAll()
        self.channelObjects.removeAll()
        if self.purgesChannelCacheOnDisconnect {
            PNChannel.purgeChannelsCache()
        }
        self.connection.disconnectFinished()
        self.updateSnapshot()
        let failure = work?.failure
        self.emit(
            .didDisconnect(origin: self.settings?.origin ?? ""),
            completion: failure.map { box in DeliveryBlock { box.block(nil) } }
        )
        if let work { self.finish(work.operation) }
        self.holdOperations = false
        self.resumeOperations()
    }
}
