// One case per observable change: the rows of the event matrix (docs/API-3.4.md §3.2). The engine emits each
// change once; the delegate adapter, the observation center and the notification adapter receive the same value
// through `EventDispatcher` (docs/DESIGN.md §4).

/// A change the client reports. `package` so the `PNObservation` target can adapt it.
package enum ClientEvent: Sendable {
    /// `pubnubClient:error:`: configuration error (100), message-count-exceeded and decryption-failure reports.
    case error(PNError)
    case willConnect(origin: String)
    case didConnect(origin: String)
    /// A clean (user) disconnect.
    case didDisconnect(origin: String)
    /// The disconnect that completes a network loss (103).
    case didDisconnectWithError(origin: String, PNError)
    case willDisconnectWithError(PNError)
    case connectionDidFail(PNError)

    case didSubscribe([PNChannel])
    case willRestoreSubscription([PNChannel])
    case didRestoreSubscription([PNChannel])
    /// The channels are the error's associated object.
    case subscriptionDidFail(PNError)
    case didUnsubscribe([PNChannel])
    case unsubscriptionDidFail(PNError)

    case didEnablePresenceObservation([PNChannel])
    case presenceObservationEnablingDidFail(PNError)
    case didDisablePresenceObservation([PNChannel])
    case presenceObservationDisablingDidFail(PNError)

    case didEnablePushNotifications([PNChannel])
    case pushNotificationEnableDidFail(PNError)
    case didDisablePushNotifications([PNChannel])
    case pushNotificationDisableDidFail(PNError)
    case didRemovePushNotifications
    case pushNotificationRemoveDidFail(PNError)
    case didReceivePushNotificationEnabledChannels([PNChannel])
    case pushNotificationEnabledChannelsDidFail(PNError)

    /// The server time token (100 ns units).
    case didReceiveTimeToken(UInt64)
    case timeTokenReceiveDidFail(PNError)

    case willSendMessage(PNMessage)
    case didSendMessage(PNMessage)
    /// The message is nil when it could not even be built (invalid payload).
    case messageSendDidFail(PNMessage?, PNError)

    case didReceiveMessage(PNMessage)
    case didReceivePresenceEvent(PNPresenceEvent)

    case didReceiveMessageHistory(PNMessagesHistory)
    case historyDownloadDidFail(PNChannel?, PNError)
    case didReceiveParticipantsList(PNHereNow)
    case participantsListDownloadDidFail(PNChannel?, PNError)

    /// Whether the event belongs to the connection group that gate G never suppresses (docs/API-3.4.md §4.1).
    var isUngated: Bool {
        switch self {
        case .error, .willConnect, .didConnect, .didDisconnect, .didDisconnectWithError, .willDisconnectWithError,
            .connectionDidFail, .willRestoreSubscription:
            return true
        default:
            return false
        }
    }
}
