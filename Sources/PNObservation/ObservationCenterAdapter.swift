import Foundation
import PubNubLegacy

// The observation-center adapter (docs/DESIGN.md §4): turns each client event into
// the call of one bucket of one center, with the arguments of the event matrix (docs/API-3.4.md §3.2). It sits in
// the client's observation-center slot, so it runs on the delivery queue after the delegate and before the
// notification and the completion block.

/// Feeds one `PNObservationCenter` from every client it was installed on.
///
/// Held strongly by those clients and holding its center strongly, so a center lives as long as a client it
/// observes; the center keeps only a weak reference back (`PNObservationCenter.adapter`).
final class ObservationCenterAdapter: ClientEventSink {
    let center: PNObservationCenter

    init(center: PNObservationCenter) {
        self.center = center
    }

    func handle(_ event: ClientEvent, from client: PubNub) {
        let center = self.center
        switch event {
        // 3.4's center relayed neither of these (docs/API-3.4.md §2.2, last line).
        case .error, .willConnect:
            break
        case .didConnect(let origin):
            center.deliverConnectionState(origin: origin, connected: true, error: nil)
        case .didDisconnect(let origin):
            center.deliverConnectionState(origin: origin, connected: false, error: nil)
        case .didDisconnectWithError(_, let error), .willDisconnectWithError(let error), .connectionDidFail(let error):
            // The matrix gives the configured origin for all three causes.
            center.deliverConnectionState(origin: client.configuredOrigin ?? "", connected: false, error: error)
        case .didSubscribe(let channels):
            center.deliverSubscriptionState(.PNSubscriptionProcessSubscribedState, channels: channels, error: nil)
        case .willRestoreSubscription(let channels):
            center.deliverSubscriptionState(.PNSubscriptionProcessWillRestoreState, channels: channels, error: nil)
        case .didRestoreSubscription(let channels):
            center.deliverSubscriptionState(.PNSubscriptionProcessRestoredState, channels: channels, error: nil)
        case .subscriptionDidFail(let error):
            center.deliverSubscriptionState(
                .PNSubscriptionProcessNotSubscribedState,
                channels: Self.channels(of: error),
                error: error
            )
        case .didUnsubscribe(let channels):
            center.deliverUnsubscription(channels: channels, error: nil)
        case .unsubscriptionDidFail(let error):
            center.deliverUnsubscription(channels: Self.channels(of: error), error: error)
        case .didEnablePresenceObservation(let channels):
            center.deliverPresenceEnabling(channels: channels, error: nil)
        case .presenceObservationEnablingDidFail(let error):
            center.deliverPresenceEnabling(channels: Self.channels(of: error), error: error)
        case .didDisablePresenceObservation(let channels):
            center.deliverPresenceDisabling(channels: channels, error: nil)
        case .presenceObservationDisablingDidFail(let error):
            center.deliverPresenceDisabling(channels: Self.channels(of: error), error: error)
        case .didEnablePushNotifications(let channels):
            center.deliverPushNotificationsEnable(channels: channels, error: nil)
        case .pushNotificationEnableDidFail(let error):
            center.deliverPushNotificationsEnable(channels: Self.channels(of: error), error: error)
        case .didDisablePushNotifications(let channels):
            center.deliverPushNotificationsDisable(channels: channels, error: nil)
        case .pushNotificationDisableDidFail(let error):
            // docs/DESIGN.md §5 D4: 3.4 sent these to the push-enable observers; here they reach the disable observers.
            center.deliverPushNotificationsDisable(channels: Self.channels(of: error), error: error)
        case .didRemovePushNotifications:
            center.deliverPushNotificationsRemove(error: nil)
        case .pushNotificationRemoveDidFail(let error):
            center.deliverPushNotificationsRemove(error: error)
        case .didReceivePushNotificationEnabledChannels(let channels):
            center.deliverPushNotificationsEnabledChannels(channels: channels, error: nil)
        case .pushNotificationEnabledChannelsDidFail(let error):
            center.deliverPushNotificationsEnabledChannels(channels: nil, error: error)
        case .didReceiveTimeToken(let token):
            center.deliverTimeToken(NSNumber(value: token), error: nil)
        case .timeTokenReceiveDidFail(let error):
            center.deliverTimeToken(nil, error: error)
        case .willSendMessage(let message):
            center.deliverMessageProcessing(state: .PNMessageSending, data: message)
        case .didSendMessage(let message):
            center.deliverMessageProcessing(state: .PNMessageSent, data: message)
        case .messageSendDidFail(_, let error):
            center.deliverMessageProcessing(state: .PNMessageSendingError, data: error)
        case .didReceiveMessage(let message):
            center.deliverMessageReceive(message)
        case .didReceivePresenceEvent(let presenceEvent):
            center.deliverPresenceEvent(presenceEvent)
        case .didReceiveMessageHistory(let history):
            center.deliverMessageHistory(
                messages: history.messages,
                channel: history.channel,
                startDate: history.startDate,
                endDate: history.endDate,
                error: nil
            )
        case .historyDownloadDidFail(let channel, let error):
            center.deliverMessageHistory(messages: nil, channel: channel, startDate: nil, endDate: nil, error: error)
        case .didReceiveParticipantsList(let hereNow):
            center.deliverParticipantsList(participants: hereNow.participants, channel: hereNow.channel, error: nil)
        case .participantsListDownloadDidFail(let channel, let error):
            center.deliverParticipantsList(participants: nil, channel: channel, error: error)
        }
    }

    /// The channels a failed channel operation carries in its error (docs/API-3.4.md §3.2: `error.associatedObject`).
    private static func channels(of error: PNError) -> [PNChannel] {
        if let channels = error.associatedObject as? [PNChannel] {
            return channels
        }
        if let channel = error.associatedObject as? PNChannel {
            return [channel]
        }
        return []
    }
}
