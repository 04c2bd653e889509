import Foundation
import PubNubLegacy

/// Prints every client event once per channel it comes through: this file is the `[delegate]` channel (a
/// `PNDelegate` hearing all 36 event methods through the library's `DelegateCallbackReceiver`);
/// `ConsoleEventPrinter+Observers.swift` registers the `[observer]` channel with
/// `PNObservationCenter.defaultCenter()` and the `[notification]` channel with `NotificationCenter.default`.
/// Completion blocks print `[block]` lines from the session's commands.
///
/// All callbacks arrive on the client's delivery queue. Each line names the 3.4 method, bucket or notification,
/// then `key=value` fields (see `ConsoleFormat`), e.g. `[delegate] didReceiveMessage channel=a message="hello"`.
final class ConsoleEventPrinter: DelegateCallbackReceiver, @unchecked Sendable {
    // @unchecked: the stored properties are immutable references to types that are themselves thread-safe.
    let output: ConsoleOutput
    let state: ConsoleState

    init(output: ConsoleOutput, state: ConsoleState) {
        self.output = output
        self.state = state
    }

    /// Prints the `[delegate]` line of `callback`. Runs on the delivery queue.
    func receive(_ callback: DelegateCallback, from client: PubNub) {
        self.output.line(Self.line(callback))
    }

    /// The `[delegate]` line of `callback`: the method's name, then its fields if it has any.
    static func line(_ callback: DelegateCallback) -> String {
        let (name, fields) = Self.nameAndFields(callback)
        return "[delegate] \(name)\(fields.isEmpty ? "" : " " + fields)"
    }

    private static func nameAndFields(_ callback: DelegateCallback) -> (name: String, fields: String) {
        switch callback {
        // Connection
        case .error(let error):
            return ("error", ConsoleFormat.error(error))
        case .willConnect(let origin):
            return ("willConnectToOrigin", "origin=\(origin)")
        case .didConnect(let origin):
            return ("didConnectToOrigin", "origin=\(origin)")
        case .didDisconnect(let origin):
            return ("didDisconnectFromOrigin", "origin=\(origin)")
        case .didDisconnectWithError(let origin, let error):
            return ("didDisconnectFromOriginWithError", "origin=\(origin) \(ConsoleFormat.error(error))")
        case .willDisconnectWithError(let error):
            return ("willDisconnectWithError", ConsoleFormat.error(error))
        case .connectionDidFail(let error):
            return ("connectionDidFailWithError", ConsoleFormat.error(error))

        // Subscription
        case .didSubscribe(let channels):
            return ("didSubscribeOnChannels", Self.channels(channels))
        case .willRestoreSubscription(let channels):
            return ("willRestoreSubscriptionOnChannels", Self.channels(channels))
        case .didRestoreSubscription(let channels):
            return ("didRestoreSubscriptionOnChannels", Self.channels(channels))
        case .subscriptionDidFail(let error):
            return ("subscriptionDidFailWithError", Self.failure(error))
        case .didUnsubscribe(let channels):
            return ("didUnsubscribeOnChannels", Self.channels(channels))
        case .unsubscriptionDidFail(let error):
            return ("unsubscriptionDidFailWithError", Self.failure(error))

        // Presence observation
        case .didEnablePresenceObservation(let channels):
            return ("didEnablePresenceObservationOnChannels", Self.channels(channels))
        case .presenceObservationEnablingDidFail(let error):
            return ("presenceObservationEnablingDidFailWithError", Self.failure(error))
        case .didDisablePresenceObservation(let channels):
            return ("didDisablePresenceObservationOnChannels", Self.channels(channels))
        case .presenceObservationDisablingDidFail(let error):
            return ("presenceObservationDisablingDidFailWithError", Self.failure(error))

        // Push notifications
        case .didEnablePushNotifications(let channels):
            return ("didEnablePushNotificationsOnChannels", Self.channels(channels))
        case .pushNotificationEnableDidFail(let error):
            return ("pushNotificationEnableDidFailWithError", Self.failure(error))
        case .didDisablePushNotifications(let channels):
            return ("didDisablePushNotificationsOnChannels", Self.channels(channels))
        case .pushNotificationDisableDidFail(let error):
            return ("pushNotificationDisableDidFailWithError", Self.failure(error))
        case .didRemovePushNotifications:
            return ("didRemovePushNotifications", "")
        case .pushNotificationRemoveDidFail(let error):
            return ("pushNotificationsRemoveFromChannelsDidFailWithError", ConsoleFormat.error(error))
        case .didReceivePushNotificationEnabledChannels(let channels):
            return ("didReceivePushNotificationEnabledChannels", Self.channels(channels))
        case .pushNotificationEnabledChannelsDidFail(let error):
            return ("pushNotificationEnabledChannelsReceiveDidFailWithError", ConsoleFormat.error(error))

        // Time token and messages
        case .didReceiveTimeToken(let token):
            return ("didReceiveTimeToken", "token=\(token.uint64Value)")
        case .timeTokenReceiveDidFail(let error):
            return ("timeTokenReceiveDidFailWithError", ConsoleFormat.error(error))
        case .willSendMessage(let message):
            return ("willSendMessage", ConsoleFormat.outgoing(message))
        case .messageSendDidFail(let message, let error):
            return ("didFailMessageSend", "\(ConsoleFormat.outgoing(message)) \(ConsoleFormat.error(error))")
        case .didSendMessage(let message):
            return ("didSendMessage", ConsoleFormat.outgoing(message))
        case .didReceiveMessage(let message):
            return ("didReceiveMessage", ConsoleFormat.incoming(message))
        case .didReceivePresenceEvent(let event):
            return ("didReceivePresenceEvent", ConsoleFormat.presence(event))

        // History and participants
        case .didReceiveMessageHistory(let messages, let channel, let start, let end):
            return ("didReceiveMessageHistory", ConsoleFormat.history(messages, channel, start, end))
        case .historyDownloadDidFail(let channel, let error):
            return ("didFailHistoryDownloadForChannel", "channel=\(channel?.name ?? "-") \(ConsoleFormat.error(error))")
        case .didReceiveParticipantsList(let participants, let channel):
            return ("didReceiveParticipantsList", ConsoleFormat.participants(participants, channel))
        case .participantsListDownloadDidFail(let channel, let error):
            return (
                "didFailParticipantsListDownloadForChannel",
                "channel=\(channel?.name ?? "-") \(ConsoleFormat.error(error))"
            )
        }
    }

    private static func channels(_ channels: [PNChannel]) -> String {
        "channels=\(ConsoleFormat.channels(channels))"
    }

    /// A failure that carries the channels it concerns in the error's associated object.
    private static func failure(_ error: PNError) -> String {
        "channels=\(ConsoleFormat.associatedChannels(error)) \(ConsoleFormat.error(error))"
    }
}
