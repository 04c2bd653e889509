import Foundation

// The empty defaults of the other delegate shapes 3.x apps declared (see the protocol's "Other shapes" section),
// and how the client reads the `should…` answers of either shape.

/// What the default non-optional `should…` implementations return: "not implemented". A unique object, recognised
/// by identity, so no answer an app can give is mistaken for it.
final class DelegateAnswerSentinel: @unchecked Sendable {
    // @unchecked: `number` is created once and never mutated.
    static let shared = DelegateAnswerSentinel()
    let number = NSNumber(value: Int64.min)
}

extension PNDelegate {
    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, error: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, willDisconnectWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, connectionDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: NSError) {}

    /// Does nothing; implement it (or the `PNError` form) to receive this callback.
    public func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: NSError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: NSError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage, withError: PNError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage, withError: NSError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: Date?,
        to: Date?
    ) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate,
        to: PNDate
    ) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: Date,
        to: Date
    ) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: NSError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel, withError: PNError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel, withError: NSError) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(
        _ client: PubNub,
        didFailParticipantsListDownloadForChannel: PNChannel?,
        withError: NSError
    ) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(
        _ client: PubNub,
        didFailParticipantsListDownloadForChannel: PNChannel,
        withError: PNError
    ) {}

    /// Does nothing; implement one shape of this callback to receive it.
    public func pubnubClient(
        _ client: PubNub,
        didFailParticipantsListDownloadForChannel: PNChannel,
        withError: NSError
    ) {}

    /// Returns "no answer": the client uses the optional form, then the configuration.
    public func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber { DelegateAnswerSentinel.shared.number }

    /// Returns "no answer": the client uses the optional form, then the configuration.
    public func shouldResubscribeOnConnectionRestore() -> NSNumber { DelegateAnswerSentinel.shared.number }

    /// Returns "no answer": the client uses the optional form, then the configuration.
    public func shouldRestoreSubscriptionFromLastTimeToken() -> NSNumber { DelegateAnswerSentinel.shared.number }
}

/// The delegate's answers to the three `should…` queries, whichever shape it implemented: the optional form's
/// non-nil answer, else the non-optional form's, else nil ("use the configuration"). Called on the delivery queue.
enum DelegateAnswers {
    static func reconnect(_ delegate: (any PNDelegate)?, _ client: PubNub) -> Bool? {
        guard let delegate else { return nil }
        let optional: NSNumber? = delegate.shouldReconnectPubNubClient(client)
        let plain: NSNumber = delegate.shouldReconnectPubNubClient(client)
        return Self.answer(optional, plain)
    }

    static func resubscribe(_ delegate: (any PNDelegate)?) -> Bool? {
        guard let delegate else { return nil }
        let optional: NSNumber? = delegate.shouldResubscribeOnConnectionRestore()
        let plain: NSNumber = delegate.shouldResubscribeOnConnectionRestore()
        return Self.answer(optional, plain)
    }

    static func catchUp(_ delegate: (any PNDelegate)?) -> Bool? {
        guard let delegate else { return nil }
        let optional: NSNumber? = delegate.shouldRestoreSubscriptionFromLastTimeToken()
        let plain: NSNumber = delegate.shouldRestoreSubscriptionFromLastTimeToken()
        return Self.answer(optional, plain)
    }

    private static func answer(_ optional: NSNumber?, _ plain: NSNumber) -> Bool? {
        if let optional {
            return optional.boolValue
        }
        return plain === DelegateAnswerSentinel.shared.number ? nil : plain.boolValue
    }
}
