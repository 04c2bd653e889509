import Foundation

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
