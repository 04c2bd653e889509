import Foundation
import PlatformSupport

// The engine behind one `PubNub` instance. All state lives on one serial queue; user code never runs on it.
// Operations (the 3.4 "locking" calls) run one at a time in call order (docs/BEHAVIOR.md §1.2): each takes the lock
// when it starts and releases it by finishing exactly once — success, failure, timeout or abort. With
// `publishPipelineDepth` above 1 a publish written on the pipelined lane releases the lock early (`release`) and
// waits for its answer among the `pipelined` operations; the next publish may then start, while any other operation
// waits until every pipelined one has finished.

/// A running or waiting operation. Queue-confined. (Not `Operation`: that would shadow `Foundation.Operation` in
/// every file of the module.)
final class EngineOperation {
    let id: Int
    let name: String
    /// True once the operation reported its outcome; later outcomes are ignored (exactly-once).
    fileprivate(set) var finished = false
    /// Called when the client fails everything in flight (network loss: 104, user disconnect: 105).
    var onAbort: ((Int) -> Void)?
    /// Cancelled when the operation finishes.
    var timers: [any EngineTimer] = []
    var tasks: [any TransportTask] = []

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// What the getters read from any thread, copied from the queue-confined state after each change.
struct ClientSnapshot: Sendable {
    var connected = false
    var uuid: String?
    /// The identifier of the latest `setClientIdentifier` (or configuration `uuid`) until the engine has applied
    /// it: the facade writes it before handing the change to the queue, so the getter returns the new value at once
    /// (read-your-writes, as 3.4's setter stored it synchronously).
    var requestedUUID: String?
    /// A copy of the configuration the app applied last (valid ones only), written by the facade at once.
    var configuration: PNConfiguration?
    /// Full names, `-pnpres` companions included.
    var subscribed: [String] = []
    /// The origin of the applied configuration.
    var origin: String?
}

final class ClientEngine: @unchecked Sendable {
    // @unchecked: every `var` below is read and written only on `queue`; `snapshot` and `dispatcher` are lock
    // boxes, the lanes are Sendable.

    let queue = DispatchQueue(label: "com.pubnub.legacy.client")
    let dispatcher: EventDispatcher
    let snapshot = Locked(ClientSnapshot())

    let serviceLane: any HTTPTransport
    let longPollLane: any HTTPTransport
    /// Carries publishes when `publishPipelineDepth` is above 1 (plain `http` origins).
    let pipelineLane: any HTTPTransport

    var settings: ClientSettings? {
        didSet {
            // The observation center reports the configured origin with connection failures, on the delivery queue.
            self.snapshot.withLock { [origin = self.settings?.origin] in $0.origin = origin }
            if let new = self.settings {
                self.security.settingsApplied(old: oldValue, new: new)
            }
        }
    }
    /// The TLS ladder (docs/BEHAVIOR.md §2.8): the rung requests use now and the last connect failure.
    var security: SecurityLadder
    /// Whether the https transport can accept any certificate: the socket transport with OpenSSL (Linux) and
    /// URLSession on Apple platforms (a server-trust challenge) can; URLSession on Linux cannot. Taken from the
    /// service lane, which carries the connect attempts.
    var canRelaxCertificateValidation: Bool { self.security.canRelax }
    var uuid: String?
    var connection = ConnectionStateMachine()
    private(set) lazy var loop = SubscribeLoop(engine: self)

    private var waiting: [(name: String, pipelinable: Bool, start: (EngineOperation) -> Void)] = []
    private(set) var current: EngineOperation?
    /// Publishes that released the lock after being written on the pipelined lane and wait for their answers, oldest
    /// first.
    private(set) var pipelined: [EngineOperation] = []
    private var nextOperationID = 0
    /// True while the queue starts operations, or while `holdingOperations` runs: an operation that finishes then
    /// does not start the next one (the running loop, or the end of `holdingOperations`, does).
    private var pumping = false

    /// Subscription changes waiting for the loop, by operation id.
    var subscriptionChanges: [Int: SubscriptionChange] = [:]
    var probeTimer: (any EngineTimer)?
    /// Probe in flight, the loop's pending check and recovery (docs/BEHAVIOR.md §2.2, §3.8).
    var recovery = RecoveryMachine()
    /// What the last reachability probe met (nil once one was answered): the cause a 102 without a connect
    /// attempt, or a 103, names.
    var lastProbeFailure: TransportFailure?
    var connectAttemptTimer: (any EngineTimer)?
    var connectAttemptTask: (any TransportTask)?
    var heartbeatTimer: (any EngineTimer)?
    var shutDown = false
    /// 3.4 purged the process-wide channel cache on a user disconnect. Only the shared client does so here:
    /// with several clients in one process, one client's disconnect must not reset the channels of another.
    var purgesChannelCacheOnDisconnect = false
    /// The channel objects the app subscribed with, by name: events update and name these objects, so another
    /// client's purge of the shared channel cache cannot detach them from the app's references.
    var channelObjects: [String: PNChannel] = [:]
    /// The cipher of the current settings, rebuilt when the cipher key or mode changes.
    var cryptorCache: (key: String, mode: CipherMode, cryptor: MessageCryptor)?

    /// The intervals of this client's timers, fixed when it is made.
    let timings: EngineTimings
    /// Schedules every timer of the engine and its loop (`schedule(after:_:)`).
    let clock: any EngineClock

    init(
        deliveryQueue: DispatchQueue,
        serviceLane: any HTTPTransport,
        longPollLane: any HTTPTransport,
        pipelineLane: any HTTPTransport,
        timings: EngineTimings = .standard,
        clock: any EngineClock = DispatchClock()
    ) {
        self.timings = timings
        self.clock = clock
        self.dispatcher = EventDispatcher(queue: deliveryQueue)
        self.serviceLane = serviceLane
        self.longPollLane = longPollLane
        self.pipelineLane = pipelineLane
        self.security = SecurityLadder(canRelax: serviceLane.canRelaxCertificateValidation)
    }

    /// Stops everything without events (the owning `PubNub` went away, or `resetClient`).
    func shutdown() {
        self.queue.async {
            self.shutDown = true
            self.connection.resetRequested()
            self.cancelTimers()
            self.loop.stop()
            self.waiting.removeAll()
            if let current = self.current {
                current.finished = true
                current.timers.forEach { $0.cancel() }
                current.tasks.forEach { $0.cancel() }
            }
            self.current = nil
            for operation in self.pipelined {
                operation.finished = true
                operation.timers.forEach { $0.cancel() }
                operation.tasks.forEach { $0.cancel() }
            }
            self.pipelined.removeAll()
            self.serviceLane.invalidate()
            self.longPollLane.invalidate()
            self.pipelineLane.invalidate()
        }
    }

    // MARK: - Operations

    /// Appends an operation; it starts once every earlier one finished — or, when `pipelinable` (a publish), once
    /// every earlier one finished or was released into the pipeline and the pipeline has room. Call on `queue`.
    func submit(
        _ name: String,
        atHead: Bool = false,
        pipelinable: Bool = false,
        _ start: @escaping (EngineOperation) -> Void
    ) {
        dispatchPrecondition(condition: .onQueue(self.queue))
        guard !self.shutDown else { return }
        if atHead {
            self.waiting.insert((name, pipelinable, start), at: 0)
        } else {
            self.waiting.append((name, pipelinable, start))
        }
        self.pump()
    }

    /// Publishes that may wait for their answers at once: `publishPipelineDepth`, or 1 where publishes do not go
    /// through the pipelined lane (TLS).
    var pipelineDepth: Int {
        guard let settings = self.settings, settings.publishPipelineDepth > 1,
            !settings.secure || self.security.level == .plain
        else {
            return 1
        }
        return settings.publishPipelineDepth
    }

    /// Lets the operations after `operation` (the running publish, just written on the pipelined lane) start while it
    /// waits for its answer; it still finishes exactly once through `finish`.
    func release(_ operation: EngineOperation) {
        dispatchPrecondition(condition: .onQueue(self.queue))
        guard self.current === operation, !operation.finished else {
            preconditionFailure("release of an operation that is not the running one")
        }
        self.current = nil
        self.pipelined.append(operation)
        self.pump()
    }

    /// Ends `operation` (if it has not ended) and starts the next waiting one.
    func finish(_ operation: EngineOperation) {
        dispatchPrecondition(condition: .onQueue(self.queue))
        guard !operation.finished else { return }
        operation.finished = true
        operation.timers.forEach { $0.cancel() }
        operation.timers.removeAll()
        operation.tasks.removeAll()
        operation.onAbort = nil
        if self.current === operation {
            self.current = nil
            self.pump()
        } else if let index = self.pipelined.firstIndex(where: { $0 === operation }) {
            self.pipelined.remove(at: index)
            self.pump()
        }
    }

    /// Fails the pipelined publishes (oldest first) and then the running operation through their abort handlers
    /// (network loss, user disconnect).
    func abortCurrent(code: Int) {
        for operation in self.pipelined + [self.current].compactMap({ $0 }) where !operation.finished {
            operation.tasks.forEach { $0.cancel() }
            if let abort = operation.onAbort {
                operation.onAbort = nil
                abort(code)
            }
        }
    }

    /// Runs `body` with the queue held: operations that finish inside it do not start the next one until it returns
    /// (a user disconnect delivers did-disconnect, a network loss did-disconnect-with-error, before any call queued
    /// behind them starts).
    func holdingOperations(_ body: () -> Void) {
        let wasPumping = self.pumping
        self.pumping = true
        body()
        self.pumping = wasPumping
        self.pump()
    }

    private func pump() {
        guard !self.pumping else { return }
        self.pumping = true
        defer { self.pumping = false }
        while self.current == nil, let first = self.waiting.first, !self.shutDown {
            if !self.pipelined.isEmpty && (!first.pipelinable || self.pipelined.count >= self.pipelineDepth) {
                // Waits for answers: a publish for room in the pipeline, anything else for the pipeline to drain.
                break
            }
            let next = self.waiting.removeFirst()
            self.nextOperationID += 1
            let operation = EngineOperation(id: self.nextOperationID, name: next.name)
            self.current = operation
            next.start(operation)
        }
    }

    // MARK: - Timers and requests

    /// Runs `work` on the queue after `delay` seconds of `clock`; the returned timer cancels it. Call on the queue.
    @discardableResult
    func schedule(after delay: TimeInterval, _ work: @escaping () -> Void) -> any EngineTimer {
        self.clock.schedule(after: delay, on: self.queue, work)
    }

    /// The request context of the current settings and identifier.
    var context: EndpointContext? {
        guard let settings = self.settings, let uuid = self.uuid else { return nil }
        return settings.endpointContext(uuid: uuid, security: self.security.level)
    }

    /// Sends `endpoint` on `lane`; `completion` runs on the queue.
    @discardableResult
    func send(
        _ endpoint: Endpoint,
        lane: any HTTPTransport,
        timeout: TimeInterval,
        completion: @escaping (Result<TransportResponse, TransportFailure>) -> Void
    ) -> (any TransportTask)? {
        guard let context = self.context, var request = endpoint.request(in: context, timeout: timeout) else {
            completion(.failure(.other(domain: "PubNubLegacy", code: -1, description: "invalid origin")))
            return nil
        }
        if let settings = self.settings {
            request.limits.maximumBodyBytes = settings.maximumResponseBodySize
        }
        let box = QueueBox(completion)
        return lane.send(request) { result in
            self.queue.async {
                box.value(result)
            }
        }
    }

    // MARK: - Events

    /// Gate G at this moment.
    var gateIsOpen: Bool { self.connection.gateIsOpen }

    /// Emits `event` to its listeners (gated unless it is a connection event) and then `completion`.
    func emit(_ event: ClientEvent, completion: DeliveryBlock? = nil) {
        guard !self.shutDown else { return }
        self.dispatcher.deliver(event, notify: event.isUngated || self.gateIsOpen, completion: completion)
    }

    /// Emits the events of one subscribe answer (gated like messages: all or none, by the gate at this moment);
    /// `delivered` then runs on the queue once the delivery queue has gone through them.
    func emit(_ batch: SubscribeBatch, delivered: @escaping () -> Void) {
        guard !self.shutDown else { return }
        let box = QueueBox(delivered)
        self.dispatcher.deliver(batch, notify: self.gateIsOpen) {
            self.queue.async { box.value() }
        }
    }

    /// The regular (non-`-pnpres`) channels among `names`, as channel objects.
    static func regularChannels(_ names: [String]) -> [PNChannel] {
        PNChannel.channelsWithNames(Self.regularNames(names))
    }

    /// The object for channel `name`: the one the app subscribed with, else the cached one.
    func channelObject(named name: String) -> PNChannel {
        self.channelObjects[name] ?? PNChannel.channelWithName(name)
    }

    /// Remembers the objects the app passed for later events.
    func remember(_ channels: [PNChannel]) {
        for channel in channels {
            self.channelObjects[channel.name] = channel
        }
    }

    /// The regular (non-`-pnpres`) names among `names`.
    static func regularNames(_ names: [String]) -> [String] {
        names.filter { !PNChannelPresence.isPresenceObservingChannelName($0) }
    }

    /// Copies what the getters read.
    func updateSnapshot() {
        let connected = self.connection.isConnected
        let uuid = self.uuid
        let subscribed = self.loop.machine.channels
        self.snapshot.withLock {
            $0.connected = connected
            $0.uuid = uuid
            $0.subscribed = subscribed
            if $0.requestedUUID == uuid {
                $0.requestedUUID = nil
            }
        }
    }

    private func cancelTimers() {
        self.probeTimer?.cancel()
        self.probeTimer = nil
        self.connectAttemptTimer?.cancel()
        self.connectAttemptTimer = nil
        self.connectAttemptTask?.cancel()
        self.connectAttemptTask = nil
        self.heartbeatTimer?.cancel()
        self.heartbeatTimer = nil
    }
}

/// Carries a queue-confined closure through a transport callback back to the queue.
// @unchecked: the closure is created on the client queue and called only on it (`ClientEngine.send`).
struct QueueBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// A subscription change waiting for the loop: what to emit when it completes or fails.
struct SubscriptionChange {
    var onSuccess: () -> Void
    var onFailure: (SubscribeFailure) -> Void
}

/// A user block held until it is called on the delivery queue.
// @unchecked: `block` is only ever called inside a `DeliveryBlock`, i.e. on the delivery queue.
struct UserBlock<Block>: @unchecked Sendable {
    let block: Block

    init?(_ block: Block?) {
        guard let block else { return nil }
        self.block = block
    }
}
