import Foundation

// Connect (docs/BEHAVIOR.md §2): the user's call, the connection machine's action executor, the connect attempts
// with their TLS fallback (docs/BEHAVIOR.md §2.8), and their outcome. The decisions come from
// `ConnectionStateMachine`; this file carries them out. Configuration changes are in `ClientEngine+Configuration`,
// restore, reconnect and disconnect in `ClientEngine+Disconnect`, probes and network loss in
// `ClientEngine+Reachability`.

extension ClientEngine {
    // MARK: - Connect

    /// `connect` / `connectWithSuccessBlock:errorBlock:`.
    func connect(
        success: UserBlock<PNClientConnectionSuccessBlock>?,
        failure: UserBlock<PNClientConnectionFailureBlock>?
    ) {
        let refusal = { (error: PNError) in
            Refusal(event: .connectionDidFail(error), block: failure.map { box in DeliveryBlock { box.block(error) } })
        }
        self.submit("connect", refusal: refusal) { operation in
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
                let error = self.connectionError(code)
                if let failure {
                    self.dispatcher.deliverBlock(DeliveryBlock { failure.block(error) })
                }
                self.finish(operation)
            }
            let work = ConnectionWork(operation: operation, success: success, failure: failure)
            switch self.connection.connectRequested(carrying: work) {
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
                operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
                self.startProbe()
            case .startConnecting:
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
                self.beginConnectAttempt()
            case .submitAutomaticConnect:
                self.submit("automatic connect", atHead: true) { operation in
                    guard self.connection.automaticConnectStarting(carrying: ConnectionWork(operation: operation))
                    else {
                        self.finish(operation)
                        return
                    }
                    operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
                    self.beginConnectAttempt()
                }
            case .retryConnectAttempt(let delay):
                self.connectAttemptTimer = self.schedule(after: delay) { self.sendConnectAttempt() }
            case .connected(let work):
                self.didConnect(work: work, restoring: false)
            case .connectedRestoring:
                self.didConnect(work: self.connection.work, restoring: true)
            case .connectFailed(let networkClass, let clearsSubscription, let work):
                self.connectFailed(networkClass: networkClass, clearsSubscription: clearsSubscription, work: work)
            case .deferConnect(let work):
                // T3 → T4: block-only 102; the client connects on its own once a probe succeeds.
                if let failure = work.failure {
                    let error = self.connectionError(kPNClientConnectionFailedOnInternetFailureError)
                    self.dispatcher.deliverBlock(DeliveryBlock { failure.block(error) })
                }
                self.finish(work.operation)
            case .beginNetworkLoss:
                self.beginNetworkLoss()
            case .finishNetworkLoss:
                let error = self.connectionError(kPNClientConnectionClosedOnInternetFailureError)
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
        guard self.connection.isConnecting else { return }
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
            // Remembered first: the cancelled task's completion must not be taken for the cause.
            self.security.attemptTimedOut()
            self.connectAttemptTask?.cancel()
            conclude.fire((false, true, true))
        }
        self.connectAttemptTask = self.send(.time, lane: self.serviceLane, timeout: self.timings.connectAttemptTimeout)
        {
            result in
            if case .failure(.cancelled) = result { return }
            if case .failure(let failure) = result {
                let from = self.security.level
                if let lower = self.security.attemptFailed(
                    failure,
                    settings: self.settings,
                    canRelax: self.canRelaxCertificateValidation
                ) {
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
                if !ok {
                    _ = self.security.attemptFailed(
                        Self.notATimeToken(response),
                        settings: self.settings,
                        canRelax: self.canRelaxCertificateValidation
                    )
                }
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

    /// Did-connect with `work`'s success block; then the restore (which ends the held work) or the end of `work`.
    private func didConnect(work: ConnectionWork?, restoring: Bool) {
        let origin = self.settings?.origin ?? ""
        self.updateSnapshot()
        let success = work?.success
        self.emit(.didConnect(origin: origin), completion: success.map { box in DeliveryBlock { box.block(origin) } })
        self.restartHeartbeat()
        self.scheduleProbe()
        if restoring {
            self.restoreSubscription()
        } else if let work {
            self.finish(work.operation)
        }
    }

    private func connectFailed(networkClass: Bool, clearsSubscription: Bool, work: ConnectionWork?) {
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
            error = PNError.connection(
                code: kPNClientConnectionFailedOnInternetFailureError,
                cause: reported,
                origin: self.settings?.origin ?? "",
                timeout: self.timings.connectAttemptTimeout
            )
        }
        PNLogger.log(
            .PNLogConnectionLayerErrorLevel,
            self,
            "cannot connect to \(self.settings?.origin ?? "-"): \(error.code) \(error.localizedDescription); "
                + error.localizedFailureReason
        )
        let failure = work?.failure
        self.emit(.connectionDidFail(error), completion: failure.map { box in DeliveryBlock { box.block(error) } })
        if clearsSubscription {
            self.loop.removeAll()
        }
        if let work { self.finish(work.operation) }
    }

    /// A 102 or 103 error that names what the last probe met (DNS, refused, timeout…), when it met something.
    func connectionError(_ code: Int) -> PNError {
        PNError.connection(
            code: code,
            cause: self.lastProbeFailure,
            origin: self.settings?.origin ?? "",
            timeout: self.timings.probeTimeout
        )
    }

    /// The cause recorded for a connect attempt whose answer is not a time token: something answered HTTP on the
    /// origin's address, but not PubNub.
    static func notATimeToken(_ response: TransportResponse) -> TransportFailure {
        .network(
            code: URLLoading.Code.badServerResponse,
            description: "The origin answered the time request with HTTP \(response.status) and a body that is "
                + "not a PubNub time token."
        )
    }

    /// Finishes the operation carrying the connect, hard reset or restore, if the connection machine still holds
    /// one (the restore ended, or the operation was aborted).
    func endConnectionWork() {
        guard let work = self.connection.workEnded() else { return }
        self.finish(work.operation)
    }
}
