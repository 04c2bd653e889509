import Foundation

// Connect (docs/BEHAVIOR.md §2): the user's call, the connection machine's action executor, the connect attempts
// with their TLS fallback (docs/BEHAVIOR.md §2.8), and their outcome. The decisions come from
// `ConnectionStateMachine`; this file carries them out. Configuration changes are in `ClientEngine+Configuration`,
// restore, reconnect and disconnect in `ClientEngine+Disconnect`, probes and network loss in
// `ClientEngine+Reachability`.

/// The operation that carries the current connect attempt: a user `connect` (with its blocks), an automatic
/// connect once the network is back, a reconnect after a loss, or a hard reset.
struct ConnectionWork {
    var operation: EngineOperation
    var success: UserBlock<PNClientConnectionSuccessBlock>?
    var failure: UserBlock<PNClientConnectionFailureBlock>?
}

extension ClientEngine {
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

    func beginConnectAttempt() {
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
        self.connectAttemptTimer = self.schedule(after: self.timings.connectAttemptTimeout) {
            self.connectAttemptTask?.cancel()
            conclude.fire((false, true, true))
        }
        self.connectAttemptTask = self.send(.time, lane: self.serviceLane, timeout: self.timings.connectAttemptTimeout)
        {
            result in
            if case .failure(let failure) = result {
                let from = self.security.level
                if let lower = self.security.attemptFailed(failure, settings: self.settings) {
                    // docs/BEHAVIOR.md §2.8: each rung is a silent retry; only the configuration allows it
                    // (docs/DESIGN.md A12).
                    PNLogger.log(.PNLogConnectionLayerErrorLevel, self, "TLS failed at \(from); retrying with \(lower)")
                    conclude.disarm()
                    self.sendConnectAttempt()
                    return
                }
            }
            switch result {
            case .failure(.cancelled):
                return
            case .failure(.tls):
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

    func cancelConnectAttempt() {
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
        let reported = self.security.takeLastFailure()
        switch reported {
        case .some(.tls), .some(.other), .some(.responseTooLarge):
            // Not a network condition: report the transport's own error (TLS category for TLS), as 3.4 passed
            // socket errors through.
            error = PNError.fromTransport(
                reported ?? .cancelled,
                networkCode: kPNClientConnectionFailedOnInternetFailureError,
                timeoutMessage: nil
            )
        case .none, .some(.cancelled), .some(.timedOut), .some(.network):
            error = PNError(code: kPNClientConnectionFailedOnInternetFailureError)
        }
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
}
