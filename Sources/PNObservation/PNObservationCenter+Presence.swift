import PubNubLegacy

// Presence enabling, presence disabling, presence event and participants list buckets (docs/API-3.4.md §2.2
// `-addClientPresenceEnablingObserver:withCallbackBlock:` … `-removeClientAsPresenceDisablingObserver:`,
// `-addPresenceEventObserver:withBlock:` … `-removePresenceEventObserver:`,
// `-addChannelParticipantsListProcessingObserver:withBlock:` … `-removeChannelParticipantsListProcessingObserver:`).
// Every block below runs on the client's delivery queue, after the delegate and before the notification and the
// completion block of the same event, in registration order among its bucket's observers (docs/DESIGN.md §4).

extension PNObservationCenter {
    // MARK: - Presence enabling

    /// 3.4's `-addClientPresenceEnablingObserver:withCallbackBlock:`: calls the block every time enabling presence
    /// observation finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: presence enabling. The block receives `(channels, nil)` when presence observation was enabled on
    /// the channels and `(channels, error)` when it failed (the channels are the error's `associatedObject`).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientPresenceEnablingObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientPresenceEnableHandlingBlock
    ) {
        self.presenceEnablingObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientPresenceEnablingObserver:`: removes the first (oldest) presence-enabling registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientPresenceEnablingObserver(_ observer: AnyObject) {
        self.presenceEnablingObservers.remove(observer)
    }

    // MARK: - Presence disabling

    /// 3.4's `-addClientAsPresenceDisablingObserver:withCallbackBlock:` (the "As" is 3.4's public spelling): calls
    /// the block every time disabling presence observation finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: presence disabling. The block receives `(channels, nil)` when presence observation was disabled on
    /// the channels and `(channels, error)` when it failed (the channels are the error's `associatedObject`).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientAsPresenceDisablingObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientPresenceDisableHandlingBlock
    ) {
        self.presenceDisablingObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientAsPresenceDisablingObserver:`: removes the first (oldest) presence-disabling
    /// registration of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientAsPresenceDisablingObserver(_ observer: AnyObject) {
        self.presenceDisablingObservers.remove(observer)
    }

    // MARK: - Presence events

    /// 3.4's `-addPresenceEventObserver:withBlock:`: calls the block for every presence event (join, leave,
    /// timeout) that arrives on a channel whose presence is observed, until `observer` is removed or goes away.
    ///
    /// Bucket: presence event. The block receives the `PNPresenceEvent`; its `channel` is the regular channel,
    /// never the `-pnpres` companion. The event has no completion block.
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withBlock: Called on the client's delivery queue, after the delegate and before the notification of
    ///     the same event.
    public func addPresenceEventObserver(
        _ observer: AnyObject,
        withBlock: @escaping PNClientPresenceEventHandlingBlock
    ) {
        self.presenceEventObservers.add(observer, block: withBlock)
    }

    /// 3.4's `-removePresenceEventObserver:`: removes the first (oldest) presence-event registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removePresenceEventObserver(_ observer: AnyObject) {
        self.presenceEventObservers.remove(observer)
    }

    // MARK: - Participants list

    /// 3.4's `-addChannelParticipantsListProcessingObserver:withBlock:`: calls the block every time a participants
    /// ("here now") request finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: participants list. The block receives `(uuids, channel, nil)` on success and
    /// `(nil, channel, error)` on failure (the channel is the error's `associatedObject`).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withBlock: Called on the client's delivery queue, after the delegate and before the notification and
    ///     the completion block of the same event.
    public func addChannelParticipantsListProcessingObserver(
        _ observer: AnyObject,
        withBlock: @escaping PNClientParticipantsHandlingBlock
    ) {
        self.participantsListObservers.add(observer, block: withBlock)
    }

    /// 3.4's `-removeChannelParticipantsListProcessingObserver:`: removes the first (oldest) participants-list
    /// registration of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeChannelParticipantsListProcessingObserver(_ observer: AnyObject) {
        self.participantsListObservers.remove(observer)
    }
}
