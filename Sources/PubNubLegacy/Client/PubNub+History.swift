import Foundation

// History and participants: docs/API-3.4.md §2.1.7 and §2.1.8, `+requestFullHistoryForChannel:` …
// `+requestParticipantsListForChannel:withCompletionBlock:`. Every history variant funnels into
// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.

extension PubNub {
    // MARK: - History variants

    /// Requests the shared client's history of `channel` (`+requestFullHistoryForChannel:`): without a start date, without an end date, at most 100 messages, without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestFullHistoryForChannel(
        _ channel: PNChannel
    ) {
        self.sharedInstance().requestFullHistoryForChannel(channel)
    }

    /// Requests the history of `channel` (`+requestFullHistoryForChannel:`): without a start date, without an end date, at most 100 messages, without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestFullHistoryForChannel(
        _ channel: PNChannel
    ) {
        self.requestHistoryForChannel(
            channel,
            from: nil,
            to: nil,
            limit: 0,
            reverseHistory: false,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestFullHistoryForChannel:withCompletionBlock:`): without a start date, without an end date, at most 100 messages, with a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestFullHistoryForChannel(
        _ channel: PNChannel,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestFullHistoryForChannel(channel, withCompletionBlock: withCompletionBlock)
    }

    /// Requests the history of `channel` (`+requestFullHistoryForChannel:withCompletionBlock:`): without a start date, without an end date, at most 100 messages, with a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestFullHistoryForChannel(
        _ channel: PNChannel,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: nil,
            to: nil,
            limit: 0,
            reverseHistory: false,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:`): from `from`, without an end date, at most 100 messages, without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?
    ) {
        self.sharedInstance().requestHistoryForChannel(channel, from: from)
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:`): from `from`, without an end date, at most 100 messages, without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: nil,
            limit: 0,
            reverseHistory: false,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:to:`): from `from`, to `to`, at most 100 messages, without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?
    ) {
        self.sharedInstance().requestHistoryForChannel(channel, from: from, to: to)
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:to:`): from `from`, to `to`, at most 100 messages, without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: 0,
            reverseHistory: false,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:withCompletionBlock:`): from `from`, without an end date, at most 100 messages, with a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestHistoryForChannel(channel, from: from, withCompletionBlock: withCompletionBlock)
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:withCompletionBlock:`): from `from`, without an end date, at most 100 messages, with a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: nil,
            limit: 0,
            reverseHistory: false,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:to:withCompletionBlock:`): from `from`, to `to`, at most 100 messages, with a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:to:withCompletionBlock:`): from `from`, to `to`, at most 100 messages, with a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: 0,
            reverseHistory: false,
            withCompletionBlock: withCompletionBlock
        )
    }

    // MARK: - History (`+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`)

    /// Requests the shared client's history of `channel`; see the instance method.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        reverseHistory: Bool,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: limit,
            reverseHistory: reverseHistory,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests stored messages of `channel` between `from` and `to` (nil bounds are left open; bounds given in
    /// the wrong order are swapped, as 3.4 did), at most `limit` (0 means 100, the maximum), newest page first
    /// unless `reverseHistory`.
    ///
    /// Success: `didReceiveMessageHistory:forChannel:startingFrom:to:` and the block with the messages (decrypted
    /// when a cipher key is set; each message's channel is `channel`), the channel and the page's start and end
    /// dates. Failure: `didFailHistoryDownloadForChannel:withError:` (when connected or recovering) and the block
    /// with nil messages, the channel and the error — 104/105 when not connected, 111 for a refused name, 106
    /// timeout, 112/113 access denied (unlike 3.4, the block is called for pre-flight failures too: docs/DESIGN.md D5).
    /// The block is called exactly once, on the delivery queue.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        reverseHistory: Bool,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        let block = UserBlock(withCompletionBlock)
        self.engine.enqueue {
            self.engine.requestHistory(channel, from: from, to: to, limit: limit, reverse: reverseHistory, block: block)
        }
    }
}
