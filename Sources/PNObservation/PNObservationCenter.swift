import PubNubLegacy

/// 3.4's `PNObservationCenter`: lets any object observe one kind of client event with a block, as the delegate and
/// the notifications do, without being the delegate.
///
/// The center has one bucket of observers per kind of event (connection state, subscription, unsubscription,
/// presence enabling and disabling, the four push-notification operations, time token, message processing,
/// message receive, presence event, history and participants list: 15 buckets). Each `add…Observer` method
/// registers a persistent `(observer, block)` pair in one bucket; the block is called for every event of that
/// bucket until the pair is removed with the matching `remove…Observer` method or the observer goes away.
///
/// Delivery (DESIGN.md §4): for every event the client calls, on its delivery queue (`DispatchQueue.main` unless
/// the configuration names another), first the `PNDelegate` method, then this center's observers of the event's
/// bucket in registration order, then posts the `NotificationCenter` notification, then calls the operation's own
/// completion block. Completion blocks are not observers of this center and `remove…Observer` never touches them.
///
/// Registrations:
/// - The observer is held **weakly** (3.4 retained it): once it goes away its registrations stop firing and their
///   blocks are released. The block itself is held strongly, so a block that captures the observer strongly keeps
///   it alive; capture it weakly when the registration should end with the observer.
/// - Observers are compared by identity (`===`). Registering the same observer twice in one bucket gives two
///   entries that both fire, as in 3.4; each `remove…Observer` call removes only the first (oldest) of them.
/// - `add…` and `remove…` may be called from any thread, including from inside a block of this center. A delivery
///   round works on the bucket's registrations as they were when the round started, without holding a lock
///   while blocks run: an observer added during a round starts with the next event, and one removed during a
///   round gets nothing more, not even later in the same round.
///
/// `defaultCenter()` is the center of the shared client (`PubNub.sharedInstance()`); a center made with `init()`
/// observes whichever client it is later attached to, so several clients in one process each have their own.
/// Neither has a bucket for the configuration-error and will-connect events, which 3.4's center did not relay
/// either (spec/API-3.4.md §2.2).
public final class PNObservationCenter: Sendable {
    private static let shared = PNObservationCenter()

    /// The bucket tables; the `deliver…` methods in `PNObservationCenter+Delivery.swift` call them.
    let connectionStateObservers = ObserverTable<PNClientConnectionStateChangeBlock>()
    let subscriptionStateObservers = ObserverTable<PNClientChannelSubscriptionHandlerBlock>()
    let unsubscriptionObservers = ObserverTable<PNClientChannelUnsubscriptionHandlerBlock>()
    let presenceEnablingObservers = ObserverTable<PNClientPresenceEnableHandlingBlock>()
    let presenceDisablingObservers = ObserverTable<PNClientPresenceDisableHandlingBlock>()
    let pushNotificationsEnableObservers = ObserverTable<PNClientPushNotificationsEnableHandlingBlock>()
    let pushNotificationsDisableObservers = ObserverTable<PNClientPushNotificationsDisableHandlingBlock>()
    let pushNotificationsEnabledChannelsObservers =
        ObserverTable<PNClientPushNotificationsEnabledChannelsHandlingBlock>()
    let pushNotificationsRemoveObservers = ObserverTable<PNClientPushNotificationsRemoveHandlingBlock>()
    let timeTokenObservers = ObserverTable<PNClientTimeTokenReceivingCompleteBlock>()
    let messageProcessingObservers = ObserverTable<PNClientMessageProcessingBlock>()
    let messageReceiveObservers = ObserverTable<PNClientMessageHandlingBlock>()
    let presenceEventObservers = ObserverTable<PNClientPresenceEventHandlingBlock>()
    let messageHistoryObservers = ObserverTable<PNClientHistoryLoadHandlingBlock>()
    let participantsListObservers = ObserverTable<PNClientParticipantsHandlingBlock>()

    /// 3.4's `+defaultCenter`: the center whose observers receive the events of the shared client
    /// (`PubNub.sharedInstance()`).
    ///
    /// Always the same instance, created on first use and never replaced: its registrations survive
    /// `PubNub.resetClient()` and configuration changes. Safe to call from any thread.
    public static func defaultCenter() -> PNObservationCenter {
        self.shared
    }

    /// Creates an empty center for a client other than the shared one (a layer addition: 3.4 had only the
    /// default center).
    ///
    /// The center has no client of its own: its observers receive the events of the client that is attached to it
    /// (that binding is made on the client's side), on that client's delivery queue, and nothing before then.
    public init() {}
}
