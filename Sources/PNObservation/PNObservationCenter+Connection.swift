import PubNubLegacy

// Connection state, subscription and unsubscription buckets (docs/API-3.4.md §2.2
// `-addClientConnectionStateObserver:withCallbackBlock:` … `-removeClientChannelUnsubscriptionObserver:`). Every block
// below runs on the client's delivery queue, after the delegate and before the notification and the completion block of
// the same event, in registration order among its bucket's observers (docs/DESIGN.md §4).

extension PNObservationCenter {
    // MARK: - Connection state

    /// 3.4's `-addClientConnectionStateObserver:withCallbackBlock:`: calls the block on every connection state
    /// change until `observer` is removed or goes away.
    ///
    /// Bucket: connection state. The block receives `(origin, true, nil)` when the client connected,
    /// `(origin, false, nil)` after a clean disconnect, and `(configured origin, false, error)` when a connection
    /// attempt failed, when the client is about to disconnect because of an error, and when it disconnected on a
    /// network error, so one network drop usually calls it twice (docs/API-3.4.md §3.2).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientConnectionStateObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientConnectionStateChangeBlock
    ) {
        self.connectionStateObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientConnectionStateObserver:`: removes the first (oldest) connection-state registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientConnectionStateObserver(_ observer: AnyObject) {
        self.connectionStateObservers.remove(observer)
    }

    // MARK: - Subscription

    /// 3.4's `-addClientChannelSubscriptionStateObserver:withCallbackBlock:`: calls the block on every change of the
    /// subscription state until `observer` is removed or goes away.
    ///
    /// Bucket: subscription. The block receives `(PNSubscriptionProcessSubscribedState, channels, nil)` after a
    /// subscribe, `(PNSubscriptionProcessWillRestoreState, channels, nil)` and then
    /// `(PNSubscriptionProcessRestoredState, channels, nil)` when the client restores its channels after a
    /// reconnect, and `(PNSubscriptionProcessNotSubscribedState, channels, error)` when a subscribe failed (the
    /// channels are the error's `associatedObject`).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientChannelSubscriptionStateObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientChannelSubscriptionHandlerBlock
    ) {
        self.subscriptionStateObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientChannelSubscriptionStateObserver:`: removes the first (oldest) subscription registration
    /// of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientChannelSubscriptionStateObserver(_ observer: AnyObject) {
        self.subscriptionStateObservers.remove(observer)
    }

    // MARK: - Unsubscription

    /// 3.4's `-addClientChannelUnsubscriptionObserver:withCallbackBlock:`: calls the block every time an
    /// unsubscribe finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: unsubscription. The block receives `(channels, nil)` after an unsubscribe and `(channels, error)`
    /// when it failed (the channels are the error's `associatedObject`).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientChannelUnsubscriptionObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientChannelUnsubscriptionHandlerBlock
    ) {
        self.unsubscriptionObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientChannelUnsubscriptionObserver:`: removes the first (oldest) unsubscription registration
    /// of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientChannelUnsubscriptionObserver(_ observer: AnyObject) {
        self.unsubscriptionObservers.remove(observer)
    }
}
