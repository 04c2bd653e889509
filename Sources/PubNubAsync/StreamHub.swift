import PlatformSupport
import PubNubLegacy

// The streams of one `PubNubClient`: a sink in the client's delivery (after the 3.4 delegate, observers and
// notifications of each event), and a listener of its statuses. Every stream buffers up to its bound
// (`AsyncStream.bufferingNewest`); an element that would exceed it pushes out the oldest one, and the loss is
// reported as a `bufferOverflow` status instead of passing silently.

/// Counts what one stream dropped and decides when to report it.
///
/// An overflow runs from the first drop until the stream next accepts an element without dropping (its consumer
/// caught up). A message or presence stream reports the first drop at once and the rest of the overflow, if any,
/// when it ends; the statuses stream cannot report into itself while full, so it reports the whole overflow when it
/// ends. The counts of the reports add up to every element dropped.
struct OverflowCounter {
    private var overflowing = false
    private var unreported = 0

    /// An element was dropped. Returns the count to report now (`reportsAtOnce`: the first drop of an overflow).
    mutating func dropped(reportsAtOnce: Bool) -> Int? {
        self.unreported += 1
        guard !self.overflowing else { return nil }
        self.overflowing = true
        return reportsAtOnce ? self.take() : nil
    }

    /// An element was buffered without a drop. Returns the count still unreported when this ends an overflow.
    mutating func accepted() -> Int? {
        guard self.overflowing else { return nil }
        self.overflowing = false
        return self.take()
    }

    private mutating func take() -> Int? {
        defer { self.unreported = 0 }
        return self.unreported > 0 ? self.unreported : nil
    }
}

/// Routes a client's events and statuses to the streams made by `PubNubClient`. Sendable: its state lives in one
/// lock; continuations are thread-safe, and are finished outside the lock (finishing runs `onTermination`, which
/// takes the lock).
final class StreamHub: ClientEventSink {
    private struct Subscriber<Element: Sendable> {
        let continuation: AsyncStream<Element>.Continuation
        /// The channel name the stream is limited to; nil for every channel.
        let channel: String?
        var overflow = OverflowCounter()
    }

    private struct State {
        var nextID = 0
        var finished = false
        var messages: [Int: Subscriber<PNMessage>] = [:]
        var presence: [Int: Subscriber<PNPresenceEvent>] = [:]
        var statuses: [Int: Subscriber<PNStatus>] = [:]
    }

    private let state = Locked(State())

    // MARK: - Streams

    func messages(on channel: String?, bufferingNewest limit: Int) -> AsyncStream<PNMessage> {
        self.stream(limit, channel, \.messages)
    }

    func presence(on channel: String?, bufferingNewest limit: Int) -> AsyncStream<PNPresenceEvent> {
        self.stream(limit, channel, \.presence)
    }

    func statuses(bufferingNewest limit: Int) -> AsyncStream<PNStatus> {
        self.stream(limit, nil, \.statuses)
    }

    private func stream<Element: Sendable>(
        _ limit: Int,
        _ channel: String?,
        _ table: WritableKeyPath<State, [Int: Subscriber<Element>]>
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let id = self.state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            state.nextID += 1
            state[keyPath: table][state.nextID] = Subscriber(continuation: continuation, channel: channel)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Ids are unique across the three tables.
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.messages[id] = nil
                state.presence[id] = nil
                state.statuses[id] = nil
            }
        }
        return stream
    }

    /// Ends every stream (the `PubNubClient` went away); streams asked for later end at once.
    func finishAll() {
        let continuations = self.state.withLock { state -> [() -> Void] in
            state.finished = true
            var finishers: [() -> Void] = []
            finishers += state.messages.values.map { subscriber in { subscriber.continuation.finish() } }
            finishers += state.presence.values.map { subscriber in { subscriber.continuation.finish() } }
            finishers += state.statuses.values.map { subscriber in { subscriber.continuation.finish() } }
            state.messages.removeAll()
            state.presence.removeAll()
            state.statuses.removeAll()
            return finishers
        }
        continuations.forEach { $0() }
    }

    // MARK: - Delivery (on the client's delivery queue)

    func handle(_ event: ClientEvent, from client: PubNub) {
        switch event {
        case .didReceiveMessage(let message):
            self.deliver(message, channel: message.channel?.name, \.messages)
        case .didReceivePresenceEvent(let presenceEvent):
            self.deliver(presenceEvent, channel: presenceEvent.channel?.name, \.presence)
        default:
            break
        }
    }

    /// A status the client derived (`PubNub.addStatusListener`).
    func statusReceived(_ status: PNStatus) {
        self.state.withLock { state in
            Self.yield(status, in: &state)
        }
    }

    private func deliver<Element: Sendable>(
        _ element: Element,
        channel: String?,
        _ table: WritableKeyPath<State, [Int: Subscriber<Element>]>
    ) {
        self.state.withLock { state in
            var reports: [PNStatus] = []
            for (id, var subscriber) in state[keyPath: table]
            where subscriber.channel == nil || subscriber.channel == channel {
                let count: Int?
                switch subscriber.continuation.yield(element) {
                case .enqueued:
                    count = subscriber.overflow.accepted()
                case .dropped:
                    count = subscriber.overflow.dropped(reportsAtOnce: true)
                case .terminated:
                    count = nil
                @unknown default:
                    count = nil
                }
                state[keyPath: table][id] = subscriber
                if let count {
                    let channels = subscriber.channel.map { [PNChannel.channelWithName($0)] } ?? []
                    reports.append(PNStatus(category: .bufferOverflow, affectedChannels: channels, droppedCount: count))
                }
            }
            for report in reports {
                Self.yield(report, in: &state)
            }
        }
    }

    /// Yields `status` to every statuses stream; a stream whose overflow ends with this status gets its report next.
    private static func yield(_ status: PNStatus, in state: inout State) {
        for id in state.statuses.keys.sorted() {
            guard var subscriber = state.statuses[id] else { continue }
            var next: PNStatus? = status
            while let current = next {
                next = nil
                switch subscriber.continuation.yield(current) {
                case .enqueued:
                    if let count = subscriber.overflow.accepted() {
                        next = PNStatus(category: .bufferOverflow, droppedCount: count)
                    }
                case .dropped:
                    _ = subscriber.overflow.dropped(reportsAtOnce: false)
                case .terminated:
                    break
                @unknown default:
                    break
                }
            }
            state.statuses[id] = subscriber
        }
    }
}
