import Foundation

// History variants with a limit (and a direction): docs/API-3.4.md §2.1.7, the variants of
// `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`. Each funnels into
// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.

extension PubNub {
    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:limit:`): from `from`, without an end date, at most `limit` messages (0 = 100), without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt
    ) {
        self.sharedInstance().requestHistoryForChannel(channel, from: from, limit: limit)
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:limit:`): from `from`, without an end date, at most `limit` messages (0 = 100), without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: nil,
            limit: limit,
            reverseHistory: false,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:to:limit:`): from `from`, to `to`, at most `limit` messages (0 = 100), without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt
    ) {
        self.sharedInstance().requestHistoryForChannel(channel, from: from, to: to, limit: limit)
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:to:limit:`): from `from`, to `to`, at most `limit` messages (0 = 100), without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: limit,
            reverseHistory: false,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:limit:withCompletionBlock:`): from `from`, without an end date, at most `limit` messages (0 = 100), with a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            limit: limit,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:limit:withCompletionBlock:`): from `from`, without an end date, at most `limit` messages (0 = 100), with a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: nil,
            limit: limit,
            reverseHistory: false,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:to:limit:withCompletionBlock:`): from `from`, to `to`, at most `limit` messages (0 = 100), with a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: limit,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:to:limit:withCompletionBlock:`): from `from`, to `to`, at most `limit` messages (0 = 100), with a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: limit,
            reverseHistory: false,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:limit:reverseHistory:`): from `from`, without an end date, at most `limit` messages (0 = 100), oldest first when `reverseHistory`, without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt,
        reverseHistory: Bool
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            limit: limit,
            reverseHistory: reverseHistory
        )
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:limit:reverseHistory:`): from `from`, without an end date, at most `limit` messages (0 = 100), oldest first when `reverseHistory`, without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt,
        reverseHistory: Bool
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: nil,
            limit: limit,
            reverseHistory: reverseHistory,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:to:limit:reverseHistory:`): from `from`, to `to`, at most `limit` messages (0 = 100), oldest first when `reverseHistory`, without a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        reverseHistory: Bool
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: limit,
            reverseHistory: reverseHistory
        )
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:to:limit:reverseHistory:`): from `from`, to `to`, at most `limit` messages (0 = 100), oldest first when `reverseHistory`, without a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        reverseHistory: Bool
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: to,
            limit: limit,
            reverseHistory: reverseHistory,
            withCompletionBlock: nil
        )
    }

    /// Requests the shared client's history of `channel` (`+requestHistoryForChannel:from:limit:reverseHistory:withCompletionBlock:`): from `from`, without an end date, at most `limit` messages (0 = 100), oldest first when `reverseHistory`, with a block; see `+requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    public static func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt,
        reverseHistory: Bool,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.sharedInstance().requestHistoryForChannel(
            channel,
            from: from,
            limit: limit,
            reverseHistory: reverseHistory,
            withCompletionBlock: withCompletionBlock
        )
    }

    /// Requests the history of `channel` (`+requestHistoryForChannel:from:limit:reverseHistory:withCompletionBlock:`): from `from`, without an end date, at most `limit` messages (0 = 100), oldest first when `reverseHistory`, with a block. Callbacks as for
    /// `requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:)`.
    public func requestHistoryForChannel(
        _ channel: PNChannel,
        from: PNDate?,
        limit: UInt,
        reverseHistory: Bool,
        withCompletionBlock: PNClientHistoryLoadHandlingBlock?
    ) {
        self.requestHistoryForChannel(
            channel,
            from: from,
            to: nil,
            limit: limit,
            reverseHistory: reverseHistory,
            withCompletionBlock: withCompletionBlock
        )
    }
}
