import Foundation

@testable import PubNubLegacy

/// A `PNDelegate` that reports every callback `ClientEvent.send(to:from:)` makes first for an event — the canonical
/// shape of each of the 36 — to `delegateCallback(_:_:)`, named after its `ClientEvent` case (`didReceiveMessage`,
/// `subscriptionDidFail`, …) and carrying the callback's argument (the error for a failure; a time token as
/// `UInt64`). The one mapping of the test recorders: `EventDispatcherTests.everyEventCallsItsDelegateMethod` checks
/// it against the library's own, event by event. Callbacks arrive on the client's delivery queue.
class NamingDelegate: PNDelegate, @unchecked Sendable {
    // @unchecked: no stored state here; subclasses keep theirs in lock boxes.

    /// Receives each callback, on the delivery queue; subclasses record it.
    func delegateCallback(_ name: String, _ payload: Any?) {
        preconditionFailure("a NamingDelegate subclass overrides delegateCallback")
    }

    /// No answer (the protocol's default); a subclass may answer.
    func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber? { nil }

    func pubnubClient(_ client: PubNub, error: PNError) { self.delegateCallback("error", error) }
    func pubnubClient(_ client: PubNub, willConnectToOrigin: String) {
        self.delegateCallback("willConnect", willConnectToOrigin)
    }
    func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.delegateCallback("didConnect", didConnectToOrigin)
    }
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.delegateCallback("didDisconnect", didDisconnectFromOrigin)
    }
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {
        self.delegateCallback("didDisconnectWithError", withError)
    }
    func pubnubClient(_ client: PubNub, willDisconnectWithError: PNError) {
        self.delegateCallback("willDisconnectWithError", willDisconnectWithError)
    }
    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {
        self.delegateCallback("connectionDidFail", connectionDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.delegateCallback("didSubscribe", didSubscribeOnChannels)
    }
    func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel]) {
        self.delegateCallback("willRestoreSubscription", willRestoreSubscriptionOnChannels)
    }
    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {
        self.delegateCallback("didRestoreSubscription", didRestoreSubscriptionOnChannels)
    }
    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {
        self.delegateCallback("subscriptionDidFail", subscriptionDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel]) {
        self.delegateCallback("didUnsubscribe", didUnsubscribeOnChannels)
    }
    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError) {
        self.delegateCallback("unsubscriptionDidFail", unsubscriptionDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didEnablePresenceObservationOnChannels: [PNChannel]) {
        self.delegateCallback("didEnablePresenceObservation", didEnablePresenceObservationOnChannels)
    }
    func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: PNError) {
        self.delegateCallback("presenceObservationEnablingDidFail", presenceObservationEnablingDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didDisablePresenceObservationOnChannels: [PNChannel]) {
        self.delegateCallback("didDisablePresenceObservation", didDisablePresenceObservationOnChannels)
    }
    func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: PNError) {
        self.delegateCallback("presenceObservationDisablingDidFail", presenceObservationDisablingDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didEnablePushNotificationsOnChannels: [PNChannel]) {
        self.delegateCallback("didEnablePushNotifications", didEnablePushNotificationsOnChannels)
    }
    func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: PNError) {
        self.delegateCallback("pushNotificationEnableDidFail", pushNotificationEnableDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didDisablePushNotificationsOnChannels: [PNChannel]) {
        self.delegateCallback("didDisablePushNotifications", didDisablePushNotificationsOnChannels)
    }
    func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: PNError) {
        self.delegateCallback("pushNotificationDisableDidFail", pushNotificationDisableDidFailWithError)
    }
    func pubnubClientDidRemovePushNotifications(_ client: PubNub) {
        self.delegateCallback("didRemovePushNotifications", nil)
    }
    func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: PNError) {
        self.delegateCallback("pushNotificationRemoveDidFail", pushNotificationsRemoveFromChannelsDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didReceivePushNotificationEnabledChannels: [PNChannel]) {
        self.delegateCallback("didReceivePushNotificationEnabledChannels", didReceivePushNotificationEnabledChannels)
    }
    func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: PNError) {
        self.delegateCallback(
            "pushNotificationEnabledChannelsDidFail",
            pushNotificationEnabledChannelsReceiveDidFailWithError
        )
    }
    func pubnubClient(_ client: PubNub, didReceiveTimeToken: NSNumber) {
        self.delegateCallback("didReceiveTimeToken", didReceiveTimeToken.uint64Value)
    }
    func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: PNError) {
        self.delegateCallback("timeTokenReceiveDidFail", timeTokenReceiveDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, willSendMessage: PNMessage) {
        self.delegateCallback("willSendMessage", willSendMessage)
    }
    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {
        self.delegateCallback("messageSendDidFail", withError)
    }
    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        self.delegateCallback("didSendMessage", didSendMessage)
    }
    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        self.delegateCallback("didReceiveMessage", didReceiveMessage)
    }
    func pubnubClient(_ client: PubNub, didReceivePresenceEvent: PNPresenceEvent) {
        self.delegateCallback("didReceivePresenceEvent", didReceivePresenceEvent)
    }
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    ) {
        self.delegateCallback("didReceiveMessageHistory", didReceiveMessageHistory)
    }
    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: PNError) {
        self.delegateCallback("historyDownloadDidFail", withError)
    }
    func pubnubClient(_ client: PubNub, didReceiveParticipantsList: [String], forChannel: PNChannel) {
        self.delegateCallback("didReceiveParticipantsList", didReceiveParticipantsList)
    }
    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel?, withError: PNError) {
        self.delegateCallback("participantsListDownloadDidFail", withError)
    }
}
