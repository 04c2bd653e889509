import Dispatch
import PlatformSupport

// Delivery (docs/DESIGN.md §4): every event goes to the delegate, then the observation-center sinks (registration
// order), then the notification sinks, then the completion block of the call it completes — all on the delivery
// queue (for the main queue: on the main thread, from a main-queue block or from the main run loop), never on the
// client queue and never under a lock.

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
///
/// Each delivery is a job in the FIFO of the queue's `DeliveryLane`; the lane of the main queue also drains through
/// the main run loop, so callbacks reach a main thread that runs its run loop inside another callback.
final class EventDispatcher: Sendable {
    /// The slot order of docs/DESIGN.md §4.
    enum Slot: Sendable {
        case observationCenter
        case notifications
    }

    private let state: Locked<State>
    private let currentLane: Locked<DeliveryLane>

    /// The listeners. The lanes read them through this box, which they share with the dispatcher.
    private struct State {
        weak var client: PubNub?
        weak var delegate: (any PNDelegate)?
        /// The observation-center sinks (the first `observationSinkCount`), then the notification sinks.
        var sinks: [any ClientEventSink] = []
        var observationSinkCount = 0

        /// The listeners now, to be called without the lock; nil once the client is gone.
        var listeners: DeliveryListeners? {
            self.client.map { DeliveryListeners(client: $0, delegate: self.delegate, sinks: self.sinks) }
        }
    }

    init(queue: DispatchQueue) {
        let state = Locked(State())
        self.state = state
        self.currentLane = Locked(Self.lane(for: queue, state))
    }

    private static func lane(for queue: DispatchQueue, _ state: Locked<State>) -> DeliveryLane {
        DeliveryLane(queue: queue) { state.withLock { $0.listeners } }
    }

    // MARK: - Configuration (any thread)

    /// The queue every listener runs on.
    var queue: DispatchQueue {
        self.lane.queue
    }

    /// Replaces the delivery queue; events emitted afterwards go to the new one. Deliveries already queued stay in
    /// the old queue's lane and run there.
    func setQueue(_ queue: DispatchQueue) {
        self.currentLane.withLock { lane in
            if PNConfiguration.QueueIdentity(queue) != PNConfiguration.QueueIdentity(lane.queue) {
                lane = Self.lane(for: queue, self.state)
            }
        }
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
                guard !state.sinks[..<state.observationSinkCount].contains(where: { $0 === sink }) else { return }
                state.sinks.insert(sink, at: state.observationSinkCount)
                state.observationSinkCount += 1
            case .notifications:
                guard !state.sinks[state.observationSinkCount...].contains(where: { $0 === sink }) else { return }
                state.sinks.append(sink)
            }
        }
    }

    /// Removes `sink` from every slot.
    func removeSink(_ sink: any ClientEventSink) {
        self.state.withLock { state in
            state.observationSinkCount -= state.sinks[..<state.observationSinkCount].filter { $0 === sink }.count
            state.sinks.removeAll { $0 === sink }
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
        self.lane.enqueue(EventJob(event, notify: notify, completion: completion))
    }

    /// Delivers the events of `batch` asynchronously on the delivery queue, in order and as one item among the other
    /// events (nothing emitted later overtakes them), making each event only when its turn comes, so a large
    /// subscribe answer never exists as events all at once.
    ///
    /// - Parameters:
    ///   - notify: false when gate G suppresses the events: none is made.
    ///   - delivered: runs on the delivery queue once every event of the batch has been delivered.
    func deliver(_ batch: SubscribeBatch, notify: Bool, delivered: @escaping @Sendable () -> Void) {
        self.lane.enqueue(BatchJob(batch, notify: notify, delivered: DeliveryBlock(delivered)))
    }

    /// Runs a completion block on the delivery queue without an event: pre-flight results that 3.4 reported
    /// to the block only (connect while connected: 101; connect without network: 102).
    func deliverBlock(_ block: DeliveryBlock) {
        self.lane.enqueue(BlockJob(block))
    }

    /// Runs `body` on the delivery queue (for user code that is not an event, such as the delegate's `should…`
    /// queries), then hands its answer to `reply`.
    func ask<Answer: Sendable>(
        _ body: @escaping @Sendable (PubNub?, (any PNDelegate)?) -> Answer,
        reply: @escaping @Sendable (Answer) -> Void
    ) {
        self.lane.enqueue(
            BlockJob(
                DeliveryBlock {
                    let (client, delegate) = self.state.withLock { ($0.client, $0.delegate) }
                    reply(body(client, delegate))
                }
            )
        )
    }

    /// The lane of the current delivery queue.
    var lane: DeliveryLane {
        self.currentLane.current
    }
}
