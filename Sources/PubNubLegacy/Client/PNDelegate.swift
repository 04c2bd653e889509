import Foundation

/// The 3.4 `PNDelegate` protocol (docs/API-3.4.md §2.3): 39 callbacks, all optional.
///
/// Every method is a requirement with a default implementation (`PNDelegate+Defaults.swift`, and
/// `PNDelegate+Shapes.swift` for the other shapes), so a conforming class implements only the callbacks it needs and
/// those are dispatched dynamically. The client holds its delegate weakly and calls it on the delivery queue
/// (`PNConfiguration.deliveryQueue`, `DispatchQueue.main` by default), first among the listeners of each event:
/// delegate, observation center, notification, then the completion block.
///
/// "Gated" callbacks are made only while the client is connected or recovering from a network loss
/// (docs/API-3.4.md §1.3); their completion blocks are called in every state.
///
/// The protocol is not bound to an actor, so a delegate may take its callbacks on a queue of its own. A `@MainActor`
/// delegate — UIKit's app delegate, a view controller — conforms as `@preconcurrency PNDelegate` and keeps the main
/// delivery queue; Swift then checks at every callback that it runs on the main actor (MIGRATION.md §3).
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
    /// TLS failure; or `connect` was called while connected or connecting (101, as in 3.4.2). Not gated.
    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError)

    /// A subscribe call completed; the channels are every regular channel subscribed now, the call's and the earlier
    /// ones, in subscription order (as 3.4.2 reported them). Gated.
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

    // MARK: - Other shapes 3.x apps declared
    // 3.4's header declared the methods above, but Objective-C also called an implementation whose parameter was a
    // superclass (`NSError *` for `PNError *`), another class it did not check (`NSDate *` for `PNDate *`), or that
    // left out a nullability it never had. In Swift such an implementation would silently never be called, so each
    // shape 3.x apps used is a requirement of its own, with an empty default, and the client calls it right after
    // the canonical method of the same event. Implement one shape per callback. See docs/API-3.4.md §2.3 and
    // MIGRATION.md §2.

    /// `pubnubClient(_:error:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, error: NSError)

    /// `pubnubClient(_:didDisconnectFromOrigin:withError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: NSError)

    /// `pubnubClient(_:willDisconnectWithError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, willDisconnectWithError: NSError)

    /// `pubnubClient(_:connectionDidFailWithError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, connectionDidFailWithError: NSError)

    /// `pubnubClient(_:subscriptionDidFailWithError:)`, for an implementation that takes an `NSError` (as the 3.4.2
    /// demo apps declared it).
    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: NSError)

    /// `pubnubClient(_:unsubscriptionDidFailWithError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: NSError)

    /// `pubnubClient(_:presenceObservationEnablingDidFailWithError:)`, for an implementation that takes an
    /// `NSError`.
    func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: NSError)

    /// `pubnubClient(_:presenceObservationDisablingDidFailWithError:)`, for an implementation that takes an
    /// `NSError`.
    func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: NSError)

    /// `pubnubClient(_:pushNotificationEnableDidFailWithError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: NSError)

    /// `pubnubClient(_:pushNotificationDisableDidFailWithError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: NSError)

    /// `pubnubClient(_:pushNotificationsRemoveFromChannelsDidFailWithError:)`, for an implementation that takes an
    /// `NSError`.
    func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: NSError)

    /// `pubnubClient(_:pushNotificationEnabledChannelsReceiveDidFailWithError:)`, for an implementation that takes
    /// an `NSError`.
    func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: NSError)

    /// `pubnubClient(_:timeTokenReceiveDidFailWithError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: NSError)

    /// `pubnubClient(_:didFailMessageSend:withError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: NSError)

    /// `pubnubClient(_:didFailMessageSend:withError:)`, for an implementation whose message is not optional: called
    /// when the failure concerns a message (not for an invalid payload, which has none).
    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage, withError: PNError)

    /// `pubnubClient(_:didFailMessageSend:withError:)`, non-optional message and `NSError`; called when the failure
    /// concerns a message.
    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage, withError: NSError)

    /// `pubnubClient(_:didReceiveMessageHistory:forChannel:startingFrom:to:)`, for an implementation that takes
    /// `Date`s (3.x apps declared `NSDate *`): the dates of the page's `PNDate`s.
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: Date?,
        to: Date?
    )

    /// `pubnubClient(_:didReceiveMessageHistory:forChannel:startingFrom:to:)` with non-optional `PNDate`s: called
    /// when the page has both dates (an empty page has none).
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate,
        to: PNDate
    )

    /// `pubnubClient(_:didReceiveMessageHistory:forChannel:startingFrom:to:)` with non-optional `Date`s: called
    /// when the page has both dates.
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: Date,
        to: Date
    )

    /// `pubnubClient(_:didFailHistoryDownloadForChannel:withError:)`, for an implementation that takes an `NSError`.
    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: NSError)

    /// `pubnubClient(_:didFailHistoryDownloadForChannel:withError:)` with a non-optional channel: called when the
    /// failure names one.
    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel, withError: PNError)

    /// `pubnubClient(_:didFailHistoryDownloadForChannel:withError:)`, non-optional channel and `NSError`.
    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel, withError: NSError)

    /// `pubnubClient(_:didFailParticipantsListDownloadForChannel:withError:)`, for an implementation that takes an
    /// `NSError`.
    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel?, withError: NSError)

    /// `pubnubClient(_:didFailParticipantsListDownloadForChannel:withError:)` with a non-optional channel: called
    /// when the failure names one.
    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel, withError: PNError)

    /// `pubnubClient(_:didFailParticipantsListDownloadForChannel:withError:)`, non-optional channel and `NSError`.
    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel, withError: NSError)

    /// `shouldReconnectPubNubClient(_:)` for an implementation that returns a non-optional `NSNumber` (as 3.x's
    /// `- (NSNumber *)` reads). Used when the optional form gives nil.
    func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber

    /// `shouldResubscribeOnConnectionRestore()` returning a non-optional `NSNumber`. Used when the optional form
    /// gives nil.
    func shouldResubscribeOnConnectionRestore() -> NSNumber

    /// `shouldRestoreSubscriptionFromLastTimeToken()` returning a non-optional `NSNumber`. Used when the optional
    /// form gives nil.
    func shouldRestoreSubscriptionFromLastTimeToken() -> NSNumber

    // MARK: Addition (not in 3.4)

    /// A 4.x-style status of the connection or the subscription (an addition: 3.4 had none), derived from the 3.4
    /// callbacks of the same event and delivered right after them, before `kPNClientDidReceiveStatusNotification`
    /// and the call's completion block; on the delivery queue, gated as the event it derives from. The mapping of
    /// events to `PNStatusCategory` is in MIGRATION.md "Modernising a ported app". `bufferOverflow` never comes
    /// here.
    func pubnubClient(_ client: PubNub, didReceiveStatus: PNStatus)
}
