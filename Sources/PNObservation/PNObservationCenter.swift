import Foundation
import PlatformSupport
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
/// Delivery (docs/DESIGN.md §4): for every event the client calls, on its delivery queue (`DispatchQueue.main` unless
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
/// Clients: `defaultCenter()` observes the shared client (`PubNub.sharedInstance()`, and the new shared client after
/// each `resetClient()`). Any center can observe further clients with `observe(_:)` (or `init(client:)`), so
/// several clients in one process can each have their own center. A client observed twice by one center still
/// delivers each event once. A center lives at least as long as a client it observes. Neither kind has a bucket
/// for the configuration-error and will-connect events, which 3.4's center did not relay either
/// (docs/API-3.4.md §2.2).
///
/// An `NSObject`, as in 3.4: `isEqual(_:)` and `hash` are identity's.
public final class PNObservationCenter: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a `let` holding a lock box (`Locked`, `ObserverTable`).
    /// Created on the first `defaultCenter()` call (a lazy, once-only global initializer), which is when it starts
    /// following the shared client.
    private static let shared: PNObservationCenter = {
        let center = PNObservationCenter()
        PubNub.addSharedInstanceSink(center.adapter())
        return center
    }()

    /// The adapter that feeds this center, while some client holds it (weak: the adapter holds the center).
    private let adapterBox = Locked<WeakAdapter>(WeakAdapter())

    private struct WeakAdapter {
        weak var adapter: ObservationCenterAdapter?
    }

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

    /// Creates an empty center that observes no client yet (a layer addition: 3.4 had only the default center);
    /// attach clients with `observe(_:)`.
    public override init() {
        super.init()
    }

    /// Creates a center whose observers receive the events of `client` (a layer addition), as
    /// `PNObservationCenter()` followed by `observe(client)`.
    public convenience init(client: PubNub) {
        self.init()
        self.observe(client)
    }

    /// Makes this center's observers receive the events of `client` from the next event on, on that client's
    /// delivery queue, after its delegate and before its notification and completion block (a layer addition).
    ///
    /// Observing the same client again changes nothing: each event still reaches each observer once. A center can
    /// observe several clients; its blocks then receive the events of all of them. The client keeps the center
    /// alive until `stopObserving(_:)` or until the client goes away. Callable from any thread.
    public func observe(_ client: PubNub) {
        client.addEventSink(self.adapter(), toNotificationSlot: false)
    }

    /// Stops delivering the events of `client` to this center's observers; events already being delivered on the
    /// delivery queue finish. Does nothing when the center does not observe `client`. Callable from any thread.
    ///
    /// `defaultCenter()` stops following the shared client only until the next `resetClient()`.
    public func stopObserving(_ client: PubNub) {
        guard let adapter = self.adapterBox.withLock({ $0.adapter }) else {
            return
        }
        client.removeEventSink(adapter)
    }

    /// This center's adapter, made the first time a client is attached (or again after every client dropped it).
    private func adapter() -> ObservationCenterAdapter {
        self.adapterBox.withLock { box in
            if let adapter = box.adapter {
                return adapter
            }
            let adapter = ObservationCenterAdapter(center: self)
            box.adapter = adapter
            return adapter
        }
    }
}
