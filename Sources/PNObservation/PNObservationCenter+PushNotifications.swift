import PubNubLegacy

// Push-notification buckets: enable, disable, enabled-channels list and remove-all (docs/API-3.4.md §2.2
// `-addClientPushNotificationsEnableObserver:withCallbackBlock:` … `-removeClientPushNotificationsRemoveObserver:`).
// Every block below runs on the client's delivery queue, after the delegate and before the notification and the
// completion block of the same event, in registration order among its bucket's observers (docs/DESIGN.md §4).

extension PNObservationCenter {
    // MARK: - Enable

    /// 3.4's `-addClientPushNotificationsEnableObserver:withCallbackBlock:`: calls the block every time enabling
    /// push notifications finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: push enable. The block receives `(channels, nil)` when push notifications were enabled on the
    /// channels and `(channels, error)` when that failed (the channels are the error's `associatedObject`).
    /// Unlike 3.4, failures of *disabling* push notifications are not sent here but to the push-disable observers
    /// (docs/DESIGN.md §5, D4).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientPushNotificationsEnableObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientPushNotificationsEnableHandlingBlock
    ) {
        self.pushNotificationsEnableObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientPushNotificationsEnableObserver:`: removes the first (oldest) push-enable registration of
    /// `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientPushNotificationsEnableObserver(_ observer: AnyObject) {
        self.pushNotificationsEnableObservers.remove(observer)
    }

    // MARK: - Disable

    /// 3.4's `-addClientPushNotificationsDisableObserver:withCallbackBlock:`: calls the block every time disabling
    /// push notifications finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: push disable. The block receives `(channels, nil)` when push notifications were disabled on the
    /// channels and `(channels, error)` when that failed (the channels are the error's `associatedObject`); 3.4
    /// sent the failures to the push-enable observers instead (docs/DESIGN.md §5, D4).
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientPushNotificationsDisableObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientPushNotificationsDisableHandlingBlock
    ) {
        self.pushNotificationsDisableObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientPushNotificationsDisableObserver:`: removes the first (oldest) push-disable registration
    /// of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientPushNotificationsDisableObserver(_ observer: AnyObject) {
        self.pushNotificationsDisableObservers.remove(observer)
    }

    // MARK: - Enabled channels

    /// 3.4's `-addClientPushNotificationsEnabledChannelsObserver:withCallbackBlock:`: calls the block every time a
    /// request for the push-enabled channels of a device finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: push enabled-channels list. The block receives `(channels, nil)` on success and `(nil, error)` on
    /// failure.
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientPushNotificationsEnabledChannelsObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientPushNotificationsEnabledChannelsHandlingBlock
    ) {
        self.pushNotificationsEnabledChannelsObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientPushNotificationsEnabledChannelsObserver:`: removes the first (oldest) enabled-channels
    /// registration of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientPushNotificationsEnabledChannelsObserver(_ observer: AnyObject) {
        self.pushNotificationsEnabledChannelsObservers.remove(observer)
    }

    // MARK: - Remove from all channels

    /// 3.4's `-addClientPushNotificationsRemoveObserver:withCallbackBlock:`: calls the block every time removing
    /// push notifications from all channels of a device finishes, until `observer` is removed or goes away.
    ///
    /// Bucket: push remove. The block receives `nil` on success and the error on failure.
    ///
    /// - Parameters:
    ///   - observer: Held weakly and compared by identity; registering it again adds a second entry.
    ///   - withCallbackBlock: Called on the client's delivery queue, after the delegate and before the
    ///     notification and the completion block of the same event.
    public func addClientPushNotificationsRemoveObserver(
        _ observer: AnyObject,
        withCallbackBlock: @escaping PNClientPushNotificationsRemoveHandlingBlock
    ) {
        self.pushNotificationsRemoveObservers.add(observer, block: withCallbackBlock)
    }

    /// 3.4's `-removeClientPushNotificationsRemoveObserver:`: removes the first (oldest) push-remove registration
    /// of `observer`; its later duplicates stay. Does nothing when `observer` has none.
    ///
    /// Callable from any thread and from inside a block; no call of the removed block starts after this returns
    /// (one already running on the delivery queue finishes).
    public func removeClientPushNotificationsRemoveObserver(_ observer: AnyObject) {
        self.pushNotificationsRemoveObservers.remove(observer)
    }
}
