import Foundation

// What the `PubNubAsync` overlay needs beyond the 3.4 API: package-level hooks, not public API. The 3.4 calls have
// no forced reconnect, no status stream and no completion for `disconnect`; these add them on the same engine and
// its operation order (docs/BEHAVIOR.md §1.2), so calls made through both APIs run in one call order.

extension PubNub {
    // MARK: - Statuses

    /// Adds `listener` for every `PNStatus` the client derives (the statuses `pubnubClient(_:didReceiveStatus:)`
    /// gets, in the same order, on the delivery queue, after the delegate and the notification). Returns the id
    /// that `removeStatusListener(_:)` takes.
    package func addStatusListener(_ listener: @escaping @Sendable (PNStatus) -> Void) -> Int {
        self.statusAdapter.addListener(listener)
    }

    /// Removes a listener added with `addStatusListener(_:)`.
    package func removeStatusListener(_ id: Int) {
        self.statusAdapter.removeListener(id)
    }

    // MARK: - Disconnect with completion

    /// `disconnect()`, then `completion` on the delivery queue once it ran (after `didDisconnectFromOrigin:` when
    /// there was a connection; at its turn in call order when there was none).
    package func disconnect(completion: @escaping @Sendable () -> Void) {
        let engine = self.engine
        engine.enqueue {
            engine.requestDisconnect()
            engine.submit("disconnect completion", refusal: { _ in Refusal(block: DeliveryBlock(completion)) }) {
                operation in
                engine.dispatcher.deliverBlock(DeliveryBlock(completion))
                engine.finish(operation)
            }
        }
    }

    // MARK: - Forced reconnect

    /// Closes the running long-poll and restores the subscription from its last time token, as after a network loss
    /// (messages published meanwhile are delivered once, before `didRestoreSubscriptionOnChannels:`). Runs in call
    /// order; `completion` gets nil on the delivery queue when the restore ended with the client connected, or the
    /// error: 105 when not connected, 104 while the network is down (then a reachability probe is sent at once, so
    /// the client reconnects on its own as soon as the origin answers), 103 when the network was lost meanwhile.
    /// Without channels there is nothing to restore and it succeeds at once.
    package func forceReconnect(completion: @escaping @Sendable (PNError?) -> Void) {
        let engine = self.engine
        engine.enqueue {
            engine.forceReconnect(completion)
        }
    }
}

extension ClientEngine {
    fileprivate func forceReconnect(_ completion: @escaping @Sendable (PNError?) -> Void) {
        let report: (PNError?) -> Void = { error in
            self.dispatcher.deliverBlock(DeliveryBlock { completion(error) })
        }
        if self.connection.waitsForNetwork {
            self.startProbe()
        }
        let refusal = { (error: PNError) in Refusal(block: DeliveryBlock { completion(error) }) }
        self.submit("reconnect", refusal: refusal) { operation in
            if let error = self.preflightError(associatedObject: nil) {
                report(error)
                self.finish(operation)
                return
            }
            guard !self.loop.machine.channels.isEmpty else {
                report(nil)
                self.finish(operation)
                return
            }
            // The restore finishes this operation (`subscriptionRestored`, `subscriptionRestoreAbandoned`, or the
            // abort of a network loss or disconnect); the outcome is read by the operation right behind it.
            self.submit("reconnect outcome", atHead: true, refusal: refusal) { outcome in
                report(
                    self.connection.isConnected ? nil : PNError(code: kPNClientConnectionClosedOnInternetFailureError)
                )
                self.finish(outcome)
            }
            self.connection.restoreStarting(carrying: ConnectionWork(operation: operation))
            operation.onAbort = { [unowned self] _ in self.endConnectionWork() }
            self.emit(.willRestoreSubscription(Self.regularChannels(self.loop.machine.channels)))
            self.loop.connectionLost()
            self.loop.restore(catchUp: true)
        }
    }
}
