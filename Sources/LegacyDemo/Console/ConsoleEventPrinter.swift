import Foundation
import PubNubLegacy

/// Prints every client event once per channel it comes through: this file is the `[delegate]` channel (a
/// `PNDelegate` implementing all 36 event methods); `ConsoleEventPrinter+Observers.swift` registers the
/// `[observer]` channel with `PNObservationCenter.defaultCenter()` and the `[notification]` channel with
/// `NotificationCenter.default`. Completion blocks print `[block]` lines from the session's commands.
///
/// All callbacks arrive on the client's delivery queue. Each line names the 3.4 method, bucket or notification,
/// then `key=value` fields (see `ConsoleFormat`), e.g. `[delegate] didReceiveMessage channel=a message="hello"`.
final class ConsoleEventPrinter: PNDelegate, @unchecked Sendable {
    // @unchecked: the stored properties are immutable references to types that are themselves thread-safe.
    let output: ConsoleOutput
    let state: ConsoleState

    init(output: ConsoleOutput, state: ConsoleState) {
        self.output = output
        self.state = state
    }

    private func say(_ name: String, _ fields: String = "") {
        self.output.line("[delegate] \(name)\(fields.isEmpty ? "" : " " + fields)")
    }

    // MARK: - Connection

    func pubnubClient(_ client: PubNub, error: PNError) {
        self.say("error", ConsoleFormat.error(error))
    }

    func pubnubClient(_ client: PubNub, willConnectToOrigin: String) {
        self.say("willConnectToOrigin", "origin=\(willConnectToOrigin)")
    }

    func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.say("didConnectToOrigin", "origin=\(didConnectToOrigin)")
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.say("didDisconnectFromOrigin", "origin=\(didDisconnectFromOrigin)")
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {
        self.say(
            "didDisconnectFromOriginWithError",
            "origin=\(didDisconnectFromOrigin) \(ConsoleFormat.error(withError))"
        )
    }

    func pubnubClient(_ client: PubNub, willDisconnectWithError: PNError) {
        self.say("willDisconnectWithError", ConsoleFormat.error(willDisconnectWithError))
    }

    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {
        self.say("connectionDidFailWithError", ConsoleFormat.error(connectionDidFailWithError))
    }

    // MARK: - Subscription

    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.say("didSubscribeOnChannels", "channels=\(ConsoleFormat.channels(didSubscribeOnChannels))")
    }

    func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel]) {
        self.say(
            "willRestoreSubscriptionOnChannels",
            "channels=\(ConsoleFormat.channels(willRestoreSubscriptionOnChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {
        self.say(
            "didRestoreSubscriptionOnChannels",
            "channels=\(ConsoleFormat.channels(didRestoreSubscriptionOnChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {
        self.failure("subscriptionDidFailWithError", subscriptionDidFailWithError)
    }

    func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel]) {
        self.say("didUnsubscribeOnChannels", "channels=\(ConsoleFormat.channels(didUnsubscribeOnChannels))")
    }

    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError) {
        self.failure("unsubscriptionDidFailWithError", unsubscriptionDidFailWithError)
    }

    // MARK: - Presence observation

    func pubnubClient(_ client: PubNub, didEnablePresenceObservationOnChannels: [PNChannel]) {
        self.say(
            "didEnablePresenceObservationOnChannels",
            "channels=\(ConsoleFormat.channels(didEnablePresenceObservationOnChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: PNError) {
        self.failure("presenceObservationEnablingDidFailWithError", presenceObservationEnablingDidFailWithError)
    }

    func pubnubClient(_ client: PubNub, didDisablePresenceObservationOnChannels: [PNChannel]) {
        self.say(
            "didDisablePresenceObservationOnChannels",
            "channels=\(ConsoleFormat.channels(didDisablePresenceObservationOnChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: PNError) {
        self.failure("presenceObservationDisablingDidFailWithError", presenceObservationDisablingDidFailWithError)
    }

    // MARK: - Push notifications

    func pubnubClient(_ client: PubNub, didEnablePushNotificationsOnChannels: [PNChannel]) {
        self.say(
            "didEnablePushNotificationsOnChannels",
            "channels=\(ConsoleFormat.channels(didEnablePushNotificationsOnChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: PNError) {
        self.failure("pushNotificationEnableDidFailWithError", pushNotificationEnableDidFailWithError)
    }

    func pubnubClient(_ client: PubNub, didDisablePushNotificationsOnChannels: [PNChannel]) {
        self.say(
            "didDisablePushNotificationsOnChannels",
            "channels=\(ConsoleFormat.channels(didDisablePushNotificationsOnChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: PNError) {
        self.failure("pushNotificationDisableDidFailWithError", pushNotificationDisableDidFailWithError)
    }

    func pubnubClientDidRemovePushNotifications(_ client: PubNub) {
        self.say("didRemovePushNotifications")
    }

    func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: PNError) {
        self.say(
            "pushNotificationsRemoveFromChannelsDidFailWithError",
            ConsoleFormat.error(pushNotificationsRemoveFromChannelsDidFailWithError)
        )
    }

    func pubnubClient(_ client: PubNub, didReceivePushNotificationEnabledChannels: [PNChannel]) {
        self.say(
            "didReceivePushNotificationEnabledChannels",
            "channels=\(ConsoleFormat.channels(didReceivePushNotificationEnabledChannels))"
        )
    }

    func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: PNError) {
        self.say(
            "pushNotificationEnabledChannelsReceiveDidFailWithError",
            ConsoleFormat.error(pushNotificationEnabledChannelsReceiveDidFailWithError)
        )
    }

    // MARK: - Time token and messages

    func pubnubClient(_ client: PubNub, didReceiveTimeToken: NSNumber) {
        self.say("didReceiveTimeToken", "token=\(didReceiveTimeToken.uint64Value)")
    }

    func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: PNError) {
        self.say("timeTokenReceiveDidFailWithError", ConsoleFormat.error(timeTokenReceiveDidFailWithError))
    }

    func pubnubClient(_ client: PubNub, willSendMessage: PNMessage) {
        self.say("willSendMessage", ConsoleFormat.outgoing(willSendMessage))
    }

    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {
        self.say(
            "didFailMessageSend",
            "\(ConsoleFormat.outgoing(didFailMessageSend)) \(ConsoleFormat.error(withError))"
        )
    }

    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        self.say("didSendMessage", ConsoleFormat.outgoing(didSendMessage))
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        self.say("didReceiveMessage", ConsoleFormat.incoming(didReceiveMessage))
    }

    func pubnubClient(_ client: PubNub, didReceivePresenceEvent: PNPresenceEvent) {
        self.say("didReceivePresenceEvent", ConsoleFormat.presence(didReceivePresenceEvent))
    }

    // MARK: - History and participants

    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    ) {
        self.say(
            "didReceiveMessageHistory",
            ConsoleFormat.history(didReceiveMessageHistory, forChannel, startingFrom, to)
        )
    }

    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: PNError) {
        self.say(
            "didFailHistoryDownloadForChannel",
            "channel=\(didFailHistoryDownloadForChannel?.name ?? "-") \(ConsoleFormat.error(withError))"
        )
    }

    func pubnubClient(_ client: PubNub, didReceiveParticipantsList: [String], forChannel: PNChannel) {
        self.say("didReceiveParticipantsList", ConsoleFormat.participants(didReceiveParticipantsList, forChannel))
    }

    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel?, withError: PNError) {
        self.say(
            "didFailParticipantsListDownloadForChannel",
            "channel=\(didFailParticipantsListDownloadForChannel?.name ?? "-") \(ConsoleFormat.error(withError))"
        )
    }

    /// A failure that carries the channels it concerns in the error's associated object.
    private func failure(_ name: String, _ error: PNError) {
        self.say(name, "channels=\(ConsoleFormat.associatedChannels(error)) \(ConsoleFormat.error(error))")
    }
}
