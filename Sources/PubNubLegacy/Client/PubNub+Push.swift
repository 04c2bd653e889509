import Foundation

// Push-notification registrations (APNS): docs/API-3.4.md §2.1.3,
// `+enablePushNotificationsOnChannel:withDevicePushToken:` …
// `+requestPushNotificationEnabledChannelsForDevicePushToken:withCompletionHandlingBlock:`. The device token goes on
// the wire as uppercase hex; an empty token fails every variant with 125 before anything is sent.

extension PubNub {
    // MARK: - Enable

    /// Enables push notifications on one channel for the shared client's device token.
    public static func enablePushNotificationsOnChannel(_ channel: PNChannel, withDevicePushToken: Data) {
        self.sharedInstance().enablePushNotificationsOnChannel(channel, withDevicePushToken: withDevicePushToken)
    }

    /// Enables push notifications on one channel, without a block.
    public func enablePushNotificationsOnChannel(_ channel: PNChannel, withDevicePushToken: Data) {
        self.enablePushNotificationsOnChannels(
            [channel],
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: nil
        )
    }

    /// Enables push notifications on one channel of the shared client, with a block.
    public static func enablePushNotificationsOnChannel(
        _ channel: PNChannel,
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsEnableHandlingBlock?
    ) {
        self.sharedInstance().enablePushNotificationsOnChannel(
            channel,
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Enables push notifications on one channel; the block gets the outcome.
    public func enablePushNotificationsOnChannel(
        _ channel: PNChannel,
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsEnableHandlingBlock?
    ) {
        self.enablePushNotificationsOnChannels(
            [channel],
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Enables push notifications on channels of the shared client.
    public static func enablePushNotificationsOnChannels(_ channels: [PNChannel], withDevicePushToken: Data) {
        self.sharedInstance().enablePushNotificationsOnChannels(channels, withDevicePushToken: withDevicePushToken)
    }

    /// Enables push notifications on channels, without a block.
    public func enablePushNotificationsOnChannels(_ channels: [PNChannel], withDevicePushToken: Data) {
        self.enablePushNotificationsOnChannels(
            channels,
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: nil
        )
    }

    /// Enables push notifications for the shared client; see the instance method.
    public static func enablePushNotificationsOnChannels(
        _ channels: [PNChannel],
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsEnableHandlingBlock?
    ) {
        self.sharedInstance().enablePushNotificationsOnChannels(
            channels,
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Registers the device token for push notifications on `channels`.
    ///
    /// Success: `didEnablePushNotificationsOnChannels:` and the block with a nil error (at once, without a request,
    /// for an empty list). Failure (block with the error; the delegate when connected or recovering): 125 for an
    /// empty token, 111 for a refused channel name, 104/105 when not connected, 106 on timeout, 124 when push is not
    /// enabled for the keys, other server errors. The block is called exactly once, on the delivery queue.
    public func enablePushNotificationsOnChannels(
        _ channels: [PNChannel],
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsEnableHandlingBlock?
    ) {
        let block = UserBlock(andCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.changePushNotifications(
                .enable,
                channels: channels,
                token: withDevicePushToken,
                block: block
            )
        }
    }

    // MARK: - Disable

    /// Disables push notifications on one channel of the shared client.
    public static func disablePushNotificationsOnChannel(_ channel: PNChannel, withDevicePushToken: Data) {
        self.sharedInstance().disablePushNotificationsOnChannel(channel, withDevicePushToken: withDevicePushToken)
    }

    /// Disables push notifications on one channel, without a block.
    public func disablePushNotificationsOnChannel(_ channel: PNChannel, withDevicePushToken: Data) {
        self.disablePushNotificationsOnChannels(
            [channel],
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: nil
        )
    }

    /// Disables push notifications on one channel of the shared client, with a block.
    public static func disablePushNotificationsOnChannel(
        _ channel: PNChannel,
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsDisableHandlingBlock?
    ) {
        self.sharedInstance().disablePushNotificationsOnChannel(
            channel,
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Disables push notifications on one channel; the block gets the outcome.
    public func disablePushNotificationsOnChannel(
        _ channel: PNChannel,
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsDisableHandlingBlock?
    ) {
        self.disablePushNotificationsOnChannels(
            [channel],
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Disables push notifications on channels of the shared client.
    public static func disablePushNotificationsOnChannels(_ channels: [PNChannel], withDevicePushToken: Data) {
        self.sharedInstance().disablePushNotificationsOnChannels(channels, withDevicePushToken: withDevicePushToken)
    }

    /// Disables push notifications on channels, without a block.
    public func disablePushNotificationsOnChannels(_ channels: [PNChannel], withDevicePushToken: Data) {
        self.disablePushNotificationsOnChannels(
            channels,
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: nil
        )
    }

    /// Disables push notifications for the shared client; see the instance method.
    public static func disablePushNotificationsOnChannels(
        _ channels: [PNChannel],
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsDisableHandlingBlock?
    ) {
        self.sharedInstance().disablePushNotificationsOnChannels(
            channels,
            withDevicePushToken: withDevicePushToken,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Removes the device token's push registration from `channels`.
    ///
    /// Success: `didDisablePushNotificationsOnChannels:` and the block with a nil error (at once, without a request,
    /// for an empty list). Failure: `pushNotificationDisableDidFailWithError:` (not the enable callback, unlike 3.4:
    /// docs/DESIGN.md D4) and the block, with the same codes as enabling. The block is called exactly once, on the
    /// delivery queue.
    public func disablePushNotificationsOnChannels(
        _ channels: [PNChannel],
        withDevicePushToken: Data,
        andCompletionHandlingBlock: PNClientPushNotificationsDisableHandlingBlock?
    ) {
        let block = UserBlock(andCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.changePushNotifications(
                .disable,
                channels: channels,
                token: withDevicePushToken,
                block: block
            )
        }
    }

    // MARK: - Remove and list

    /// Removes the shared client's device from push on all channels; see the instance method.
    public static func removeAllPushNotificationsForDevicePushToken(
        _ pushToken: Data,
        withCompletionHandlingBlock: PNClientPushNotificationsRemoveHandlingBlock?
    ) {
        self.sharedInstance().removeAllPushNotificationsForDevicePushToken(
            pushToken,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Removes the device token from push notifications on every channel. Success:
    /// `pubnubClientDidRemovePushNotifications(_:)` and the block with nil; failure: the block with the error (125
    /// for an empty token, 104/105, 106, server errors). Called exactly once, on the delivery queue.
    public func removeAllPushNotificationsForDevicePushToken(
        _ pushToken: Data,
        withCompletionHandlingBlock: PNClientPushNotificationsRemoveHandlingBlock?
    ) {
        let block = UserBlock(withCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.removeAllPushNotifications(token: pushToken, block: block)
        }
    }

    /// Lists the channels with push enabled for the shared client's device; see the instance method.
    public static func requestPushNotificationEnabledChannelsForDevicePushToken(
        _ pushToken: Data,
        withCompletionHandlingBlock: PNClientPushNotificationsEnabledChannelsHandlingBlock?
    ) {
        self.sharedInstance().requestPushNotificationEnabledChannelsForDevicePushToken(
            pushToken,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Asks which channels have push notifications enabled for the device token. Success:
    /// `didReceivePushNotificationEnabledChannels:` and the block with the channels; failure: the block with nil
    /// and the error (125 for an empty token, 104/105, 106, server errors). Called exactly once, on the delivery
    /// queue.
    public func requestPushNotificationEnabledChannelsForDevicePushToken(
        _ pushToken: Data,
        withCompletionHandlingBlock: PNClientPushNotificationsEnabledChannelsHandlingBlock?
    ) {
        let block = UserBlock(withCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.requestPushNotificationEnabledChannels(token: pushToken, block: block)
        }
    }
}
