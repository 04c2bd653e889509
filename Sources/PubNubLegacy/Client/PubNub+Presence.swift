import Foundation

// Presence observation: docs/API-3.4.md §2.1.4, `+isPresenceObservationEnabledForChannel:` …
// `+disablePresenceObservationForChannels:withCompletionHandlingBlock:`.

extension PubNub {
    /// Whether the shared client observes presence on `channel`; see the instance method.
    public static func isPresenceObservationEnabledForChannel(_ channel: PNChannel) -> Bool {
        self.sharedInstance().isPresenceObservationEnabledForChannel(channel)
    }

    /// True when connected, `channel`'s presence flag is set and its `-pnpres` companion is subscribed.
    public func isPresenceObservationEnabledForChannel(_ channel: PNChannel) -> Bool {
        let snapshot = self.engine.snapshot.current
        return snapshot.connected && channel.shouldObservePresence
            && snapshot.subscribed.contains(PNChannelPresence.presenceForChannel(channel).name)
    }

    // MARK: - Enable (`+enablePresenceObservationForChannels:withCompletionHandlingBlock:` and its variants)

    /// Enables presence observation on one channel of the shared client.
    public static func enablePresenceObservationForChannel(_ channel: PNChannel) {
        self.sharedInstance().enablePresenceObservationForChannel(channel)
    }

    /// Enables presence observation on one channel, without a block.
    public func enablePresenceObservationForChannel(_ channel: PNChannel) {
        self.enablePresenceObservationForChannels([channel], withCompletionHandlingBlock: nil)
    }

    /// Enables presence observation on one channel of the shared client, with a block.
    public static func enablePresenceObservationForChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientPresenceEnableHandlingBlock?
    ) {
        self.sharedInstance().enablePresenceObservationForChannel(
            channel,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Enables presence observation on one channel; the block gets the outcome.
    public func enablePresenceObservationForChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientPresenceEnableHandlingBlock?
    ) {
        self.enablePresenceObservationForChannels([channel], withCompletionHandlingBlock: withCompletionHandlingBlock)
    }

    /// Enables presence observation on channels of the shared client.
    public static func enablePresenceObservationForChannels(_ channels: [PNChannel]) {
        self.sharedInstance().enablePresenceObservationForChannels(channels)
    }

    /// Enables presence observation on channels, without a block.
    public func enablePresenceObservationForChannels(_ channels: [PNChannel]) {
        self.enablePresenceObservationForChannels(channels, withCompletionHandlingBlock: nil)
    }

    /// Enables presence observation on channels of the shared client; see the instance method.
    public static func enablePresenceObservationForChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientPresenceEnableHandlingBlock?
    ) {
        self.sharedInstance().enablePresenceObservationForChannels(
            channels,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Sets the channels' presence flag and subscribes their `-pnpres` companions, without a leave and continuing
    /// from the current time token. Success: `didEnablePresenceObservationOnChannels:` with `channels`, then the
    /// block with a nil error. Failure (block with the error; the delegate when connected or recovering):
    /// 104/105 when not connected, 111 for a refused name, subscribe errors of the handshake. The block is called
    /// exactly once, on the delivery queue.
    public func enablePresenceObservationForChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientPresenceEnableHandlingBlock?
    ) {
        let block = UserBlock(withCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.enablePresenceObservation(channels, block: block)
        }
    }

    // MARK: - Disable (`+disablePresenceObservationForChannels:withCompletionHandlingBlock:` and its variants)

    /// Disables presence observation on one channel of the shared client.
    public static func disablePresenceObservationForChannel(_ channel: PNChannel) {
        self.sharedInstance().disablePresenceObservationForChannel(channel)
    }

    /// Disables presence observation on one channel, without a block.
    public func disablePresenceObservationForChannel(_ channel: PNChannel) {
        self.disablePresenceObservationForChannels([channel], withCompletionHandlingBlock: nil)
    }

    /// Disables presence observation on one channel of the shared client, with a block.
    public static func disablePresenceObservationForChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientPresenceDisableHandlingBlock?
    ) {
        self.sharedInstance().disablePresenceObservationForChannel(
            channel,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Disables presence observation on one channel; the block gets the outcome.
    public func disablePresenceObservationForChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientPresenceDisableHandlingBlock?
    ) {
        self.disablePresenceObservationForChannels([channel], withCompletionHandlingBlock: withCompletionHandlingBlock)
    }

    /// Disables presence observation on channels of the shared client.
    public static func disablePresenceObservationForChannels(_ channels: [PNChannel]) {
        self.sharedInstance().disablePresenceObservationForChannels(channels)
    }

    /// Disables presence observation on channels, without a block.
    public func disablePresenceObservationForChannels(_ channels: [PNChannel]) {
        self.disablePresenceObservationForChannels(channels, withCompletionHandlingBlock: nil)
    }

    /// Disables presence observation on channels of the shared client; see the instance method.
    public static func disablePresenceObservationForChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientPresenceDisableHandlingBlock?
    ) {
        self.sharedInstance().disablePresenceObservationForChannels(
            channels,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Removes the channels' `-pnpres` companions from the subscription without a leave and clears their
    /// presence flag; the rest continues from its time token. Success: `didDisablePresenceObservationOnChannels:`
    /// and the block with a nil error, at once. Failure: 104/105 when not connected, 111 for a refused name. The
    /// block is called exactly once, on the delivery queue.
    public func disablePresenceObservationForChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientPresenceDisableHandlingBlock?
    ) {
        let block = UserBlock(withCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.disablePresenceObservation(channels, block: block)
        }
    }
}
