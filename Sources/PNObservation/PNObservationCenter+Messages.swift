import PubNubLegacy

// Time token, message processing, message receive and history buckets (docs/API-3.4.md §2.2
// `-addTimeTokenReceivingObserver:withCallbackBlock:` … `-removeMessageReceiveObserver:`,
// `-addMessageHistoryProcessingObserver:withBlock:` … `-removeMessageHistoryProcessingObserver:`). Every block below
// runs on the client's delivery queue, after the delegate and before the notification and the completion block of the
// same event, in registration order among its bucket's observers (docs/DESIGN.md §4).

extension PNObservationCenter {
    // MARK: - Time token

    /// 3.4's `-addTimeTokenReceivingObserver:withCallbackBlock:`: calls the block every time a server time token
    /// request finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: time token. The block receives `(timeToken, nil)` on success (an unsigned 64-bit value in 100 ns
    /// units) and `(nil, error)` on failure.
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addTimeTokenReceivingObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientTimeTokenReceivingCompleteBlock
    ) {
        self.timeTokenObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeTimeTokenReceivingObserver:`: removes the first (oldest) time-token registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeTimeTokenReceivingObserver(_ observer: AnyObject) {
        self.timeTokenObservers.remove(observer)
    }

    // MARK: - Message processing

    /// 3.4's `-addMessageProcessingObserver:withBlock:`: calls the block at every step of every message the client
    /// sends, until `observer` is removed or goes away.
    ///
    /// Bucket: message processing. Each send calls the block twice: `(PNMessageSending, message)` just before the
    /// request goes out, then `(PNMessageSent, message)` once the origin acknowledged it or
    /// `(PNMessageSendingError, error)` when it failed (the message is the error's `associatedObject`). A message
    /// refused before sending gets only the error call.
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withBlock: Called on the client's delivery queue, after the delegate and before the notification and
    ///     the completion block of the same event.
    public func addMessageProcessingObserver(
        _ observer: AnyObject,
        withBlock: @escaping PNClientMessageProcessingBlock
    ) {
        self.messageProcessingObservers.add(observer, block: withBlock)
    }

    /// 3.4's `-removeMessageProcessingObserver:`: removes the first (oldest) message-processing registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeMessageProcessingObserver(_ observer: AnyObject) {
        self.messageProcessingObservers.remove(observer)
    }

    // MARK: - Message receive

    /// 3.4's `-addMessageReceiveObserver:withBlock:`: calls the block for every message that arrives on a
    /// subscribed channel, until `observer` is removed or goes away.
    ///
    /// Bucket: message receive. The block receives the `PNMessage` (decrypted when a cipher key is set). Messages
    /// of one channel arrive in time-token order. The event has no completion block.
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withBlock: Called on the client's delivery queue, after the delegate and before the notification of
    ///     the same event.
    public func addMessageReceiveObserver(_ observer: AnyObject, withBlock: @escaping PNClientMessageHandlingBlock) {
        self.messageReceiveObservers.add(observer, block: withBlock)
    }

    /// 3.4's `-removeMessageReceiveObserver:`: removes the first (oldest) message-receive registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeMessageReceiveObserver(_ observer: AnyObject) {
        self.messageReceiveObservers.remove(observer)
    }

    // MARK: - History

    /// 3.4's `-addMessageHistoryProcessingObserver:withBlock:`: calls the block every time a history request
    /// finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: history. The block receives `(messages, channel, startDate, endDate, nil)` on success and
    /// `(nil, channel, nil, nil, error)` on failure (the channel is the error's `associatedObject`).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withBlock: Called on the client's delivery queue, after the delegate and before the notification and
    ///     the completion block of the same event.
    public func addMessageHistoryProcessingObserver(
        _ observer: AnyObject,
        withBlock: @escaping PNClientHistoryLoadHandlingBlock
    ) {
        self.messageHistoryObservers.add(observer, block: withBlock)
    }

    /// 3.4's `-removeMessageHistoryProcessingObserver:`: removes the first (oldest) history registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeMessageHistoryProcessingObserver(_ observer: AnyObject) {
        self.messageHistoryObservers.remove(observer)
    }
}
