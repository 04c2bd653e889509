import Foundation

// The delegate adapter: which `PNDelegate` method each event calls, with which arguments (docs/API-3.4.md §3.2).
// After the canonical method it calls the other shapes of the same callback (`NSError`, `Date`, non-optional
// arguments); their defaults are empty, so a delegate hears each event through the one shape it implemented.

extension ClientEvent {
    /// Calls the delegate method of this event. Runs on the delivery queue.
    func send(to delegate: any PNDelegate, from client: PubNub) {
        switch self {
        case .error(let error):
            delegate.pubnubClient(client, error: error)
            delegate.pubnubClient(client, error: error as NSError)
        case .willConnect(let origin):
            delegate.pubnubClient(client, willConnectToOrigin: origin)
        case .didConnect(let origin):
            delegate.pubnubClient(client, didConnectToOrigin: origin)
        case .didDisconnect(let origin):
            delegate.pubnubClient(client, didDisconnectFromOrigin: origin)
        case .didDisconnectWithError(let origin, let error):
            delegate.pubnubClient(client, didDisconnectFromOrigin: origin, withError: error)
            delegate.pubnubClient(client, didDisconnectFromOrigin: origin, withError: error as NSError)
        case .willDisconnectWithError(let error):
            delegate.pubnubClient(client, willDisconnectWithError: error)
            delegate.pubnubClient(client, willDisconnectWithError: error as NSError)
        case .connectionDidFail(let error):
            delegate.pubnubClient(client, connectionDidFailWithError: error)
            delegate.pubnubClient(client, connectionDidFailWithError: error as NSError)
        case .didSubscribe(let channels):
            delegate.pubnubClient(client, didSubscribeOnChannels: channels)
        case .willRestoreSubscription(let channels):
            delegate.pubnubClient(client, willRestoreSubscriptionOnChannels: channels)
        case .didRestoreSubscription(let channels):
            delegate.pubnubClient(client, didRestoreSubscriptionOnChannels: channels)
        case .subscriptionDidFail(let error):
            delegate.pubnubClient(client, subscriptionDidFailWithError: error)
            delegate.pubnubClient(client, subscriptionDidFailWithError: error as NSError)
        case .didUnsubscribe(let channels):
            delegate.pubnubClient(client, didUnsubscribeOnChannels: channels)
        case .unsubscriptionDidFail(let error):
            delegate.pubnubClient(client, unsubscriptionDidFailWithError: error)
            delegate.pubnubClient(client, unsubscriptionDidFailWithError: error as NSError)
        case .didEnablePresenceObservation(let channels):
            delegate.pubnubClient(client, didEnablePresenceObservationOnChannels: channels)
        case .presenceObservationEnablingDidFail(let error):
            delegate.pubnubClient(client, presenceObservationEnablingDidFailWithError: error)
            delegate.pubnubClient(client, presenceObservationEnablingDidFailWithError: error as NSError)
        case .didDisablePresenceObservation(let channels):
            delegate.pubnubClient(client, didDisablePresenceObservationOnChannels: channels)
        case .presenceObservationDisablingDidFail(let error):
            delegate.pubnubClient(client, presenceObservationDisablingDidFailWithError: error)
            delegate.pubnubClient(client, presenceObservationDisablingDidFailWithError: error as NSError)
        case .didEnablePushNotifications(let channels):
            delegate.pubnubClient(client, didEnablePushNotificationsOnChannels: channels)
        case .pushNotificationEnableDidFail(let error):
            delegate.pubnubClient(client, pushNotificationEnableDidFailWithError: error)
            delegate.pubnubClient(client, pushNotificationEnableDidFailWithError: error as NSError)
        case .didDisablePushNotifications(let channels):
            delegate.pubnubClient(client, didDisablePushNotificationsOnChannels: channels)
        case .pushNotificationDisableDidFail(let error):
            delegate.pubnubClient(client, pushNotificationDisableDidFailWithError: error)
            delegate.pubnubClient(client, pushNotificationDisableDidFailWithError: error as NSError)
        case .didRemovePushNotifications:
            delegate.pubnubClientDidRemovePushNotifications(client)
        case .pushNotificationRemoveDidFail(let error):
            delegate.pubnubClient(client, pushNotificationsRemoveFromChannelsDidFailWithError: error)
            delegate.pubnubClient(client, pushNotificationsRemoveFromChannelsDidFailWithError: error as NSError)
        case .didReceivePushNotificationEnabledChannels(let channels):
            delegate.pubnubClient(client, didReceivePushNotificationEnabledChannels: channels)
        case .pushNotificationEnabledChannelsDidFail(let error):
            delegate.pubnubClient(client, pushNotificationEnabledChannelsReceiveDidFailWithError: error)
            delegate.pubnubClient(client, pushNotificationEnabledChannelsReceiveDidFailWithError: error as NSError)
        case .didReceiveTimeToken(let token):
            delegate.pubnubClient(client, didReceiveTimeToken: NSNumber(value: token))
        case .timeTokenReceiveDidFail(let error):
            delegate.pubnubClient(client, timeTokenReceiveDidFailWithError: error)
            delegate.pubnubClient(client, timeTokenReceiveDidFailWithError: error as NSError)
        case .willSendMessage(let message):
            delegate.pubnubClient(client, willSendMessage: message)
        case .didSendMessage(let message):
            delegate.pubnubClient(client, didSendMessage: message)
        case .messageSendDidFail(let message, let error):
            delegate.pubnubClient(client, didFailMessageSend: message, withError: error)
            delegate.pubnubClient(client, didFailMessageSend: message, withError: error as NSError)
            if let message {
                delegate.pubnubClient(client, didFailMessageSend: message, withError: error)
                delegate.pubnubClient(client, didFailMessageSend: message, withError: error as NSError)
            }
        case .didReceiveMessage(let message):
            delegate.pubnubClient(client, didReceiveMessage: message)
        case .didReceivePresenceEvent(let event):
            delegate.pubnubClient(client, didReceivePresenceEvent: event)
        case .didReceiveMessageHistory(let history):
            let channel = history.channel ?? PNChannel.channelWithName("")
            let messages = history.messages
            delegate.pubnubClient(
                client,
                didReceiveMessageHistory: messages,
                forChannel: channel,
                startingFrom: history.startDate,
                to: history.endDate
            )
            let start: Date? = history.startDate?.date
            let end: Date? = history.endDate?.date
            delegate.pubnubClient(
                client,
                didReceiveMessageHistory: messages,
                forChannel: channel,
                startingFrom: start,
                to: end
            )
            if let startDate = history.startDate, let endDate = history.endDate {
                delegate.pubnubClient(
                    client,
                    didReceiveMessageHistory: messages,
                    forChannel: channel,
                    startingFrom: startDate,
                    to: endDate
                )
                delegate.pubnubClient(
                    client,
                    didReceiveMessageHistory: messages,
                    forChannel: channel,
                    startingFrom: startDate.date,
                    to: endDate.date
                )
            }
        case .historyDownloadDidFail(let channel, let error):
            delegate.pubnubClient(client, didFailHistoryDownloadForChannel: channel, withError: error)
            delegate.pubnubClient(client, didFailHistoryDownloadForChannel: channel, withError: error as NSError)
            if let channel {
                delegate.pubnubClient(client, didFailHistoryDownloadForChannel: channel, withError: error)
                delegate.pubnubClient(client, didFailHistoryDownloadForChannel: channel, withError: error as NSError)
            }
        case .didReceiveParticipantsList(let hereNow):
            delegate.pubnubClient(
                client,
                didReceiveParticipantsList: hereNow.participants,
                forChannel: hereNow.channel ?? PNChannel.channelWithName("")
            )
        case .participantsListDownloadDidFail(let channel, let error):
            delegate.pubnubClient(client, didFailParticipantsListDownloadForChannel: channel, withError: error)
            delegate.pubnubClient(
                client,
                didFailParticipantsListDownloadForChannel: channel,
                withError: error as NSError
            )
            if let channel {
                delegate.pubnubClient(client, didFailParticipantsListDownloadForChannel: channel, withError: error)
                delegate.pubnubClient(
                    client,
                    didFailParticipantsListDownloadForChannel: channel,
                    withError: error as NSError
                )
            }
        }
    }
}
