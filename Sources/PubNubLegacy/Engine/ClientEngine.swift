import Foundation
import PlatformSupport

// The engine behind one `PubNub` instance. All state lives on one serial queue; user code never runs on it.
// Operations (the 3.4 "locking" calls) run one at a time in call order (docs/BEHAVIOR.md §1.2): each takes the lock
// when it starts and releases it by finishing exactly once — success, failure, timeout or abort. With
// `publishPipelineDepth` above 1 a publish written on the pipelined lane releases the lock early (`release`) and
// waits for its answer among the `pipelined` operations; the next publish may then start, while any other operation
// waits until every pipelined one has finished. By default a publish is chained instead where the service lane can
// chain requests (`HTTPTransport.chainsRequests`): it releases the lock once handed to the lane, so the next publish
// starts and its request is made while the first one is on its way, and the lane writes it the moment the first
// one's answer is read; the second one's events are held until the first one's outcome is out (`chain`), so the
// four channels see what a sequential client shows.

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
    /// True once the deadline passed while the answer of a request already written may have been waiting unread
    /// (`TransportTask.expire()`): the answer still completes the operation, any failure reports the timeout.
    var deadlinePassed = false
    /// True for a publish sent chained on the service lane (`ClientEngine.chain`).
    var chained = false
    /// The events of a chained publish while an earlier one has not reported its outcome, in order; nil when its
    /// events go out at once (`ClientEngine.report(_:of:)`).
    var heldEmissions: [Emission]?

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

final class ClientEngine: @unchecked Sendable {
    // @unchecked: every `var` below is read and written only on `queue`; `snapshot` and `dispatcher` are lock
    // boxes, the lanes are Sendable.

    let queue = DispatchQueue(label: "com.pubnub.legacy.client")
    /// Marks `queue` (`DispatchQueue.getSpecific`), so a call can tell that it runs on it.
    private static let queueMark = DispatchSpecificKey<ObjectIdentifier>()
    /// Blocks handed to `queue` by `enqueue` and by the socket workers' answers (`counted`) that have not returned
    /// yet: while none has, a call that may run in place (`enqueue(inPlace:_:)`) finds the queue idle.
    private let handedBlocks = Locked(0)
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
    /// URLSession on Apple platforms (a server-trust challenge) can. Asked of the service lane, which carries the
    /// connect attempts, when the TLS ladder needs to know (asking loads OpenSSL on Linux).
    var canRelaxCertificateValidation: Bool { self.serviceLane.canRelaxCertificateValidation }
    var uuid: String?
    var connection = ConnectionStateMachine()
    private(set) lazy var loop = SubscribeLoop(engine: self)

    private var waiting = WaitingLine()
    private(set) var current: EngineOperation?
    /// Publishes that released the lock after being written on the pipelined lane and wait for their answers, oldest
    /// first.
    private(set) var pipelined: [EngineOperation] = []
    /// Chained publishes in call order, from their start until their events are out (`flushChain()`). Only the first
    /// reports at once; the others hold their events until every one before them has finished.
    private var chain: [EngineOperation] = []
    private var nextOperationID = 0
    /// The most operations waiting at once since the line was last empty (`FreePages` after a large backlog).
    private var backlogPeak = 0
    /// A backlog this long that has been worked off returns the allocator's free pages (`FreePages`).
    static let largeBacklog = 1_000
    /// True while the queue starts operations, or while `holdingOperations` runs: an operation that finishes then
    /// does not start the next one (the running loop, or the end of `holdingOperations`, does).
    private var pumping = false
    /// The overlay's ticket of the facade call running on the queue now (`enqueue`): what it submits belongs to it.
    private var callTicket: CallTicket?
    /// When the facade call running on the queue now was made (`clock.now` on the caller's thread), nil outside
    /// one: a request's timeout counts from it, however long the call waited to reach the queue.
    private(set) var callTime: TimeInterval?

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
    /// The last origin whose plain-`http` route `pipelineDepth` decided, and the decision.
    private var pipelineRoute: (origin: String, usesSockets: Bool)?
    /// The publish template of the last context a GET publish was sent in, remade when the context changes.
    private var publishTemplate: PublishRequestTemplate?
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
        self.security = SecurityLadder()
        self.queue.setSpecific(key: Self.queueMark, value: ObjectIdentifier(self))
    }

    /// Stops everything (the owning `PubNub` went away, or `resetClient`). What the client accepted and has not
    /// completed completes now, with 105, through its completion block alone — no delegate, observer or
    /// notification (docs/DESIGN.md §4): the pipelined publishes (oldest first), the running operation, then the
    /// waiting ones in call order. Calls made later are answered the same way (`submit`).
    func shutdown() {
        self.queue.async {
            guard !self.shutDown else { return }
            self.shutDown = true
            let work = self.connection.resetRequested()
            self.cancelTimers()
            self.loop.stop()
            self.abortCurrent(code: kPNRequestExecutionFailedClientNotReadyError)
            if let failure = work?.failure {
                let error = PNError(code: kPNRequestExecutionFailedClientNotReadyError)
                self.dispatcher.deliverBlock(DeliveryBlock { failure.block(error) })
            }
            for operation in self.waiting.removeAll() {
                self.refuse(operation, PNError(code: kPNRequestExecutionFailedClientNotReadyError))
            }
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
            // A stopped client emits blocks alone: whatever a chained publish still held goes out now (`emit`).
            for operation in self.chain { operation.heldEmissions?.forEach(self.emit) }
            self.chain.removeAll()
            self.updateSnapshot()
            self.serviceLane.invalidate()
            self.longPollLane.invalidate()
            self.pipelineLane.invalidate()
        }
    }

    // MARK: - Operations

    /// Runs `body` on the queue as one facade call: the operations it submits belong to the calling thread's
    /// `CallTicket`, if the async overlay made the call inside one (`CallTicket.scope`).
    ///
    /// A call made from a callback (a delivery lane's drain) runs `body` with `queue.sync` on the calling thread: the
    /// next publish sent from a completion block then needs no thread woken for the queue (issue 29's sequential
    /// publish). That cannot deadlock: the queue never waits for a delivery queue, and its work never blocks. It
    /// runs after everything queued before it, as `async` would, and delivers nothing inside the call (the events
    /// it emits go to the lane, which the callback's drain reaches after the callback returns).
    ///
    /// `inPlace` (the caller holds no lock the queue's work takes: `sendMessage`): on any other thread too, `body`
    /// runs with `queue.sync` on the calling thread when nothing handed to the queue through `enqueue` or a socket
    /// worker's answer (`send`, `emit`) is waiting or running and the caller is not on the queue. A publish then
    /// writes its request from the caller's thread instead of waking a thread for the queue, which woke on the
    /// caller's core and ran there after it (issue 29's latency). Such a call never waits behind queued calls or
    /// answers (with any of those it goes `async`), only for the short engine steps that reach the queue another way
    /// (its timers, the delegate's answers to a reconnect or restore question) when one is there.
    /// Every other caller — the main thread outside callbacks, an app's own threads — is never held up by the
    /// queue's work: `async`.
    func enqueue(inPlace: Bool = false, _ body: @escaping @Sendable () -> Void) {
        let ticket = CallTicket.current.value
        let time = self.clock.now
        let work: @Sendable () -> Void = {
            (self.callTicket, self.callTime) = (ticket, time)
            body()
            (self.callTicket, self.callTime) = (nil, nil)
        }
        if DeliveryLane.isDrainingOnThisThread {
            self.queue.sync(execute: self.counted(work))
        } else if inPlace, DispatchQueue.getSpecific(key: Self.queueMark) != ObjectIdentifier(self),
            self.claimIdleQueue()
        {
            self.queue.sync(execute: work)
            self.handedBlocks.withLock { $0 -= 1 }
        } else {
            self.queue.async(execute: self.counted(work))
        }
    }

    /// `work`, counted in `handedBlocks` from now until it returns.
    private func counted(_ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        self.handedBlocks.withLock { $0 += 1 }
        return {
            work()
            self.handedBlocks.withLock { $0 -= 1 }
        }
    }

    /// Blocks handed to the queue through `enqueue` or a worker's answer that have not returned (for tests).
    var handedBlockCount: Int {
        self.handedBlocks.current
    }

    /// Counts a block about to be handed to the queue and returns true when no other is waiting or running.
    private func claimIdleQueue() -> Bool {
        self.handedBlocks.withLock { handed in
            guard handed == 0 else { return false }
            handed = 1
            return true
        }
    }

    /// Appends an operation; it starts once every earlier one finished — or, when `pipelinable` (a publish), once
    /// every earlier one finished or was released into the pipeline and the pipeline has room. Call on `queue`.
    ///
    /// - Parameters:
    ///   - timers: timers that run from the call (a request's deadline); cancelled if the operation leaves the queue
    ///     without starting, the operation's own once it starts (`finish` cancels them).
    ///   - refusal: the call's failure, for when the operation leaves the queue without starting
    ///     (`PendingOperation.refusal`).
    /// - Returns: the operation's id (for `withdraw`), nil when it was refused at once: the client is shut down
    ///   (105, block alone), the overlay's caller withdrew the call before it reached the queue (105, block alone),
    ///   or `maximumWaitingCalls` calls already wait (`kPNRequestQueueFullError`, on every channel of the call's
    ///   failure; operations the engine puts at the head are never refused).
    @discardableResult
    func submit(
        _ name: String,
        atHead: Bool = false,
        pipelinable: Bool = false,
        timers: [any EngineTimer] = [],
        refusal: ((PNError) -> Refusal)? = nil,
        _ start: @escaping (EngineOperation) -> Void
    ) -> Int? {
        dispatchPrecondition(condition: .onQueue(self.queue))
        self.nextOperationID += 1
        let operation = PendingOperation(
            id: self.nextOperationID,
            name: name,
            pipelinable: pipelinable,
            start: start,
            refusal: refusal,
            timers: timers
        )
        if self.shutDown || self.callTicket?.admit(operation.id, on: self) == false {
            self.refuse(operation, PNError(code: kPNRequestExecutionFailedClientNotReadyError))
            return nil
        }
        if !atHead && self.waiting.count >= PubNub.maximumWaitingCalls {
            self.refuse(operation, PNError(code: kPNRequestQueueFullError), announced: true)
            return nil
        }
        if atHead {
            self.waiting.prepend(operation)
        } else {
            self.waiting.append(operation)
        }
        self.backlogPeak = max(self.backlogPeak, self.waiting.count)
        self.pump()
        return operation.id
    }

    /// Takes operation `id` out of the queue if it is still waiting, and returns it; nil when it started, ended or
    /// was never queued. With `refusing`, its completion block gets that error (alone, without an event).
    @discardableResult
    func withdraw(_ id: Int, refusing error: PNError? = nil) -> PendingOperation? {
        dispatchPrecondition(condition: .onQueue(self.queue))
        guard let operation = self.waiting.remove(id: id) else { return nil }
        operation.timers.forEach { $0.cancel() }
        if let error { self.refuse(operation, error) }
        // The first waiting call may have been what kept publishes behind it out of the pipeline.
        self.pump()
        return operation
    }

    /// Completes `operation`, which will never start: through its block alone, or `announced` through its failure
    /// event and then its block.
    private func refuse(_ operation: PendingOperation, _ error: PNError, announced: Bool = false) {
        operation.timers.forEach { $0.cancel() }
        guard let refusal = operation.refusal?(error) else { return }
        if announced, let event = refusal.event {
            self.emit(event, completion: refusal.block)
        } else if let block = refusal.block {
            self.dispatcher.deliverBlock(block)
        }
    }

    /// Publishes that may wait for their answers at once: `publishPipelineDepth`, or 1 where publishes do not go
    /// through the pipelined lane (TLS, or an origin this platform reaches through URLSession: `TransportRoute`).
    var pipelineDepth: Int {
        // Asked several times per publish: the settings are read in place (`guard let` would copy every field) and
        // the origin's route is parsed once per origin (`pipelineRoute`).
        guard let depth = self.settings?.publishPipelineDepth, depth > 1,
            self.settings?.secure == false || self.security.level == .plain,
            let origin = self.settings?.origin, self.plainHTTPUsesSockets(origin: origin)
        else {
            return 1
        }
        return depth
    }

    /// How a publish goes now: `depth` is `pipelineDepth` (above 1: on the pipelined lane); `chained` when it is 1 and
    /// the service lane can chain requests (the type's comment).
    var publishWay: (depth: Int, chained: Bool) {
        let depth = self.pipelineDepth
        return (depth, depth == 1 && self.serviceLane.chainsRequests)
    }

    /// `TransportRoute.plainHTTPUsesSockets` for `origin`, remembered for the last origin asked about (the decision
    /// parses a URL, and the settings' origin rarely changes).
    private func plainHTTPUsesSockets(origin: String) -> Bool {
        if let route = self.pipelineRoute, route.origin == origin { return route.usesSockets }
        let usesSockets = TransportRoute.plainHTTPUsesSockets(origin: origin, on: .current)
        self.pipelineRoute = (origin, usesSockets)
        return usesSockets
    }

    /// Lets the operations after `operation` (the running publish, just written on the pipelined lane or handed to the
    /// service lane chained) start while it waits for its answer; it still finishes exactly once through `finish`.
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
        if operation.chained { self.flushChain() }
        if self.current === operation {
            self.current = nil
            self.pump()
        } else if let index = self.pipelined.firstIndex(where: { $0 === operation }) {
            self.pipelined.remove(at: index)
            self.pump()
        }
    }

    /// Emits `emission` of `operation` now, or holds it while a chained publish before `operation` has not finished.
    func report(_ emission: Emission, of operation: EngineOperation) {
        if operation.heldEmissions != nil {
            operation.heldEmissions?.append(emission)
        } else {
            self.emit(emission)
        }
    }

    /// Registers `operation`, a publish about to be chained, behind the chained publishes still in `chain`: while
    /// any is there, its events are held.
    func joinChain(_ operation: EngineOperation) {
        operation.chained = true
        if !self.chain.isEmpty { operation.heldEmissions = [] }
        self.chain.append(operation)
    }

    /// Drops the finished publishes from the head of `chain`, each time letting the next one's held events out.
    private func flushChain() {
        while let first = self.chain.first, first.finished {
            self.chain.removeFirst()
            guard let next = self.chain.first, let held = next.heldEmissions else { continue }
            next.heldEmissions = nil
            held.forEach(self.emit)
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
            if let oldest = self.pipelined.first {
                // Waits for answers: a publish for room in the pipeline (chained: one on its way, one more made), or
                // for the publishes of the other way to drain; anything else for the pipeline to drain.
                let way = self.publishWay
                let room = way.chained ? 2 : way.depth
                if !first.pipelinable || self.pipelined.count >= room || oldest.chained != way.chained { break }
            }
            guard let next = self.waiting.popFirst() else { break }
            let operation = EngineOperation(id: next.id, name: next.name)
            operation.timers = next.timers
            self.current = operation
            // What the operation submits as it starts is its own doing, not the call being made now.
            let call = (self.callTicket, self.callTime)
            (self.callTicket, self.callTime) = (nil, nil)
            next.start(operation)
            (self.callTicket, self.callTime) = call
        }
        if self.waiting.isEmpty && self.backlogPeak >= Self.largeBacklog {
            // Thousands of calls made at once were worked off: what they held is free, but the allocator would keep
            // it resident.
            self.backlogPeak = 0
            FreePages.returnSoon()
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
        guard let uuid = self.uuid else { return nil }
        // Called on the settings in place: `guard let` would copy (retain, then release) every field of them.
        return self.settings?.endpointContext(uuid: uuid, security: self.security.level)
    }

    /// Sends `endpoint` on `lane`; `completion` runs on the queue (on the socket worker that read the answer, when it
    /// can: `WorkerThread.hand(to:_:)`). A publish's `draft` gives its escapes to the request.
    @discardableResult
    func send(
        _ endpoint: Endpoint,
        draft: PublishDraft? = nil,
        lane: any HTTPTransport,
        timeout: TimeInterval,
        chained: Bool = false,
        completion: @escaping (Result<TransportResponse, TransportFailure>) -> Void
    ) -> (any TransportTask)? {
        guard let context = self.context,
            var request = self.request(for: endpoint, in: context, timeout: timeout, draft: draft)
        else {
            completion(.failure(.other(domain: "PubNubLegacy", code: -1, description: "invalid origin")))
            return nil
        }
        request.chained = chained
        // Read in place: `if let settings` would copy (retain, then release) every field of them.
        if let maximum = self.settings?.maximumResponseBodySize {
            request.limits.maximumBodyBytes = maximum
        }
        let box = QueueBox(completion)
        return lane.send(request) { result in
            // On a socket worker with the answer, the handling runs on that worker (WorkerThread.swift).
            WorkerThread.hand(to: self.queue, self.counted { box.value(result) })
        }
    }

    /// `endpoint.request(in: context, timeout: timeout)`; a GET publish's from the template of `context`, made at the
    /// first publish in it (`PublishRequestTemplate`, the same text with fewer instructions), with the escapes of its
    /// `draft` (every publish has one: its preflight makes it).
    private func request(
        for endpoint: Endpoint,
        in context: EndpointContext,
        timeout: TimeInterval,
        draft: PublishDraft?
    ) -> TransportRequest? {
        guard case .publish(_, _, .get) = endpoint, let draft else {
            return endpoint.request(in: context, timeout: timeout)
        }
        let template: PublishRequestTemplate
        if let known = self.publishTemplate, known.context == context {
            template = known
        } else {
            template = PublishRequestTemplate(context: context)
            self.publishTemplate = template
        }
        return template.request(
            escapedChannel: draft.escapedChannel,
            escapedMessage: draft.escapedMessage,
            timeout: timeout
        ) ?? endpoint.request(in: context, timeout: timeout)
    }

    // MARK: - Events

    /// Gate G at this moment.
    var gateIsOpen: Bool { self.connection.gateIsOpen }

    /// Emits `event` to its listeners (gated unless it is a connection event) and then `completion`.
    func emit(_ event: ClientEvent, completion: DeliveryBlock? = nil) {
        guard !self.shutDown else {
            // A stopped client completes what it accepted through the blocks alone (`shutdown`).
            if let completion { self.dispatcher.deliverBlock(completion) }
            return
        }
        self.dispatcher.deliver(event, notify: event.isUngated || self.gateIsOpen, completion: completion)
    }

    /// Emits `emission`'s event and then its block (`emit(_:completion:)`).
    func emit(_ emission: Emission) {
        self.emit(emission.event, completion: emission.completion)
    }

    /// Emits the events of one subscribe answer (gated like messages: all or none, by the gate at this moment);
    /// `delivered` then runs on the queue once the delivery queue has gone through them.
    func emit(_ batch: SubscribeBatch, delivered: @escaping () -> Void) {
        guard !self.shutDown else { return }
        let box = QueueBox(delivered)
        self.dispatcher.deliver(batch, notify: self.gateIsOpen) {
            // From a drain on the long-poll worker that read the answer, the next long-poll is sent from that
            // worker and left for it (WorkerThread.swift).
            WorkerThread.hand(to: self.queue, self.counted { box.value() })
        }
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
