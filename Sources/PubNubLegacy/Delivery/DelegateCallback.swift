import Foundation

// The delegate callbacks as values: one case per event method of `PNDelegate` (docs/API-3.4.md §2.3), carrying the
// arguments of its canonical shape. `DelegateCallbackReceiver` turns each canonical method into one of these, so
// package code that listens to every callback (the demo console, the test recorders) switches over cases instead of
// implementing 36 methods. The `should…` questions are answers, not events, and stay out of the enum.

/// One event callback of `PNDelegate`, with the arguments its canonical method receives (the `PNError`,
/// `PNDate` and optional-argument shapes; the client is passed beside it). Case names are those of the
/// `ClientEvent` the library sends through that method (docs/API-3.4.md §3.2). Package access: not public API.
package enum DelegateCallback {
    /// `pubnubClient:error:`.
    case error(PNError)
    /// `pubnubClient:willConnectToOrigin:`.
    case willConnect(origin: String)
    /// `pubnubClient:didConnectToOrigin:`.
    case didConnect(origin: String)
    /// `pubnubClient:didDisconnectFromOrigin:`.
    case didDisconnect(origin: String)
    /// `pubnubClient:didDisconnectFromOrigin:withError:`.
    case didDisconnectWithError(origin: String, PNError)
    /// `pubnubClient:willDisconnectWithError:`.
    case willDisconnectWithError(PNError)
    /// `pubnubClient:connectionDidFailWithError:`.
    case connectionDidFail(PNError)

    /// `pubnubClient:didSubscribeOnChannels:`.
    case didSubscribe([PNChannel])
    /// `pubnubClient:willRestoreSubscriptionOnChannels:`.
    case willRestoreSubscription([PNChannel])
    /// `pubnubClient:didRestoreSubscriptionOnChannels:`.
    case didRestoreSubscription([PNChannel])
    /// `pubnubClient:subscriptionDidFailWithError:` (the channels are the error's associated object).
    case subscriptionDidFail(PNError)
    /// `pubnubClient:didUnsubscribeOnChannels:`.
    case didUnsubscribe([PNChannel])
    /// `pubnubClient:unsubscriptionDidFailWithError:`.
    case unsubscriptionDidFail(PNError)

    /// `pubnubClient:didEnablePresenceObservationOnChannels:`.
    case didEnablePresenceObservation([PNChannel])
    /// `pubnubClient:presenceObservationEnablingDidFailWithError:`.
    case presenceObservationEnablingDidFail(PNError)
    /// `pubnubClient:didDisablePresenceObservationOnChannels:`.
    case didDisablePresenceObservation([PNChannel])
    /// `pubnubClient:presenceObservationDisablingDidFailWithError:`.
    case presenceObservationDisablingDidFail(PNError)

    /// `pubnubClient:didEnablePushNotificationsOnChannels:`.
    case didEnablePushNotifications([PNChannel])
    /// `pubnubClient:pushNotificationEnableDidFailWithError:`.
    case pushNotificationEnableDidFail(PNError)
    /// `pubnubClient:didDisablePushNotificationsOnChannels:`.
    case didDisablePushNotifications([PNChannel])
    /// `pubnubClient:pushNotificationDisableDidFailWithError:`.
    case pushNotificationDisableDidFail(PNError)
    /// `pubnubClientDidRemovePushNotifications:`.
    case didRemovePushNotifications
    /// `pubnubClient:pushNotificationsRemoveFromChannelsDidFailWithError:`.
    case pushNotificationRemoveDidFail(PNError)
    /// `pubnubClient:didReceivePushNotificationEnabledChannels:`.
    case didReceivePushNotificationEnabledChannels([PNChannel])
    /// `pubnubClient:pushNotificationEnabledChannelsReceiveDidFailWithError:`.
    case pushNotificationEnabledChannelsDidFail(PNError)

    /// `pubnubClient:didReceiveTimeToken:` (the token in 100 ns units).
    case didReceiveTimeToken(NSNumber)
    /// `pubnubClient:timeTokenReceiveDidFailWithError:`.
    case timeTokenReceiveDidFail(PNError)

    /// `pubnubClient:willSendMessage:`.
    case willSendMessage(PNMessage)
    /// `pubnubClient:didSendMessage:`.
    case didSendMessage(PNMessage)
    /// `pubnubClient:didFailMessageSend:withError:` (no message when it could not even be built).
    case messageSendDidFail(PNMessage?, PNError)

    /// `pubnubClient:didReceiveMessage:`.
    case didReceiveMessage(PNMessage)
    /// `pubnubClient:didReceivePresenceEvent:`.
    case didReceivePresenceEvent(PNPresenceEvent)

    /// `pubnubClient:didReceiveMessageHistory:forChannel:startingFrom:to:`.
    case didReceiveMessageHistory([PNMessage], channel: PNChannel, startingFrom: PNDate?, to: PNDate?)
    /// `pubnubClient:didFailHistoryDownloadForChannel:withError:`.
    case historyDownloadDidFail(PNChannel?, PNError)
    /// `pubnubClient:didReceiveParticipantsList:forChannel:`.
    case didReceiveParticipantsList([String], channel: PNChannel)
    /// `pubnubClient:didFailParticipantsListDownloadForChannel:withError:`.
    case participantsListDownloadDidFail(PNChannel?, PNError)
}
