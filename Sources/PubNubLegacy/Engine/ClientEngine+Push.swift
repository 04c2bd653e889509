import Foundation

// Push-notification registrations (v1 push API): enable, disable, remove the device, list its channels, each
// described as one `RequestOperation` and executed by `run(_:)` (ClientEngine+Runner.swift).
// Every variant refuses an empty device token with 125 before anything else (docs/BEHAVIOR.md §4.6).

extension ClientEngine {
    /// Which push registration call is running.
    enum PushChange {
        case enable
        case disable
    }

    /// `enable…` / `disablePushNotificationsOnChannels:withDevicePushToken:andCompletionHandlingBlock:`.
    func changePushNotifications(
        _ change: PushChange,
        channels: [PNChannel],
        token: Data,
        block: UserBlock<([PNChannel], PNError?) -> Void>?
    ) {
        let names = channels.map(\.name)
        self.run(
            RequestOperation(
                name: change == .enable ? "push enable" : "push disable",
                idempotent: false,
                timeoutMessage: change == .enable
                    ? "Push notification 'enabling' failed by timeout"
                    : "Push notification 'disabling' failed by timeout",
                associatedObject: channels,
                preflight: { [unowned self] in
                    if let error = Self.emptyTokenError(token, channels: channels) ?? Self.invalidChannelError(channels)
                        ?? self.preflightError(associatedObject: channels)
                    {
                        return .fail(error)
                    }
                    // Nothing to change, as for an empty subscribe: done without a request (which would carry `add=`).
                    guard !channels.isEmpty else { return .succeed(()) }
                    return .send(
                        change == .enable
                            ? .pushAddChannels(token: token, channels: names)
                            : .pushRemoveChannels(token: token, channels: names),
                        announcing: nil
                    )
                },
                parse: ResponseParser.acknowledgement,
                succeeded: {
                    [
                        Emission(
                            change == .enable
                                ? .didEnablePushNotifications(channels) : .didDisablePushNotifications(channels),
                            completion: block.map { box in DeliveryBlock { box.block(channels, nil) } }
                        )
                    ]
                },
                failed: { error in
                    error.setAssociatedObject(channels)
                    return Emission(
                        change == .enable
                            ? .pushNotificationEnableDidFail(error) : .pushNotificationDisableDidFail(error),
                        completion: block.map { box in DeliveryBlock { box.block(channels, error) } }
                    )
                }
            )
        )
    }

    /// `removeAllPushNotificationsForDevicePushToken:withCompletionHandlingBlock:`.
    func removeAllPushNotifications(token: Data, block: UserBlock<PNClientPushNotificationsRemoveHandlingBlock>?) {
        self.run(
            RequestOperation(
                name: "push remove",
                idempotent: false,
                timeoutMessage: "Push notification removal from all channels failed by timeout",
                preflight: { [unowned self] in
                    if let error = Self.emptyTokenError(token, channels: nil)
                        ?? self.preflightError(associatedObject: nil)
                    {
                        return .fail(error)
                    }
                    return .send(.pushRemoveDevice(token: token), announcing: nil)
                },
                parse: ResponseParser.acknowledgement,
                succeeded: {
                    [
                        Emission(
                            .didRemovePushNotifications,
                            completion: block.map { box in DeliveryBlock { box.block(nil) } }
                        )
                    ]
                },
                failed: { error in
                    Emission(
                        .pushNotificationRemoveDidFail(error),
                        completion: block.map { box in DeliveryBlock { box.block(error) } }
                    )
                }
            )
        )
    }

    /// `requestPushNotificationEnabledChannelsForDevicePushToken:withCompletionHandlingBlock:`.
    func requestPushNotificationEnabledChannels(
        token: Data,
        block: UserBlock<PNClientPushNotificationsEnabledChannelsHandlingBlock>?
    ) {
        self.run(
            RequestOperation(
                name: "push list",
                idempotent: true,
                timeoutMessage: "Push notification enabled channels retrieval failed by timeout",
                preflight: { [unowned self] in
                    if let error = Self.emptyTokenError(token, channels: nil)
                        ?? self.preflightError(associatedObject: nil)
                    {
                        return .fail(error)
                    }
                    return .send(.pushListChannels(token: token), announcing: nil)
                },
                parse: ResponseParser.pushChannels,
                succeeded: { names in
                    let channels = PNChannel.channelsWithNames(names)
                    return [
                        Emission(
                            .didReceivePushNotificationEnabledChannels(channels),
                            completion: block.map { box in DeliveryBlock { box.block(channels, nil) } }
                        )
                    ]
                },
                failed: { error in
                    Emission(
                        .pushNotificationEnabledChannelsDidFail(error),
                        completion: block.map { box in DeliveryBlock { box.block(nil, error) } }
                    )
                }
            )
        )
    }

    private static func emptyTokenError(_ token: Data, channels: [PNChannel]?) -> PNError? {
        guard token.isEmpty else { return nil }
        return PNError(code: kPNDevicePushTokenIsEmptyError, category: .unknown, associatedObject: channels)
    }
}
