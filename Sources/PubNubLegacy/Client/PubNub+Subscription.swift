import Foundation

// Subscription: docs/API-3.4.md §2.1.2, `+subscribedChannels` …
// `+unsubscribeFromChannels:withPresenceEvent:andCompletionHandlingBlock:`. Every variant without `withPresenceEvent`
// uses YES.

extension PubNub {
    // MARK: - Getters (`+subscribedChannels`, `+isSubscribedOnChannel:`)

    /// The shared client's subscribed channels; see the instance method.
    public static func subscribedChannels() -> [PNChannel] {
        self.sharedInstance().subscribedChannels()
    }

    /// The subscribed regular channels (no `-pnpres` companions), in subscription order; `[]` when nothing is
    /// subscribed. Readable from any thread.
    public func subscribedChannels() -> [PNChannel] {
        ClientEngine.regularChannels(self.engine.snapshot.current.subscribed)
    }

    /// Whether the shared client is subscribed to `channel`; see the instance method.
    public static func isSubscribedOnChannel(_ channel: PNChannel) -> Bool {
        self.sharedInstance().isSubscribedOnChannel(channel)
    }

    /// Whether `channel` (a regular or a `-pnpres` channel) is in the subscription; false when not connected.
    public func isSubscribedOnChannel(_ channel: PNChannel) -> Bool {
        let snapshot = self.engine.snapshot.current
        return snapshot.connected && snapshot.subscribed.contains(channel.name)
    }

    // MARK: - Subscribe (`+subscribeOnChannels:withPresenceEvent:andCompletionHandlingBlock:` and its variants)

    /// Subscribes the shared client to one channel; see `subscribeOnChannels(_:withPresenceEvent:andCompletionHandlingBlock:)`.
    public static func subscribeOnChannel(_ channel: PNChannel) {
        self.sharedInstance().subscribeOnChannel(channel)
    }

    /// Subscribes to one channel with a presence event and no block.
    public func subscribeOnChannel(_ channel: PNChannel) {
        self.subscribeOnChannels([channel], withPresenceEvent: true, andCompletionHandlingBlock: nil)
    }

    /// Subscribes the shared client to one channel with a block.
    public static func subscribeOnChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.sharedInstance().subscribeOnChannel(channel, withCompletionHandlingBlock: withCompletionHandlingBlock)
    }

    /// Subscribes to one channel with a presence event; the block gets the outcome.
    public func subscribeOnChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.subscribeOnChannels(
            [channel],
            withPresenceEvent: true,
            andCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Subscribes the shared client to one channel, choosing the presence event.
    public static func subscribeOnChannel(_ channel: PNChannel, withPresenceEvent: Bool) {
        self.sharedInstance().subscribeOnChannel(channel, withPresenceEvent: withPresenceEvent)
    }

    /// Subscribes to one channel, choosing the presence event, without a block.
    public func subscribeOnChannel(_ channel: PNChannel, withPresenceEvent: Bool) {
        self.subscribeOnChannels([channel], withPresenceEvent: withPresenceEvent, andCompletionHandlingBlock: nil)
    }

    /// Subscribes the shared client to one channel, choosing the presence event, with a block.
    public static func subscribeOnChannel(
        _ channel: PNChannel,
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.sharedInstance().subscribeOnChannel(
            channel,
            withPresenceEvent: withPresenceEvent,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Subscribes to one channel, choosing the presence event; the block gets the outcome.
    public func subscribeOnChannel(
        _ channel: PNChannel,
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.subscribeOnChannels(
            [channel],
            withPresenceEvent: withPresenceEvent,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Subscribes the shared client to channels with a presence event.
    public static func subscribeOnChannels(_ channels: [PNChannel]) {
        self.sharedInstance().subscribeOnChannels(channels)
    }

    /// Subscribes to channels with a presence event and no block.
    public func subscribeOnChannels(_ channels: [PNChannel]) {
        self.subscribeOnChannels(channels, withPresenceEvent: true, andCompletionHandlingBlock: nil)
    }

    /// Subscribes the shared client to channels with a presence event and a block.
    public static func subscribeOnChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.sharedInstance().subscribeOnChannels(channels, withCompletionHandlingBlock: withCompletionHandlingBlock)
    }

    /// Subscribes to channels with a presence event; the block gets the outcome.
    public func subscribeOnChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.subscribeOnChannels(
            channels,
            withPresenceEvent: true,
            andCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Subscribes the shared client to channels, choosing the presence event.
    public static func subscribeOnChannels(_ channels: [PNChannel], withPresenceEvent: Bool) {
        self.sharedInstance().subscribeOnChannels(channels, withPresenceEvent: withPresenceEvent)
    }

    /// Subscribes to channels, choosing the presence event, without a block.
    public func subscribeOnChannels(_ channels: [PNChannel], withPresenceEvent: Bool) {
        self.subscribeOnChannels(channels, withPresenceEvent: withPresenceEvent, andCompletionHandlingBlock: nil)
    }

    /// Subscribes the shared client; see the instance method.
    public static func subscribeOnChannels(
        _ channels: [PNChannel],
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        self.sharedInstance().subscribeOnChannels(
            channels,
            withPresenceEvent: withPresenceEvent,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Adds `channels` (and the `-pnpres` companions of those that observe presence) to the subscription.
    ///
    /// With `withPresenceEvent` the origin gets a handshake (`tt=0`) for the whole list so it registers the new
    /// channels; channels already subscribed are not left, and with `keepTimeTokenOnListChange` (default YES) the
    /// subscription continues from its previous time token, so nothing published meanwhile is missed. Without it
    /// the list grows without a handshake. Success: `didSubscribeOnChannels:` with every regular channel subscribed
    /// now (these and the earlier ones, in subscription order, as 3.4.2 reported them), then the block with
    /// `PNSubscriptionProcessSubscribedState` and the same list. Failure: `subscriptionDidFailWithError:`
    /// and the block with `PNSubscriptionProcessNotSubscribedState` and the error — 104/105 when not connected,
    /// 111 for a name `PNChannel.validationError()` refuses (nothing is sent), 106 when the handshake times out,
    /// 112/113 when access is denied. Subscribing only to subscribed channels completes at once without traffic.
    /// The block is called exactly once, on the delivery queue.
    public func subscribeOnChannels(
        _ channels: [PNChannel],
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelSubscriptionHandlerBlock?
    ) {
        let block = UserBlock(andCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.subscribe(channels, withPresenceEvent: withPresenceEvent, block: block)
        }
    }

    // MARK: - Unsubscribe (`+unsubscribeFromChannels:withPresenceEvent:andCompletionHandlingBlock:` and its variants)

    /// Unsubscribes the shared client from one channel with a presence event.
    public static func unsubscribeFromChannel(_ channel: PNChannel) {
        self.sharedInstance().unsubscribeFromChannel(channel)
    }

    /// Unsubscribes from one channel with a presence event (a leave) and no block.
    public func unsubscribeFromChannel(_ channel: PNChannel) {
        self.unsubscribeFromChannels([channel], withPresenceEvent: true, andCompletionHandlingBlock: nil)
    }

    /// Unsubscribes the shared client from one channel with a block.
    public static func unsubscribeFromChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.sharedInstance().unsubscribeFromChannel(channel, withCompletionHandlingBlock: withCompletionHandlingBlock)
    }

    /// Unsubscribes from one channel with a presence event; the block gets the outcome.
    public func unsubscribeFromChannel(
        _ channel: PNChannel,
        withCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.unsubscribeFromChannels(
            [channel],
            withPresenceEvent: true,
            andCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Unsubscribes the shared client from one channel, choosing the presence event.
    public static func unsubscribeFromChannel(_ channel: PNChannel, withPresenceEvent: Bool) {
        self.sharedInstance().unsubscribeFromChannel(channel, withPresenceEvent: withPresenceEvent)
    }

    /// Unsubscribes from one channel, choosing the presence event, without a block.
    public func unsubscribeFromChannel(_ channel: PNChannel, withPresenceEvent: Bool) {
        self.unsubscribeFromChannels([channel], withPresenceEvent: withPresenceEvent, andCompletionHandlingBlock: nil)
    }

    /// Unsubscribes the shared client from one channel, choosing the presence event, with a block.
    public static func unsubscribeFromChannel(
        _ channel: PNChannel,
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.sharedInstance().unsubscribeFromChannel(
            channel,
            withPresenceEvent: withPresenceEvent,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Unsubscribes from one channel, choosing the presence event; the block gets the outcome.
    public func unsubscribeFromChannel(
        _ channel: PNChannel,
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.unsubscribeFromChannels(
            [channel],
            withPresenceEvent: withPresenceEvent,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Unsubscribes the shared client from channels with a presence event.
    public static func unsubscribeFromChannels(_ channels: [PNChannel]) {
        self.sharedInstance().unsubscribeFromChannels(channels)
    }

    /// Unsubscribes from channels with a presence event and no block.
    public func unsubscribeFromChannels(_ channels: [PNChannel]) {
        self.unsubscribeFromChannels(channels, withPresenceEvent: true, andCompletionHandlingBlock: nil)
    }

    /// Unsubscribes the shared client from channels with a block.
    public static func unsubscribeFromChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.sharedInstance().unsubscribeFromChannels(
            channels,
            withCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Unsubscribes from channels with a presence event; the block gets the outcome.
    public func unsubscribeFromChannels(
        _ channels: [PNChannel],
        withCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.unsubscribeFromChannels(
            channels,
            withPresenceEvent: true,
            andCompletionHandlingBlock: withCompletionHandlingBlock
        )
    }

    /// Unsubscribes the shared client from channels, choosing the presence event.
    public static func unsubscribeFromChannels(_ channels: [PNChannel], withPresenceEvent: Bool) {
        self.sharedInstance().unsubscribeFromChannels(channels, withPresenceEvent: withPresenceEvent)
    }

    /// Unsubscribes from channels, choosing the presence event, without a block.
    public func unsubscribeFromChannels(_ channels: [PNChannel], withPresenceEvent: Bool) {
        self.unsubscribeFromChannels(channels, withPresenceEvent: withPresenceEvent, andCompletionHandlingBlock: nil)
    }

    /// Unsubscribes the shared client; see the instance method.
    public static func unsubscribeFromChannels(
        _ channels: [PNChannel],
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        self.sharedInstance().unsubscribeFromChannels(
            channels,
            withPresenceEvent: withPresenceEvent,
            andCompletionHandlingBlock: andCompletionHandlingBlock
        )
    }

    /// Removes `channels` and their `-pnpres` companions from the subscription.
    ///
    /// The remaining channels continue at once from their time token. With `withPresenceEvent` a leave is sent
    /// with the current identifier — best effort: skipped when offline, abandoned after 10 s, never retried — and
    /// the call completes when it is answered, skipped or abandoned; without it the call completes at once.
    /// Success: `didUnsubscribeOnChannels:` with `channels` (also for channels that were not subscribed, which
    /// cause no traffic) and the block with a nil error. After a network loss the channels are dropped from the
    /// list to restore and the call succeeds at once. Failure (block with the error, and
    /// `unsubscriptionDidFailWithError:` when connected or recovering): 104/105 when not connected, 111 for a
    /// refused channel name. The block is called exactly once, on the delivery queue.
    public func unsubscribeFromChannels(
        _ channels: [PNChannel],
        withPresenceEvent: Bool,
        andCompletionHandlingBlock: PNClientChannelUnsubscriptionHandlerBlock?
    ) {
        let block = UserBlock(andCompletionHandlingBlock)
        self.engine.enqueue {
            self.engine.unsubscribe(channels, withPresenceEvent: withPresenceEvent, block: block)
        }
    }
}
