import Foundation

// The notification adapter (docs/DESIGN.md §4): every event of the matrix that has a
// notification (docs/API-3.4.md §3.2) is posted on `NotificationCenter.default` with the client as `object` and the
// payload of docs/API-3.4.md §2.4 under `kPNNotificationPayloadKey`. It sits in the dispatcher's notification slot, so
// it runs on the delivery queue after the delegate and the observation center and before the completion block.

/// Posts the 3.4 notification of each event. One per client, installed by `PubNub.init`.
final class NotificationAdapter: ClientEventSink {
    func handle(_ event: ClientEvent, from client: PubNub) {
        let (name, payload) = event.notification
        NotificationCenter.default.post(name: name, object: client, userInfo: Notification.pnUserInfo(payload: payload))
    }
}

extension ClientEvent {
    /// The notification name and payload of this event (docs/API-3.4.md §2.4); a nil payload means no `userInfo`.
    var notification: (name: Notification.Name, payload: Any?) {
        switch self {
        case .error(let error): return (.pnClientError, error)
        case .willConnect(let origin): return (.pnClientWillConnectToOrigin, origin)
        case .didConnect(let origin): return (.pnClientDidConnectToOrigin, origin)
        case .didDisconnect(let origin): return (.pnClientDidDisconnectFromOrigin, origin)
        // 3.4 reported all three failures of the connection under one name [Q in docs/API-3.4.md §2.4
        // `kPNClientConnectionDidFailWithErrorNotification`].
        case .didDisconnectWithError(_, let error), .willDisconnectWithError(let error),
            .connectionDidFail(let error):
            return (.pnClientConnectionDidFailWithError, error)
        case .didSubscribe(let channels): return (.pnClientSubscriptionDidComplete, channels)
        case .willRestoreSubscription(let channels): return (.pnClientSubscriptionWillRestore, channels)
        case .didRestoreSubscription(let channels): return (.pnClientSubscriptionDidRestore, channels)
        case .subscriptionDidFail(let error): return (.pnClientSubscriptionDidFail, error)
        case .didUnsubscribe(let channels): return (.pnClientUnsubscriptionDidComplete, channels)
        case .unsubscriptionDidFail(let error): return (.pnClientUnsubscriptionDidFail, error)
        case .didEnablePresenceObservation(let channels): return (.pnClientPresenceEnablingDidComplete, channels)
        case .presenceObservationEnablingDidFail(let error): return (.pnClientPresenceEnablingDidFail, error)
        case .didDisablePresenceObservation(let channels): return (.pnClientPresenceDisablingDidComplete, channels)
        case .presenceObservationDisablingDidFail(let error): return (.pnClientPresenceDisablingDidFail, error)
        case .didEnablePushNotifications(let channels): return (.pnClientPushNotificationEnableDidComplete, channels)
        case .pushNotificationEnableDidFail(let error): return (.pnClientPushNotificationEnableDidFail, error)
        case .didDisablePushNotifications(let channels): return (.pnClientPushNotificationDisableDidComplete, channels)
        case .pushNotificationDisableDidFail(let error): return (.pnClientPushNotificationDisableDidFail, error)
        case .didRemovePushNotifications: return (.pnClientPushNotificationRemoveDidComplete, nil)
        case .pushNotificationRemoveDidFail(let error): return (.pnClientPushNotificationRemoveDidFail, error)
        case .didReceivePushNotificationEnabledChannels(let channels):
            return (.pnClientPushNotificationChannelsRetrieveDidComplete, channels)
        case .pushNotificationEnabledChannelsDidFail(let error):
            return (.pnClientPushNotificationChannelsRetrieveDidFail, error)
        case .didReceiveTimeToken(let token): return (.pnClientDidReceiveTimeToken, NSNumber(value: token))
        case .timeTokenReceiveDidFail(let error): return (.pnClientDidFailTimeTokenReceive, error)
        case .willSendMessage(let message): return (.pnClientWillSendMessage, message)
        case .didSendMessage(let message): return (.pnClientDidSendMessage, message)
        case .messageSendDidFail(_, let error): return (.pnClientMessageSendingDidFail, error)
        case .didReceiveMessage(let message): return (.pnClientDidReceiveMessage, message)
        case .didReceivePresenceEvent(let event): return (.pnClientDidReceivePresenceEvent, event)
        case .didReceiveMessageHistory(let history): return (.pnClientDidReceiveMessagesHistory, history)
        case .historyDownloadDidFail(_, let error): return (.pnClientHistoryDownloadFailedWithError, error)
        case .didReceiveParticipantsList(let hereNow): return (.pnClientDidReceiveParticipantsList, hereNow)
        case .participantsListDownloadDidFail(_, let error):
            return (.pnClientParticipantsListDownloadFailedWithError, error)
        }
    }
}
