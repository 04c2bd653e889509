// The jobs of a delivery lane and the listener calls they are made of (docs/DESIGN.md §4). A job hands out one call
// at a time and moves past it before the lane makes it, so a callback that runs the run loop, and with it a nested
// drain, finds the job at the next call: every listener still receives the events in the order they happened, and
// each event still goes delegate → observers → notification → block.

/// One listener call, made by the lane outside every lock.
enum DeliveryStep {
    case delegate(ClientEvent, any PNDelegate, PubNub)
    case sink(any ClientEventSink, ClientEvent, PubNub)
    case block(DeliveryBlock)

    func perform() {
        switch self {
        case .delegate(let event, let delegate, let client):
            event.send(to: delegate, from: client)
        case .sink(let sink, let event, let client):
            sink.handle(event, from: client)
        case .block(let block):
            block.run()
        }
    }
}

/// The listeners of a client when an event's turn comes: read once per event, called without the lock.
struct DeliveryListeners {
    let client: PubNub
    let delegate: (any PNDelegate)?
    /// The observation-center sinks, then the notification sinks.
    let sinks: [any ClientEventSink]
}

/// The listener calls of one event, in the fixed order.
struct EventCalls {
    let event: ClientEvent
    let listeners: DeliveryListeners
    /// 0: the delegate; 1 + i: sink i.
    private var position = 0

    init(_ event: ClientEvent, _ listeners: DeliveryListeners) {
        self.event = event
        self.listeners = listeners
    }

    mutating func next() -> DeliveryStep? {
        if self.position == 0 {
            self.position = 1
            if let delegate = self.listeners.delegate {
                return .delegate(self.event, delegate, self.listeners.client)
            }
        }
        let index = self.position - 1
        guard index < self.listeners.sinks.count else { return nil }
        self.position += 1
        return .sink(self.listeners.sinks[index], self.event, self.listeners.client)
    }
}

/// An item of a lane's FIFO. Only the lane's draining thread calls `nextStep`, which never calls user code.
protocol DeliveryJob: AnyObject {
    /// The next call, already moved past; nil once the job is done. `listeners` reads the client's listeners now
    /// (nil once the client is gone).
    func nextStep(_ listeners: () -> DeliveryListeners?) -> DeliveryStep?
}

/// One event to the listeners (unless gate G closed it), then the block of the call it completes.
final class EventJob: DeliveryJob {
    private let event: ClientEvent
    private var notify: Bool
    private var calls: EventCalls?
    private var completion: DeliveryBlock?

    init(_ event: ClientEvent, notify: Bool, completion: DeliveryBlock?) {
        self.event = event
        self.notify = notify
        self.completion = completion
    }

    func nextStep(_ listeners: () -> DeliveryListeners?) -> DeliveryStep? {
        if self.notify {
            self.notify = false
            self.calls = listeners().map { EventCalls(self.event, $0) }
        }
        if let step = self.calls?.next() {
            return step
        }
        self.calls = nil
        if let completion = self.completion {
            self.completion = nil
            return .block(completion)
        }
        return nil
    }
}

/// The events of one subscribe answer, each made when its turn comes, then `delivered`.
final class BatchJob: DeliveryJob {
    private let batch: SubscribeBatch
    private var notify: Bool
    private var nextItem = 0
    /// Events of the current item not yet started (a message and the error that reports it, at most).
    private var waiting: [ClientEvent] = []
    private var calls: EventCalls?
    private var delivered: DeliveryBlock?

    init(_ batch: SubscribeBatch, notify: Bool, delivered: DeliveryBlock) {
        self.batch = batch
        self.notify = notify
        self.delivered = delivered
    }

    func nextStep(_ listeners: () -> DeliveryListeners?) -> DeliveryStep? {
        while self.notify {
            if let step = self.calls?.next() {
                return step
            }
            self.calls = nil
            if self.waiting.isEmpty {
                guard self.nextItem < self.batch.items.count else {
                    self.notify = false
                    break
                }
                self.waiting = self.batch.events(ofItemAt: self.nextItem)
                self.nextItem += 1
                continue
            }
            let event = self.waiting.removeFirst()
            guard let current = listeners() else {
                self.notify = false  // the client is gone: nobody listens any more
                break
            }
            self.calls = EventCalls(event, current)
        }
        if let delivered = self.delivered {
            self.delivered = nil
            return .block(delivered)
        }
        return nil
    }
}

/// One block: a pre-flight result reported only to the block, or a delegate query.
final class BlockJob: DeliveryJob {
    private var block: DeliveryBlock?

    init(_ block: DeliveryBlock) {
        self.block = block
    }

    func nextStep(_ listeners: () -> DeliveryListeners?) -> DeliveryStep? {
        defer { self.block = nil }
        return self.block.map { .block($0) }
    }
}
