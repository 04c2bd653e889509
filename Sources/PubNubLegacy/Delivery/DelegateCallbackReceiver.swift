import Foundation

// The one mapping from `PNDelegate` event methods to `DelegateCallback` values (docs/API-3.4.md §2.3).

/// A `PNDelegate` that hears every event callback as one `DelegateCallback` value, in `receive(_:from:)`.
///
/// Conforming is all it takes: this protocol's extension implements the canonical shape of each of the 36 event
/// methods by building the case and calling `receive(_:from:)` synchronously, so the value arrives on the
/// client's delivery queue, in the order the library calls the delegate. The other shapes (`NSError`, `Date`,
/// non-optional arguments) keep `PNDelegate`'s empty defaults, so each event is received exactly once. The
/// `should…` questions are not events: a conformer answers them by implementing them as any delegate does (a
/// class may leave them overridable by its subclasses). A protocol rather than a base class, because a `package`
/// class cannot be subclassed outside its module.
package protocol DelegateCallbackReceiver: PNDelegate {
    /// Receives one event callback of `client`, on the client's delivery queue.
    func receive(_ callback: DelegateCallback, from client: PubNub)
}

extension DelegateCallbackReceiver {
    /// Hands `.error` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, error: PNError) {
        self.receive(.error(error), from: client)
    }

    /// Hands `.willConnect` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, willConnectToOrigin: String) {
        self.receive(.willConnect(origin: willConnectToOrigin), from: client)
    }

    /// Hands `.didConnect` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.receive(.didConnect(origin: didConnectToOrigin), from: client)
    }

    /// Hands `.didDisconnect` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.receive(.didDisconnect(origin: didDisconnectFromOrigin), from: client)
    }

    /// Hands `.didDisconnectWithError` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {
        self.receive(.didDisconnectWithError(origin: didDisconnectFromOrigin, withError), from: client)
    }

    /// Hands `.willDisconnectWithError` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, willDisconnectWithError: PNError) {
        self.receive(.willDisconnectWithError(willDisconnectWithError), from: client)
    }

    /// Hands `.connectionDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {
        self.receive(.connectionDidFail(connectionDidFailWithError), from: client)
    }

    /// Hands `.didSubscribe` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.receive(.didSubscribe(didSubscribeOnChannels), from: client)
    }

    /// Hands `.willRestoreSubscription` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel]) {
        self.receive(.willRestoreSubscription(willRestoreSubscriptionOnChannels), from: client)
    }

    /// Hands `.didRestoreSubscription` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {
        self.receive(.didRestoreSubscription(didRestoreSubscriptionOnChannels), from: client)
    }

    /// Hands `.subscriptionDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {
        self.receive(.subscriptionDidFail(subscriptionDidFailWithError), from: client)
    }

    /// Hands `.didUnsubscribe` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel]) {
        self.receive(.didUnsubscribe(didUnsubscribeOnChannels), from: client)
    }

    /// Hands `.unsubscriptionDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError) {
        self.receive(.unsubscriptionDidFail(unsubscriptionDidFailWithError), from: client)
    }

    /// Hands `.didEnablePresenceObservation` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didEnablePresenceObservationOnChannels: [PNChannel]) {
        self.receive(.didEnablePresenceObservation(didEnablePresenceObservationOnChannels), from: client)
    }

    /// Hands `.presenceObservationEnablingDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: PNError) {
        self.receive(.presenceObservationEnablingDidFail(presenceObservationEnablingDidFailWithError), from: client)
    }

    /// Hands `.didDisablePresenceObservation` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didDisablePresenceObservationOnChannels: [PNChannel]) {
        self.receive(.didDisablePresenceObservation(didDisablePresenceObservationOnChannels), from: client)
    }

    /// Hands `.presenceObservationDisablingDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: PNError) {
        self.receive(.presenceObservationDisablingDidFail(presenceObservationDisablingDidFailWithError), from: client)
    }

    /// Hands `.didEnablePushNotifications` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didEnablePushNotificationsOnChannels: [PNChannel]) {
        self.receive(.didEnablePushNotifications(didEnablePushNotificationsOnChannels), from: client)
    }

    /// Hands `.pushNotificationEnableDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: PNError) {
        self.receive(.pushNotificationEnableDidFail(pushNotificationEnableDidFailWithError), from: client)
    }

    /// Hands `.didDisablePushNotifications` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didDisablePushNotificationsOnChannels: [PNChannel]) {
        self.receive(.didDisablePushNotifications(didDisablePushNotificationsOnChannels), from: client)
    }

    /// Hands `.pushNotificationDisableDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: PNError) {
        self.receive(.pushNotificationDisableDidFail(pushNotificationDisableDidFailWithError), from: client)
    }

    /// Hands `.didRemovePushNotifications` to `receive(_:from:)`.
    package func pubnubClientDidRemovePushNotifications(_ client: PubNub) {
        self.receive(.didRemovePushNotifications, from: client)
    }

    /// Hands `.pushNotificationRemoveDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: PNError) {
        self.receive(.pushNotificationRemoveDidFail(pushNotificationsRemoveFromChannelsDidFailWithError), from: client)
    }

    /// Hands `.didReceivePushNotificationEnabledChannels` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didReceivePushNotificationEnabledChannels: [PNChannel]) {
        self.receive(
            .didReceivePushNotificationEnabledChannels(didReceivePushNotificationEnabledChannels),
            from: client
        )
    }

    /// Hands `.pushNotificationEnabledChannelsDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: PNError) {
        self.receive(
            .pushNotificationEnabledChannelsDidFail(pushNotificationEnabledChannelsReceiveDidFailWithError),
            from: client
        )
    }

    /// Hands `.didReceiveTimeToken` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didReceiveTimeToken: NSNumber) {
        self.receive(.didReceiveTimeToken(didReceiveTimeToken), from: client)
    }

    /// Hands `.timeTokenReceiveDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: PNError) {
        self.receive(.timeTokenReceiveDidFail(timeTokenReceiveDidFailWithError), from: client)
    }

    /// Hands `.willSendMessage` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, willSendMessage: PNMessage) {
        self.receive(.willSendMessage(willSendMessage), from: client)
    }

    /// Hands `.messageSendDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {
        self.receive(.messageSendDidFail(didFailMessageSend, withError), from: client)
    }

    /// Hands `.didSendMessage` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        self.receive(.didSendMessage(didSendMessage), from: client)
    }

    /// Hands `.didReceiveMessage` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        self.receive(.didReceiveMessage(didReceiveMessage), from: client)
    }

    /// Hands `.didReceivePresenceEvent` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didReceivePresenceEvent: PNPresenceEvent) {
        self.receive(.didReceivePresenceEvent(didReceivePresenceEvent), from: client)
    }

    /// Hands `.didReceiveMessageHistory` to `receive(_:from:)`.
    package func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    ) {
        self.receive(
            .didReceiveMessageHistory(
                didReceiveMessageHistory,
                channel: forChannel,
                startingFrom: startingFrom,
                to: to
            ),
            from: client
        )
    }

    /// Hands `.historyDownloadDidFail` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: PNError) {
        self.receive(.historyDownloadDidFail(didFailHistoryDownloadForChannel, withError), from: client)
    }

    /// Hands `.didReceiveParticipantsList` to `receive(_:from:)`.
    package func pubnubClient(_ client: PubNub, didReceiveParticipantsList: [String], forChannel: PNChannel) {
        self.receive(.didReceiveParticipantsList(didReceiveParticipantsList, channel: forChannel), from: client)
    }

    /// Hands `.participantsListDownloadDidFail` to `receive(_:from:)`.
    package func pubnubClient(
        _ client: PubNub,
        didFailParticipantsListDownloadForChannel: PNChannel?,
        withError: PNError
    ) {
        self.receive(
            .participantsListDownloadDidFail(didFailParticipantsListDownloadForChannel, withError),
            from: client
        )
    }
}
