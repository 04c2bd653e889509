import Foundation

// Configuration changes (docs/BEHAVIOR.md §2.9: in place, or the hard reset that reconnects) and the client identifier
// (docs/BEHAVIOR.md §2.10: stored, or the soft reset that re-subscribes under the new one).

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
        // A client that fell back keeps its weaker level only while the settings that allowed it hold: a change of
        // them reconnects, at `strict` again, like a change of origin.
        let reconnectNeeded = old.requiresHardReset(toApply: new) || self.security.requiresReconnect(old: old, new: new)
        switch self.connection.configurationChanged(reconnectNeeded: reconnectNeeded) {
        case .hardReset:
            self.submitHardReset(to: new)
        case .applyInPlace:
            self.settings = new
            self.restartHeartbeat()
        case .restartConnectAttempt:
            // T16: abort the attempt silently and start again with the new configuration.
            self.settings = new
            self.cancelConnectAttempt()
            self.beginConnectAttempt()
        case .store:
            self.settings = new
        }
    }

    private func submitHardReset(to new: ClientSettings) {
        self.submit("hard reset") { operation in
            guard self.connection.hardResetStarting(carrying: ConnectionWork(operation: operation)) else {
                self.settings = new
                self.finish(operation)
                return
            }
            operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
            self.loop.connectionLost()
            self.stopBackgroundTimers()
            self.updateSnapshot()
            operation.timers.append(
                self.schedule(after: self.timings.hardResetDelay) {
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

}
