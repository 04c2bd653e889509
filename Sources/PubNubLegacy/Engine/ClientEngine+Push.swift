import Foundation

// Push-notification registrations (v1 push API): enable, disable, remove the device, list its channels.
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
        self.submit(change == .enable ? "push enable" : "push disable") { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                error.setAssociatedObject(channels)
                let event: ClientEvent =
                    change == .enable
                    ? .pushNotificationEnableDidFail(error) : .pushNotificationDisableDidFail(error)
                self.emit(event, completion: block.map { box in DeliveryBlock { box.block(channels, error) } })
            }
            if let error = Self.emptyTokenError(token, channels: channels) ?? Self.invalidChannelError(channels)
                ?? self.preflightError(associatedObject: channels)
            {
                fail(error)
                self.finish(operation)
                return
            }
            let success = { [unowned self] in
                let event: ClientEvent =
                    change == .enable
                    ? .didEnablePushNotifications(channels) : .didDisablePushNotifications(channels)
                self.emit(event, completion: block.map { box in DeliveryBlock { box.block(channels, nil) } })
            }
            guard !channels.isEmpty else {
                // Nothing to change, as for an empty subscribe: done without a request (which would carry `add=`).
                success()
                self.finish(operation)
                return
            }
            let names = channels.map(\.name)
            self.runRequest(
                operation,
                endpoint: change == .enable
                    ? .pushAddChannels(token: token, channels: names)
                    : .pushRemoveChannels(token: token, channels: names),
                timeoutMessage: change == .enable
                    ? "Push notification 'enabling' failed by timeout"
                    : "Push notification 'disabling' failed by timeout",
                idempotent: false,
                associatedObject: channels,
                parse: ResponseParser.acknowledgement,
                success: success,
                failure: fail
            )
        }
    }

    /// `removeAllPushNotificationsForDevicePushToken:withCompletionHandlingBlock:`.
    func removeAllPushNotifications(token: Data, block: UserBlock<PNClientPushNotificationsRemoveHandlingBlock>?) {
        self.submit("push remove") { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                self.emit(
                    .pushNotificationRemoveDidFail(error),
                    completion: block.map { box in DeliveryBlock { box.block(error) } }
                )
            }
            if let error = Self.emptyTokenError(token, channels: nil) ?? self.preflightError(associatedObject: nil) {
                fail(error)
                self.finish(operation)
                return
            }
            self.runRequest(
                operation,
                endpoint: .pushRemoveDevice(token: token),
                timeoutMessage: "Push notification removal from all channels failed by timeout",
                idempotent: false,
                parse: ResponseParser.acknowledgement,
                success: { [unowned self] in
                    self.emit(
                        .didRemovePushNotifications,
                        completion: block.map { box in DeliveryBlock { box.block(nil) } }
                    )
                },
                failure: fail
            )
        }
    }

    /// `requestPushNotificationEnabledChannelsForDevicePushToken:withCompletionHandlingBlock:`.
    func requestPushNotificationEnabledChannels(
        token: Data,
        block: UserBlock<PNClientPushNotificationsEnabledChannelsHandlingBlock>?
    ) {
        self.submit("push list") { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                self.emit(
                    .pushNotificationEnabledChannelsDidFail(error),
                    completion: block.map { box in DeliveryBlock { box.block(nil, error) } }
                )
            }
            if let error = Self.emptyTokenError(token, channels: nil) ?? self.preflightError(associatedObject: nil) {
                fail(error)
                self.finish(operation)
                return
            }
            self.runRequest(
                operation,
                endpoint: .pushListChannels(token: token),
                timeoutMessage: "Push notification enabled channels retrieval failed by timeout",
                idempotent: true,
                parse: ResponseParser.pushChannels,
                success: { [unowned self] names in
                    let channels = PNChannel.channelsWithNames(names)
                    self.emit(
                        .didReceivePushNotificationEnabledChannels(channels),
                        completion: block.map { box in DeliveryBlock { box.block(channels, nil) } }
                    )
                },
                failure: fail
            )
        }
    }

    private static func emptyTokenError(_ token: Data, channels: [PNChannel]?) -> PNError? {
        guard token.isEmpty else { return nil }
        return PNError(code: kPNDevicePushTokenIsEmptyError, category: .unknown, associatedObject: channels)
    }
}
