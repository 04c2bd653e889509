import Foundation

// Subscribe, unsubscribe, presence observation and the events of the running subscription (docs/BEHAVIOR.md §3).

extension ClientEngine {
    // MARK: - Pre-flight

    /// The pre-flight error of a request made now (docs/API-3.4.md §3.3), nil when it may run.
    func preflightError(associatedObject: Any?) -> PNError? {
        guard let code = self.connection.preflightErrorCode else { return nil }
        return PNError(code: code, category: .networkIssues, associatedObject: associatedObject)
    }

    /// The first refused channel name's error (docs/DESIGN.md §3), nil when every name is usable.
    static func invalidChannelError(_ channels: [PNChannel]) -> PNError? {
        channels.lazy.compactMap { $0.validationError() }.first
    }

    /// Full names for `channels`: each name, plus its `-pnpres` companion when it observes presence.
    static func subscriptionNames(_ channels: [PNChannel]) -> [String] {
        var names: [String] = []
        for channel in channels {
            names.append(channel.name)
            if let companion = channel.presenceObserver() {
                names.append(companion.name)
            }
        }
        return names
    }

    /// The failure of a call whose block takes `(channels, error)` and that never started (`ClientEngine.submit`):
    /// `event` with the error, which names the channels.
    static func channelsRefusal(
        _ channels: [PNChannel],
        _ block: UserBlock<([PNChannel], PNError?) -> Void>?,
        _ event: @escaping (PNError) -> ClientEvent
    ) -> (PNError) -> Refusal {
        { error in
            error.setAssociatedObject(channels)
            return Refusal(
                event: event(error),
                block: block.map { box in DeliveryBlock { box.block(channels, error) } }
            )
        }
    }

    // MARK: - Subscribe

    /// `subscribeOnChannels:withPresenceEvent:andCompletionHandlingBlock:`.
    func subscribe(
        _ channels: [PNChannel],
        withPresenceEvent: Bool,
        block: UserBlock<PNClientChannelSubscriptionHandlerBlock>?
    ) {
        let refusal = { (error: PNError) -> Refusal in
            error.setAssociatedObject(channels)
            return Refusal(
                event: .subscriptionDidFail(error),
                block: block.map { box in
                    DeliveryBlock { box.block(.PNSubscriptionProcessNotSubscribedState, channels, error) }
                }
            )
        }
        self.submit("subscribe", refusal: refusal) { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                error.setAssociatedObject(channels)
                let reported = (error.associatedObject as? [PNChannel]) ?? channels
                self.emit(
                    .subscriptionDidFail(error),
                    completion: block.map { box in
                        DeliveryBlock { box.block(.PNSubscriptionProcessNotSubscribedState, reported, error) }
                    }
                )
                self.finish(operation)
            }
            if let error = Self.invalidChannelError(channels) ?? self.preflightError(associatedObject: channels) {
                fail(error)
                return
            }
            self.subscriptionChanges[operation.id] = SubscriptionChange(
                onSuccess: { [unowned self] in
                    // 3.4.2 reported the channels of its subscribe request, which re-subscribed the whole set: every
                    // regular channel subscribed now, not only the ones of this call.
                    let subscribed = self.subscribedRegularChannels()
                    self.emit(
                        .didSubscribe(subscribed),
                        completion: block.map { box in
                            DeliveryBlock { box.block(.PNSubscriptionProcessSubscribedState, subscribed, nil) }
                        }
                    )
                    self.finish(operation)
                },
                onFailure: { failure in
                    fail(PNError.fromSubscribe(failure, timeoutMessage: "Subscription failed by timeout"))
                }
            )
            operation.onAbort = { [unowned self] code in
                self.subscriptionChanges[operation.id] = nil
                fail(PNError(code: code, category: .networkIssues))
            }
            if withPresenceEvent {
                for channel in channels { channel.resetUpdateTimeToken() }
            }
            self.remember(channels)
            self.loop.subscribe(
                op: operation.id,
                adding: Self.subscriptionNames(channels),
                withPresenceEvent: withPresenceEvent
            )
        }
    }

    /// Every regular (non `-pnpres`) channel of the subscription, in subscription order, as the objects the app
    /// subscribed with: what `didSubscribeOnChannels:` and the subscribe block report.
    func subscribedRegularChannels() -> [PNChannel] {
        Self.regularNames(self.loop.machine.channels).map { self.channelObject(named: $0) }
    }

    /// `unsubscribeFromChannels:withPresenceEvent:andCompletionHandlingBlock:` (docs/BEHAVIOR.md §3.6 Layer rules).
    func unsubscribe(
        _ channels: [PNChannel],
        withPresenceEvent: Bool,
        block: UserBlock<PNClientChannelUnsubscriptionHandlerBlock>?
    ) {
        let refusal = Self.channelsRefusal(channels, block, ClientEvent.unsubscriptionDidFail)
        self.submit("unsubscribe", refusal: refusal) { operation in
            let complete: (PNError?) -> Void = { [unowned self] error in
                guard !operation.finished else { return }
                if let error {
                    error.setAssociatedObject(channels)
                    self.emit(
                        .unsubscriptionDidFail(error),
                        completion: block.map { box in DeliveryBlock { box.block(channels, error) } }
                    )
                } else {
                    self.emit(
                        .didUnsubscribe(channels),
                        completion: block.map { box in DeliveryBlock { box.block(channels, nil) } }
                    )
                }
                self.finish(operation)
            }
            if let error = Self.invalidChannelError(channels) {
                complete(error)
                return
            }
            var names: [String] = []
            for channel in channels {
                names.append(channel.name)
                if !channel.isPresenceObserver() {
                    names.append(PNChannelPresence.presenceForChannel(channel).name)
                }
            }
            switch SubscribeLoop.StateMachine.unsubscribeRoute(connection: self.connection.state) {
            case .online:
                break
            case .restoreListOnly:
                _ = self.loop.unsubscribe(removing: names)
                complete(nil)
                return
            case .refused:
                complete(self.preflightError(associatedObject: channels))
                return
            }
            let replaced = self.loop.unfinishedRequests
            let removed = self.loop.unsubscribe(removing: names)
            for name in removed {
                self.channelObject(named: name).resetUpdateTimeToken()
                self.channelObjects[name] = nil
            }
            operation.onAbort = { _ in complete(nil) }
            if removed.isEmpty || !withPresenceEvent {
                complete(nil)
            } else {
                self.sendLeave(removed, after: replaced) { complete(nil) }
            }
        }
    }

    /// Sends a best-effort leave for `names` with the current identifier; `completion` runs once, when it is
    /// answered, fails, times out (10 s) or is skipped because the client is offline (docs/BEHAVIOR.md §3.6).
    ///
    /// A cancelled long-poll written after the leave would reach the origin after it and join `names` again (with
    /// the old uuid after a UUID change, docs/BEHAVIOR.md §2.10). So the leave waits until the transport reported the
    /// requests `after` (the long-polls the change cancelled) ended, and goes out on the long-poll lane, as 3.4 sent
    /// it on the messaging socket: that lane drops the cancelled exchange before it starts the leave, so a long-poll
    /// already written is on the wire ahead of it. On the wire only: it has a connection of its own, and the origin
    /// may still take it after the leave (docs/BEHAVIOR.md §3.6). The 10 s bound counts from this call, the wait
    /// included.
    func sendLeave(_ names: [String], after replaced: Set<Int> = [], completion: @escaping () -> Void) {
        guard self.connection.allowsBestEffortRequests, !names.isEmpty,
            let settings = self.settings
        else {
            completion()
            return
        }
        var task: (any TransportTask)?
        let conclude = self.oneShot(
            timeout: settings.nonSubscriptionRequestTimeout,
            timedOut: { task?.cancel() },
            completion
        )
        self.loop.whenRequestsEnd(replaced) {
            guard !conclude.isSpent else { return }
            guard self.connection.isConnected else {
                conclude.fire(())
                return
            }
            task = self.send(
                .leave(channels: names),
                lane: self.longPollLane,
                timeout: settings.nonSubscriptionRequestTimeout
            ) { result in
                if case .failure(let failure) = result { self.transportFailed(failure) }
                conclude.fire(())
            }
        }
    }

    // MARK: - Presence observation

    /// `enablePresenceObservationForChannels:withCompletionHandlingBlock:`.
    func enablePresenceObservation(_ channels: [PNChannel], block: UserBlock<PNClientPresenceEnableHandlingBlock>?) {
        let refusal = Self.channelsRefusal(channels, block, ClientEvent.presenceObservationEnablingDidFail)
        self.submit("enable presence observation", refusal: refusal) { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                error.setAssociatedObject(channels)
                self.emit(
                    .presenceObservationEnablingDidFail(error),
                    completion: block.map { box in DeliveryBlock { box.block(channels, error) } }
                )
                self.finish(operation)
            }
            if let error = Self.invalidChannelError(channels) ?? self.preflightError(associatedObject: channels) {
                fail(error)
                return
            }
            for channel in channels where !channel.isPresenceObserver() {
                channel.shouldObservePresence = true
                channel.isUserDefinedPresenceObservation = true
            }
            self.remember(channels)
            let companions = channels.map { PNChannelPresence.presenceForChannel($0).name }
            self.subscriptionChanges[operation.id] = SubscriptionChange(
                onSuccess: { [unowned self] in
                    self.emit(
                        .didEnablePresenceObservation(channels),
                        completion: block.map { box in DeliveryBlock { box.block(channels, nil) } }
                    )
                    self.finish(operation)
                },
                onFailure: { failure in
                    fail(PNError.fromSubscribe(failure, timeoutMessage: "Subscription failed by timeout"))
                }
            )
            operation.onAbort = { [unowned self] code in
                self.subscriptionChanges[operation.id] = nil
                fail(PNError(code: code, category: .networkIssues))
            }
            self.loop.subscribe(op: operation.id, adding: companions, withPresenceEvent: false)
        }
    }

    /// `disablePresenceObservationForChannels:withCompletionHandlingBlock:`: companions leave the subscription
    /// without a leave request; completes at once.
    func disablePresenceObservation(
        _ channels: [PNChannel],
        block: UserBlock<PNClientPresenceDisableHandlingBlock>?
    ) {
        let refusal = Self.channelsRefusal(channels, block, ClientEvent.presenceObservationDisablingDidFail)
        self.submit("disable presence observation", refusal: refusal) { operation in
            if let error = Self.invalidChannelError(channels) ?? self.preflightError(associatedObject: channels) {
                error.setAssociatedObject(channels)
                self.emit(
                    .presenceObservationDisablingDidFail(error),
                    completion: block.map { box in DeliveryBlock { box.block(channels, error) } }
                )
                self.finish(operation)
                return
            }
            let companions = channels.map { PNChannelPresence.presenceForChannel($0).name }
            _ = self.loop.unsubscribe(removing: companions)
            for channel in channels where !channel.isPresenceObserver() {
                channel.shouldObservePresence = false
                channel.isUserDefinedPresenceObservation = false
            }
            self.emit(
                .didDisablePresenceObservation(channels),
                completion: block.map { box in DeliveryBlock { box.block(channels, nil) } }
            )
            self.finish(operation)
        }
    }

    // MARK: - Loop callbacks

    /// The change of operation `op` is in effect.
    func subscriptionChangeCompleted(op: Int) {
        self.subscriptionChanges.removeValue(forKey: op)?.onSuccess()
    }

    /// The change of operation `op` failed.
    func subscriptionChangeFailed(op: Int, _ failure: SubscribeFailure) {
        self.subscriptionChanges.removeValue(forKey: op)?.onFailure(failure)
    }

    /// The running subscription failed outside any call.
    func subscriptionLoopFailed(channels: [String], _ failure: SubscribeFailure) {
        let error = PNError.fromSubscribe(failure, timeoutMessage: "Subscription failed by timeout")
        error.setAssociatedObject(Self.regularChannels(channels))
        self.emit(.subscriptionDidFail(error))
    }

    /// One answer carried at least `requestMessageCountThreshold` events (docs/BEHAVIOR.md §3.9).
    func messageCountExceeded(_ count: Int) {
        let threshold = self.settings?.requestMessageCountThreshold ?? 0
        self.emit(
            .error(
                PNError(
                    message: "Subscribe response carried \(count) messages (threshold \(threshold))",
                    code: kPNRequestMessageCountExceededError,
                    category: .messageCountExceeded,
                    associatedObject: count
                )
            )
        )
    }

    /// The batch that delivers the events of `response` in array order (docs/BEHAVIOR.md §3.5, §3.10, §3.11): presence
    /// events are recognised and applied to their channel now; messages are left as an index, decoded (and decrypted)
    /// on the delivery queue when their turn comes. Envelopes whose channel and publish timetoken are in `recent` (the
    /// previous answer's) are skipped as catch-up repeats (docs/BEHAVIOR.md §3.7); on return `recent` holds this
    /// answer's — its last `recentKeyLimit` messages: a catch-up can only repeat the end of an answer, and the keys of
    /// a 100,000-message answer would otherwise stay in memory until the next one.
    func subscribeBatch(for response: SubscribeResponse, recent: inout Set<MessageKey>) -> SubscribeBatch {
        var items: [SubscribeBatch.Item] = []
        items.reserveCapacity(response.messages.count)
        var keys: Set<MessageKey> = []
        let keptFrom = response.messages.count - Self.recentKeyLimit
        var channels: [String: PNChannel] = [:]
        for (index, envelope) in response.messages.enumerated() {
            guard let name = envelope.channel else {
                items.append(.message(index: index, channel: nil))
                continue
            }
            if let token = envelope.publishTimetoken {
                let key = MessageKey(channel: name, timetoken: token)
                if index >= keptFrom { keys.insert(key) }
                if recent.contains(key) { continue }
            }
            if PNChannelPresence.isPresenceObservingChannelName(name),
                case .value(let payload) = response.payload(of: envelope)
            {
                let base = String(name.dropLast(PNChannelPresence.presenceSuffix.count))
                let observed = self.channelObject(named: base)
                if let event = PNPresenceEvent(eventObject: payload, channel: observed) {
                    observed.updateWithEvent(event)
                    items.append(.presence(event))
                    continue
                }
                if let interval = PresenceInterval(payload) {
                    items += interval.applied(to: observed).map { .presence($0) }
                    continue
                }
            }
            let channel: PNChannel
            if let known = channels[name] {
                channel = known
            } else {
                channel = self.channelObject(named: name)
                channels[name] = channel
            }
            items.append(.message(index: index, channel: channel))
        }
        recent = keys
        return SubscribeBatch(
            response: response,
            items: items,
            receiveDate: PNDate(timeToken: response.timetoken),
            cryptor: self.cryptor
        )
    }
}

extension ClientEngine {
    /// Messages at the end of an answer whose keys are kept to drop repeats from the next one: ten PubNub answers.
    static let recentKeyLimit = 1_000
}

/// A received message's identity for dropping catch-up repeats: its channel and publish timetoken.
struct MessageKey: Hashable {
    var channel: String
    var timetoken: UInt64
}
