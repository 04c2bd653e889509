import Foundation

/// The 3.4 `PNDelegate` protocol (docs/API-3.4.md §2.3): 39 callbacks, all optional.
///
/// Every method is a requirement with a default implementation in the extension below, so a conforming class
/// implements only the callbacks it needs and those are dispatched dynamically. The client holds its delegate
/// weakly and calls it on the delivery queue (`PNConfiguration.deliveryQueue`, `DispatchQueue.main` by default),
/// first among the listeners of each event: delegate, observation center, notification, then the completion block.
///
/// "Gated" callbacks are made only while the client is connected or recovering from a network loss
/// (docs/API-3.4.md §1.3); their completion blocks are called in every state.
public protocol PNDelegate: AnyObject {
    /// A configuration error (code 100, from `setConfiguration`/`setupWithConfiguration` or `connect`), a message-
    /// count-exceeded report (`kPNRequestMessageCountExceededError`), or a decryption-failure report: right after a
    /// received or history message delivered as `DECRYPTION_ERROR`, an error with code
    /// `kPNCryptoInputDataProcessingError`, category `decryptionError` and that `PNMessage` as associated object.
    /// Not gated.
    func pubnubClient(_ client: PubNub, error: PNError)

    /// A connection attempt to the origin (host name, with its port if any) starts. Not gated.
    func pubnubClient(_ client: PubNub, willConnectToOrigin: String)

    /// The client is connected to the origin; requests are accepted from now on. Not gated.
    func pubnubClient(_ client: PubNub, didConnectToOrigin: String)

    /// A user `disconnect` finished. Delivered exactly once per disconnect. Not gated.
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String)

    /// The disconnect caused by a network loss finished (code 103); the client reconnects on its own when the origin
    /// answers again, unless `shouldReconnectPubNubClient(_:)` says no. Not gated.
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError)

    /// The network was lost while connected (code 103); in-flight requests fail with 104 next. Not gated.
    func pubnubClient(_ client: PubNub, willDisconnectWithError: PNError)

    /// A connection attempt failed for good (after its retries), e.g. code 102 when the origin cannot be reached, or a
    /// TLS failure. Not gated.
    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError)

    /// A subscribe call completed; the channels are exactly the regular channels named in the call. Gated.
    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel])

    /// After a reconnect or a hard reset the client is about to re-subscribe these channels. Not gated.
    func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel])

    /// The restore finished; messages published during the outage (with catch-up on) were delivered before this call.
    /// Gated.
    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel])

    /// A subscribe call or the running subscription failed (106 timeout, 112/113 access denied, −1, 127, …); the
    /// channels are in `error.associatedObject`. Gated.
    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError)

    /// An unsubscribe completed (the leave was answered, skipped or abandoned within 10 s). Gated.
    func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel])

    /// An unsubscribe failed its pre-flight check (104/105, or an invalid channel name). Gated.
    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError)

    /// Presence observation is on for these channels (their `-pnpres` companions are subscribed). Gated.
    func pubnubClient(_ client: PubNub, didEnablePresenceObservationOnChannels: [PNChannel])

    /// Enabling presence observation failed; the channels are in `error.associatedObject`. Gated.
    func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: PNError)

    /// Presence observation is off for these channels. Gated.
    func pubnubClient(_ client: PubNub, didDisablePresenceObservationOnChannels: [PNChannel])

    /// Disabling presence observation failed; the channels are in `error.associatedObject`. Gated.
    func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: PNError)

    /// Push notifications were enabled for the device on these channels. Gated.
    func pubnubClient(_ client: PubNub, didEnablePushNotificationsOnChannels: [PNChannel])

    /// Enabling push notifications failed (125 for an empty device token, 104/105, server errors). Gated.
    func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: PNError)

    /// Push notifications were disabled for the device on these channels. Gated.
    func pubnubClient(_ client: PubNub, didDisablePushNotificationsOnChannels: [PNChannel])

    /// Disabling push notifications failed (routed here, not to the enable callback as 3.4 did: docs/DESIGN.md D4).
    /// Gated.
    func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: PNError)

    /// The device was removed from push notifications on all channels. Gated.
    func pubnubClientDidRemovePushNotifications(_ client: PubNub)

    /// Removing the device from all channels failed. Gated.
    func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: PNError)

    /// The channels on which push notifications are enabled for the device. Gated.
    func pubnubClient(_ client: PubNub, didReceivePushNotificationEnabledChannels: [PNChannel])

    /// Listing the push-enabled channels failed. Gated.
    func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: PNError)

    /// The server time token (unsigned 64-bit, 100 ns units). Gated.
    func pubnubClient(_ client: PubNub, didReceiveTimeToken: NSNumber)

    /// The time-token request failed. Gated.
    func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: PNError)

    /// A publish request is about to be sent. Gated.
    func pubnubClient(_ client: PubNub, willSendMessage: PNMessage)

    /// A publish failed; the message is also `error.associatedObject` (nil when the payload was invalid). Gated.
    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError)

    /// The origin acknowledged a publish. Gated.
    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage)

    /// A message arrived on a subscribed channel; messages of one channel arrive in timetoken order. Gated.
    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage)

    /// A presence event arrived for a channel that observes presence; the channel's participants and occupancy are
    /// already updated. Gated.
    func pubnubClient(_ client: PubNub, didReceivePresenceEvent: PNPresenceEvent)

    /// A history request completed. Gated.
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    )

    /// A history request failed. Gated.
    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: PNError)

    /// A here-now request completed; the channel's participants are already updated. Gated.
    func pubnubClient(_ client: PubNub, didReceiveParticipantsList: [String], forChannel: PNChannel)

    /// A here-now request failed. Gated.
    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel?, withError: PNError)

    /// Asked when the origin answers again after a network loss: whether to reconnect automatically. Return nil (the
    /// default) to use `PNConfiguration.autoReconnectClient`; return `NSNumber(value: false)` for NO.
    func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber?

    /// Asked after a reconnect (and on the idle timeout) when channels were subscribed: whether to subscribe them
    /// again. nil (the default) uses `PNConfiguration.resubscribeOnConnectionRestore`.
    func shouldResubscribeOnConnectionRestore() -> NSNumber?

    /// Asked before a restore: whether to continue from the last time token (messages of the outage are delivered) or
    /// from now. nil (the default) uses `PNConfiguration.restoreSubscriptionFromLastTimeToken`.
    func shouldRestoreSubscriptionFromLastTimeToken() -> NSNumber?
}

// The defaults: a no-op for every callback (observably the same as "not implemented" in 3.4) and nil for the
// three queries ("use the configuration").
extension PNDelegate {
    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, error: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, willConnectToOrigin: String) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, willDisconnectWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didEnablePresenceObservationOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didDisablePresenceObservationOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didEnablePushNotificationsOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didDisablePushNotificationsOnChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClientDidRemovePushNotifications(_ client: PubNub) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didReceivePushNotificationEnabledChannels: [PNChannel]) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didReceiveTimeToken: NSNumber) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, willSendMessage: PNMessage) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didReceivePresenceEvent: PNPresenceEvent) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    ) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: PNError) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(_ client: PubNub, didReceiveParticipantsList: [String], forChannel: PNChannel) {}

    /// Does nothing; implement it to receive this callback.
    public func pubnubClient(
        _ client: PubNub,
        didFailParticipantsListDownloadForChannel: PNChannel?,
        withError: PNError
    ) {}

    /// Returns nil: the client uses the configuration value.
    public func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber? { nil }

    /// Returns nil: the client uses the configuration value.
    public func shouldResubscribeOnConnectionRestore() -> NSNumber? { nil }

    /// Returns nil: the client uses the configuration value.
    public func shouldRestoreSubscriptionFromLastTimeToken() -> NSNumber? { nil }
}
