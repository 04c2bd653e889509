import Foundation

// The delegate adapter: which `PNDelegate` method each event calls, with which arguments (docs/API-3.4.md §3.2).

extension ClientEvent {
    /// Calls the delegate method of this event. Runs on the delivery queue.
    func send(to delegate: any PNDelegate, from client: PubNub) {
        switch self {
        case .error(let error):
            delegate.pubnubClient(client, error: error)
        case .willConnect(let origin):
            delegate.pubnubClient(client, willConnectToOrigin: origin)
        case .didConnect(let origin):
            delegate.pubnubClient(client, didConnectToOrigin: origin)
        case .didDisconnect(let origin):
            delegate.pubnubClient(client, didDisconnectFromOrigin: origin)
        case .didDisconnectWithError(let origin, let error):
            delegate.pubnubClient(client, didDisconnectFromOrigin: origin, withError: error)
        case .willDisconnectWithError(let error):
            delegate.pubnubClient(client, willDisconnectWithError: error)
        case .connectionDidFail(let error):
            delegate.pubnubClient(client, connectionDidFailWithError: error)
        case .didSubscribe(let channels):
            delegate.pubnubClient(client, didSubscribeOnChannels: channels)
        case .willRestoreSubscription(let channels):
            delegate.pubnubClient(client, willRestoreSubscriptionOnChannels: channels)
        case .didRestoreSubscription(let channels):
            delegate.pubnubClient(client, didRestoreSubscriptionOnChannels: channels)
        case .subscriptionDidFail(let error):
            delegate.pubnubClient(client, subscriptionDidFailWithError: error)
        case .didUnsubscribe(let channels):
            delegate.pubnubClient(client, didUnsubscribeOnChannels: channels)
        case .unsubscriptionDidFail(let error):
            delegate.pubnubClient(client, unsubscriptionDidFailWithError: error)
        case .didEnablePresenceObservation(let channels):
            delegate.pubnubClient(client, didEnablePresenceObservationOnChannels: channels)
        case .presenceObservationEnablingDidFail(let error):
            delegate.pubnubClient(client, presenceObservationEnablingDidFailWithError: error)
        case .didDisablePresenceObservation(let channels):
            delegate.pubnubClient(client, didDisablePresenceObservationOnChannels: channels)
        case .presenceObservationDisablingDidFail(let error):
            delegate.pubnubClient(client, presenceObservationDisablingDidFailWithError: error)
        case .didEnablePushNotifications(let channels):
            delegate.pubnubClient(client, didEnablePushNotificationsOnChannels: channels)
        case .pushNotificationEnableDidFail(let error):
            delegate.pubnubClient(client, pushNotificationEnableDidFailWithError: error)
        case .didDisablePushNotifications(let channels):
            delegate.pubnubClient(client, didDisablePushNotificationsOnChannels: channels)
        case .pushNotificationDisableDidFail(let error):
            delegate.pubnubClient(client, pushNotificationDisableDidFailWithError: error)
        case .didRemovePushNotifications:
            delegate.pubnubClientDidRemovePushNotifications(client)
        case .pushNotificationRemoveDidFail(let error):
            delegate.pubnubClient(client, pushNotificationsRemoveFromChannelsDidFailWithError: error)
        case .didReceivePushNotificationEnabledChannels(let channels):
            delegate.pubnubClient(client, didReceivePushNotificationEnabledChannels: channels)
        case .pushNotificationEnabledChannelsDidFail(let error):
            delegate.pubnubClient(client, pushNotificationEnabledChannelsReceiveDidFailWithError: error)
        case .didReceiveTimeToken(let token):
            delegate.pubnubClient(client, didReceiveTimeToken: NSNumber(value: token))
        case .timeTokenReceiveDidFail(let error):
            delegate.pubnubClient(client, timeTokenReceiveDidFailWithError: error)
        case .willSendMessage(let message):
            delegate.pubnubClient(client, willSendMessage: message)
        case .didSendMessage(let message):
            delegate.pubnubClient(client, didSendMessage: message)
        case .messageSendDidFail(let message, let error):
            delegate.pubnubClient(client, didFailMessageSend: message, withError: error)
        case .didReceiveMessage(let message):
            delegate.pubnubClient(client, didReceiveMessage: message)
        case .didReceivePresenceEvent(let event):
            delegate.pubnubClient(client, didReceivePresenceEvent: event)
        case .didReceiveMessageHistory(let history):
            delegate.pubnubClient(
                client,
                didReceiveMessageHistory: history.messages,
                forChannel: history.channel ?? PNChannel.channelWithName(""),
                startingFrom: history.startDate,
                to: history.endDate
            )
        case .historyDownloadDidFail(let channel, let error):
            delegate.pubnubClient(client, didFailHistoryDownloadForChannel: channel, withError: error)
        case .didReceiveParticipantsList(let hereNow):
            delegate.pubnubClient(
                client,
                didReceiveParticipantsList: hereNow.participants,
                forChannel: hereNow.channel ?? PNChannel.channelWithName("")
            )
        case .participantsListDownloadDidFail(let channel, let error):
            delegate.pubnubClient(client, didFailParticipantsListDownloadForChannel: channel, withError: error)
        }
    }
}
