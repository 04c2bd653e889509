import Foundation

// Restoring the subscription after a reconnect or hard reset (docs/BEHAVIOR.md §2.7), asking whether to reconnect
// after a network loss, and the user disconnect (docs/BEHAVIOR.md §2.6).

extension ClientEngine {
    // MARK: - Restore

    /// After a reconnect or hard reset: restore the channels (docs/BEHAVIOR.md §2.7 steps 6–8).
    func restoreSubscription() {
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
                guard self.connection.restoreStillWanted else { return }
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

    func askReconnect() {
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
        if self.connection.disconnectCutsConnectShort {
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
        let (tearDown, work) = self.connection.disconnectRequested()
        self.cancelConnectAttempt()
        self.stopBackgroundTimers()
        self.probeTimer?.cancel()
        self.probeTimer = nil
        self.recovery.connectionDropped()
        guard tearDown else {
            if let work {
                if let failure = work.failure {
                    self.dispatcher.deliverBlock(DeliveryBlock { failure.block(nil) })
                }
                self.finish(work.operation)
            }
            return
        }
        self.holdingOperations {
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
        }
    }
}
