import Dispatch
import PlatformSupport

// Delivery (docs/DESIGN.md §4): every event goes to the delegate, then the observation-center sinks (registration
// order), then the notification sinks, then the completion block of the call it completes — all on the delivery
// queue, never on the client queue and never under a lock.

/// Receives every event on the delivery queue. `PNObservationCenter` and the notification adapter plug in here;
/// tests plug in recorders.
package protocol ClientEventSink: AnyObject, Sendable {
    /// Called on the delivery queue, in emission order, with the client that emitted `event`.
    func handle(_ event: ClientEvent, from client: PubNub)
}

/// A user block (or any closure that calls user code) carried to the delivery queue.
///
/// The 3.4 block types are plain closures, not `@Sendable`, so ported code that captures its own state compiles.
// @unchecked: the closure is called only on the delivery queue, by `EventDispatcher`; nothing else touches it.
struct DeliveryBlock: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}

/// Sends events to their listeners on the delivery queue in the fixed order.
final class EventDispatcher: Sendable {
    /// The slot order of docs/DESIGN.md §4.
    enum Slot: Sendable {
        case observationCenter
        case notifications
    }

    private let state: Locked<State>

    private struct State {
        var queue: DispatchQueue
        weak var client: PubNub?
        weak var delegate: (any PNDelegate)?
        var observationSinks: [any ClientEventSink] = []
        var notificationSinks: [any ClientEventSink] = []
    }

    init(queue: DispatchQueue) {
        self.state = Locked(State(queue: queue))
    }

    // MARK: - Configuration (any thread)

    /// The queue every listener runs on.
    var queue: DispatchQueue {
        self.state.withLock { $0.queue }
    }

    /// Replaces the delivery queue; events emitted afterwards go to the new one.
    func setQueue(_ queue: DispatchQueue) {
        self.state.withLock { $0.queue = queue }
    }

    /// The client passed to listeners (held weakly: the client owns the dispatcher).
    func attach(client: PubNub) {
        self.state.withLock { $0.client = client }
    }

    /// The delegate (held weakly, as 3.4 did).
    var delegate: (any PNDelegate)? {
        get { self.state.withLock { $0.delegate } }
        set { self.state.withLock { $0.delegate = newValue } }
    }

    /// Appends `sink` to `slot`; sinks of a slot run in the order they were added. A sink already in the slot is
    /// not added again, so an adapter installed twice still delivers each event once.
    func addSink(_ sink: any ClientEventSink, to slot: Slot) {
        self.state.withLock { state in
            switch slot {
            case .observationCenter:
                if !state.observationSinks.contains(where: { $0 === sink }) { state.observationSinks.append(sink) }
            case .notifications:
                if !state.notificationSinks.contains(where: { $0 === sink }) { state.notificationSinks.append(sink) }
            }
        }
    }

    /// Removes `sink` from every slot.
    func removeSink(_ sink: any ClientEventSink) {
        self.state.withLock { state in
            state.observationSinks.removeAll { $0 === sink }
            state.notificationSinks.removeAll { $0 === sink }
        }
    }

    // MARK: - Delivery

    /// Delivers `event` asynchronously on the delivery queue.
    ///
    /// - Parameters:
    ///   - notify: false when gate G suppresses the delegate and the sinks (docs/API-3.4.md §1.3); the block still
    ///     runs, so every call completes exactly once.
    ///   - completion: the block of the call this event completes (or reports progress of), run last.
    func deliver(_ event: ClientEvent, notify: Bool, completion: DeliveryBlock? = nil) {
        let queue = self.queue
        queue.async {
            if notify {
                self.notifyListeners(event)
            }
            completion?.run()
        }
    }

    /// Delivers the events of `batch` asynchronously on the delivery queue, in order and as one item among the other
    /// events (nothing emitted later overtakes them), making each event only when its turn comes, so a large
    /// subscribe answer never exists as events all at once.
    ///
    /// - Parameters:
    ///   - notify: false when gate G suppresses the events: none is made.
    ///   - delivered: runs on the delivery queue once every event of the batch has been delivered.
    func deliver(_ batch: SubscribeBatch, notify: Bool, delivered: @escaping @Sendable () -> Void) {
        let queue = self.queue
        queue.async {
            if notify {
                batch.forEachEvent { self.notifyListeners($0) }
            }
            delivered()
        }
    }

    /// Runs a completion block on the delivery queue without an event: pre-flight results that 3.4 reported
    /// to the block only (connect while connected: 101; connect without network: 102).
    func deliverBlock(_ block: DeliveryBlock) {
        self.queue.async {
            block.run()
        }
    }

    /// Runs `body` on the delivery queue (for user code that is not an event, such as the delegate's `should…`
    /// queries), then hands its answer to `reply`.
    func ask<Answer: Sendable>(
        _ body: @escaping @Sendable (PubNub?, (any PNDelegate)?) -> Answer,
        reply: @escaping @Sendable (Answer) -> Void
    ) {
        let queue = self.queue
        queue.async {
            let (client, delegate) = self.state.withLock { ($0.client, $0.delegate) }
            reply(body(client, delegate))
        }
    }

    private func notifyListeners(_ event: ClientEvent) {
        // Read the listeners under the lock, call them without it.
        let (client, delegate, observers, notifiers) = self.state.withLock {
            ($0.client, $0.delegate, $0.observationSinks, $0.notificationSinks)
        }
        guard let client else { return }
        if let delegate {
            event.send(to: delegate, from: client)
        }
        for sink in observers {
            sink.handle(event, from: client)
        }
        for sink in notifiers {
            sink.handle(event, from: client)
        }
    }
}
