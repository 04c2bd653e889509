import Foundation
import PlatformSupport

/// Carries out the subscribe loop's decisions (`SubscribeLoop.StateMachine`): sends and cancels the long-poll
/// on its own lane, runs the handshake, settle and deadline timers, and hands answers back to the machine.
///
/// Answers are delivered as batches (`SubscribeBatch`) with back-pressure: while the batches the delivery queue has
/// not gone through yet weigh more than `deliveryWindow`, the next subscribe request waits here unsent (as 3.4 sent
/// the next long-poll only after delivering), so a fast origin and a slow delivery queue cannot pile answers up in
/// memory: at most one large answer is held at a time.
///
/// Confined to the engine's queue; the engine owns it.
final class SubscribeLoop {
    /// Undelivered batch weight (`SubscribeBatch.weight`, about bytes) above which the next request waits.
    static let deliveryWindow = 8 * 1_024 * 1_024
    /// An answer at least this heavy returns the allocator's free pages once delivered (`FreePages`): the service's
    /// largest ordinary answers (100 messages of 32 KiB) stay below it.
    static let largeAnswer = 4 * 1_024 * 1_024

    private unowned let engine: ClientEngine
    private(set) var machine = StateMachine()
    private var task: (any TransportTask)?
    private var waitTimer: (any EngineTimer)?
    /// Ends the request in flight once `subscribeMaximumIdleTime` has passed since it was sent, however slowly its
    /// answer trickles in (a byte now and then restarts the transport's idle timeout, not this).
    private var deadlineTimer: (any EngineTimer)?
    private var idleRestartTimer: (any EngineTimer)?
    private var lastResponse: SubscribeResponse?
    /// Messages of the previous answer, to drop exact repeats when a catch-up overlaps (docs/BEHAVIOR.md §3.7).
    private var recentKeys: Set<MessageKey> = []
    /// Weight of the batches emitted and not yet delivered.
    private(set) var undeliveredWeight = 0
    /// The request decided while `undeliveredWeight` was above the window; sent once it is not (unless the machine
    /// has moved on meanwhile).
    private var deferred: StateMachine.Request?
    /// Requests sent whose transport has not reported back yet, cancelled ones included: a cancelled long-poll
    /// may still be on its way to the origin until its transport says it ended.
    private(set) var unfinishedRequests: Set<Int> = []
    private var endWaiters: [(requests: Set<Int>, body: () -> Void)] = []

    init(engine: ClientEngine) {
        self.engine = engine
    }

    // MARK: - Inputs from the engine

    /// Adds channels for operation `op`; see `StateMachine.subscribe`.
    func subscribe(op: Int, adding: [String], withPresenceEvent: Bool, continuingFrom: Cursor? = nil) {
        let keep = self.engine.settings?.keepTimeTokenOnListChange ?? true
        self.perform(
            self.machine.subscribe(
                op: op,
                adding: adding,
                withPresenceEvent: withPresenceEvent,
                keepTimeToken: keep,
                continuingFrom: continuingFrom
            )
        )
    }

    /// Removes channels; returns those that were subscribed.
    func unsubscribe(removing: [String]) -> [String] {
        let result = self.machine.unsubscribe(removing: removing)
        self.perform(result.actions)
        return result.removed
    }

    /// Forgets every channel; returns them.
    @discardableResult
    func removeAll() -> [String] {
        let result = self.machine.removeAll()
        self.perform(result.actions)
        return result.removed
    }

    /// The connection is gone: suspend, keeping the list.
    func connectionLost() {
        self.perform(self.machine.connectionLost())
    }

    /// Re-issue the kept list (reconnect, hard reset, recovery).
    func restore(catchUp: Bool) {
        self.perform(self.machine.restore(catchUp: catchUp))
    }

    /// The origin answered the check that `.checkConnection` asked for.
    func connectionChecked() {
        self.perform(self.machine.connectionChecked())
    }

    /// Runs `body` once every request of `requests` has been reported ended by its transport (answered, failed or
    /// cancelled), at once when none is left. A leave waits for this so that the long-poll it replaces is never
    /// written after it; one written just before can still reach the origin after the leave, on its own connection,
    /// and join the leaving uuid again (docs/BEHAVIOR.md §2.10, §3.6).
    func whenRequestsEnd(_ requests: Set<Int>, _ body: @escaping () -> Void) {
        let pending = requests.intersection(self.unfinishedRequests)
        guard !pending.isEmpty else {
            body()
            return
        }
        self.endWaiters.append((pending, body))
    }

    /// Cancels everything without decisions (engine shutdown).
    func stop() {
        self.cancelTask()
        self.idleRestartTimer?.cancel()
        self.idleRestartTimer = nil
    }

    // MARK: - Carrying out actions

    private func perform(_ actions: [StateMachine.Action]) {
        // The machine already holds the outcome: publish it to the getters before any event announces it.
        self.engine.updateSnapshot()
        for action in actions {
            PNLogger.log(.PNLogCommunicationChannelLayerInfoLevel, self.engine, "subscribe loop: \(action)")
            switch action {
            case .cancelInFlight:
                self.cancelTask()
            case .send(let request):
                self.send(request)
            case .deliverEvents:
                if let response = self.lastResponse {
                    self.deliver(response)
                }
            case .messageCountExceeded(let count):
                self.engine.messageCountExceeded(count)
            case .changeCompleted(let op):
                self.engine.subscriptionChangeCompleted(op: op)
            case .changeFailed(let op, let failure):
                self.engine.subscriptionChangeFailed(op: op, failure)
            case .restored(let channels):
                self.engine.subscriptionRestored(channels)
            case .restoreAbandoned:
                self.engine.subscriptionRestoreAbandoned()
            case .loopFailed(let channels, let failure):
                self.engine.subscriptionLoopFailed(channels: channels, failure)
            case .checkConnection:
                self.engine.checkConnectionForLoop()
            case .startRecovery:
                self.engine.startLoopRecovery()
            case .scheduleIdleRestart:
                self.idleRestartTimer?.cancel()
                let idle = self.engine.settings?.subscribeMaximumIdleTime ?? self.engine.timings.idleTimeout
                self.idleRestartTimer = self.engine.schedule(after: idle) { [weak self] in
                    guard let self else { return }
                    let catchUp = self.engine.settings?.restoreSubscriptionFromLastTimeToken ?? true
                    self.perform(self.machine.idleTimerFired(catchUp: catchUp))
                }
            }
        }
        self.engine.updateSnapshot()
    }

    private func cancelTask() {
        self.task?.cancel()
        self.task = nil
        self.deferred = nil
        self.waitTimer?.cancel()
        self.waitTimer = nil
        self.deadlineTimer?.cancel()
        self.deadlineTimer = nil
    }

    private func send(_ request: StateMachine.Request) {
        if self.undeliveredWeight > Self.deliveryWindow {
            self.deferred = request
            return
        }
        self.idleRestartTimer?.cancel()
        self.idleRestartTimer = nil
        self.waitTimer?.cancel()
        self.waitTimer = nil
        self.deadlineTimer?.cancel()
        let settings = self.engine.settings ?? ClientSettings()
        let heartbeat = settings.presenceHeartbeatValue > 0 ? settings.presenceHeartbeatValue : nil
        let endpoint = Endpoint.subscribe(
            channels: request.channels,
            timetoken: request.cursor?.timetoken ?? 0,
            region: request.cursor?.region,
            heartbeat: heartbeat
        )
        let id = request.id
        self.unfinishedRequests.insert(id)
        switch request.wait {
        case .handshake:
            self.waitTimer = self.engine.schedule(after: settings.subscriptionRequestTimeout) { [weak self] in
                guard let self else { return }
                self.task?.cancel()
                self.perform(self.machine.requestFailed(request: id, .timeout))
            }
        case .settle:
            self.waitTimer = self.engine.schedule(after: self.engine.timings.restoreSettleInterval) { [weak self] in
                guard let self else { return }
                self.perform(self.machine.restoreSettled(request: id))
            }
        case .idle:
            break
        }
        // docs/BEHAVIOR.md §3.3: 3.4's idle timer restarted on every answer, not on every byte. A long-poll answered
        // one byte at a time would otherwise hold the subscription for ever: past this deadline it ends the way the
        // idle timer ends it — re-issued on a fresh connection from the kept cursor.
        self.deadlineTimer = self.engine.schedule(after: settings.subscribeMaximumIdleTime) { [weak self] in
            guard let self, self.machine.requestInFlight == id else { return }
            self.deadlineTimer = nil
            let catchUp = self.engine.settings?.restoreSubscriptionFromLastTimeToken ?? true
            self.perform(self.machine.deadlinePassed(request: id, catchUp: catchUp))
        }
        // The transport's own idle timeout is only a backstop, a moment after the deadline, so that a silent
        // long-poll always ends through the deadline's rules (catch-up setting included).
        self.task = self.engine.send(
            endpoint,
            lane: self.engine.longPollLane,
            timeout: settings.subscribeMaximumIdleTime + 1
        ) {
            [weak self] result in
            self?.requestEnded(id)
            self?.handle(request: request, result)
        }
    }

    private func requestEnded(_ id: Int) {
        guard self.unfinishedRequests.remove(id) != nil else { return }
        var ready: [() -> Void] = []
        self.endWaiters = self.endWaiters.compactMap { waiter in
            let left = waiter.requests.subtracting([id])
            if left.isEmpty {
                ready.append(waiter.body)
                return nil
            }
            return (left, waiter.body)
        }
        ready.forEach { $0() }
    }

    private func handle(request: StateMachine.Request, _ result: Result<TransportResponse, TransportFailure>) {
        guard request.id == self.machine.requestInFlight else { return }
        if request.wait == .handshake {
            self.waitTimer?.cancel()
            self.waitTimer = nil
        }
        self.deadlineTimer?.cancel()
        self.deadlineTimer = nil
        switch result {
        case .failure(.cancelled):
            return
        case .failure(let failure):
            self.perform(self.machine.requestFailed(request: request.id, .transport(failure)))
        case .success(let response):
            switch ResponseParser.subscribe(response) {
            case .failure(let failure):
                self.perform(self.machine.requestFailed(request: request.id, .response(failure)))
            case .success(let parsed):
                self.lastResponse = parsed
                for name in request.channels {
                    self.engine.channelObject(named: name).setUpdateTimeToken(parsed.timetoken)
                }
                let threshold = self.engine.settings?.requestMessageCountThreshold ?? 0
                self.perform(
                    self.machine.responseReceived(
                        request: request.id,
                        cursor: Cursor(timetoken: parsed.timetoken, region: parsed.region),
                        messageCount: parsed.messages.count,
                        messageCountThreshold: threshold
                    )
                )
                self.lastResponse = nil
            }
        }
    }

    /// Delivers the events of one answer in array order, as one batch, and counts it against the window until the
    /// delivery queue has gone through it.
    private func deliver(_ response: SubscribeResponse) {
        let batch = self.engine.subscribeBatch(for: response, recent: &self.recentKeys)
        let weight = batch.weight
        self.undeliveredWeight += weight
        self.engine.emit(batch) { [weak self] in
            // A large answer was delivered: its bytes and index are free, but the allocator would keep them resident.
            if weight >= Self.largeAnswer { FreePages.returnSoon() }
            guard let self else { return }
            self.undeliveredWeight -= weight
            if self.undeliveredWeight <= Self.deliveryWindow, let request = self.deferred {
                self.deferred = nil
                if request.id == self.machine.requestInFlight { self.send(request) }
            }
        }
    }
}
