import Dispatch
import Foundation
import PlatformSupport

/// The PubNub origin emulator as an `HTTPHandler`: routes every request of docs/PROTOCOL.md §3 and answers it, parking
/// subscribe long-polls until a message arrives or their timeout passes.
///
/// Kept apart from `LocalOrigin` (which adds the socket server) so tests can call `handle(_:sink:)` directly and a
/// fault-injection layer can wrap it. `now` is the clock for timetokens, presence timestamps and presence timeouts;
/// long-poll deadlines use the monotonic clock.
final class OriginHandler: HTTPHandler, @unchecked Sendable {
    // @unchecked: what changes lives in `guarded` (the store, a class, is only used inside its lock); the Dispatch
    // timers are thread-safe objects. Sinks and observers are called only after unlocking.

    /// Everything the lock guards.
    private struct Guarded {
        let store: OriginStore
        var observers: [@Sendable (RequestLogEntry) -> Void] = []
        var armedDeadline: UInt64?
        var stopped = false
    }

    private let guarded: Locked<Guarded>
    private let now: @Sendable () -> Double
    private let timerQueue = DispatchQueue(label: "LocalOrigin.OriginHandler.timers")
    private static let timerQueueKey = DispatchSpecificKey<Void>()
    private let pollTimer: DispatchSourceTimer
    private let sweepTimer: DispatchSourceTimer?

    /// A handler with `settings`; `now` returns the current Unix time in seconds (tests inject a manual clock).
    /// Presence sweeps run every `settings.presenceSweepInterval` seconds when that is positive.
    init(
        settings: OriginSettings = OriginSettings(),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        let settings = settings.sanitized
        self.guarded = Locked(Guarded(store: OriginStore(settings: settings)))
        self.now = now
        self.timerQueue.setSpecific(key: OriginHandler.timerQueueKey, value: ())
        self.pollTimer = DispatchSource.makeTimerSource(queue: self.timerQueue)
        if settings.presenceSweepInterval > 0 {
            self.sweepTimer = DispatchSource.makeTimerSource(queue: self.timerQueue)
        } else {
            self.sweepTimer = nil
        }
        self.pollTimer.setEventHandler { [weak self] in self?.expireDuePolls() }
        self.pollTimer.schedule(deadline: .distantFuture)
        self.pollTimer.activate()
        if let sweepTimer = self.sweepTimer {
            let interval = DispatchTimeInterval.nanoseconds(Int(settings.presenceSweepInterval * 1e9))
            sweepTimer.setEventHandler { [weak self] in self?.sweepPresence() }
            sweepTimer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
            sweepTimer.activate()
        }
    }

    deinit {
        self.pollTimer.cancel()
        self.sweepTimer?.cancel()
    }

    // MARK: - HTTPHandler

    /// Answers `request` through `sink`, at once or, for a subscribe with nothing to deliver, when a message
    /// arrives or the long-poll timeout passes. Never blocks.
    func handle(_ request: HTTPRequest, sink: any HTTPResponseSink) {
        let target = RequestTarget(request.target)
        self.withStore { guarded in
            let store = guarded.store
            store.counters.requests += 1
            let exchange = Exchange(
                method: request.method,
                target: request.target,
                sink: sink,
                callback: target.parameter("callback")
            )
            if guarded.stopped {
                store.answer(exchange, .unavailable)
            } else {
                store.route(request, target, exchange)
            }
        }
    }

    // MARK: - Observation

    /// A snapshot of the counters.
    var counters: OriginCounters {
        self.guarded.withLock { $0.store.counters }
    }

    /// The most recent answered (or dropped) requests, oldest first.
    var requestLog: [RequestLogEntry] {
        self.guarded.withLock { $0.store.requestLog }
    }

    /// Adds `observer`, called once per answered or dropped request on the thread that answered it (a server thread
    /// or the handler's timer queue), after the response was handed to the connection; never while a lock is held.
    func addRequestObserver(_ observer: @escaping @Sendable (RequestLogEntry) -> Void) {
        self.guarded.withLock { $0.observers.append(observer) }
    }

    // MARK: - Timers

    /// Times out present uuids whose timeout passed by the handler's clock (also run by the sweep timer).
    func sweepPresence() {
        self.withStore { $0.store.sweepPresence() }
    }

    /// Answers the parked polls whose deadline passed (run by the poll timer).
    func expireDuePolls() {
        self.withStore { guarded in
            guarded.armedDeadline = nil
            guarded.store.expireDuePolls()
        }
    }

    /// Stops the timers and closes every parked poll's connection; later requests get 503. Idempotent; returns when
    /// no timer handler is running, except when called from one (an observer of an expired poll), which it then
    /// cannot wait for.
    func stop() {
        let sinks: [any HTTPResponseSink] = self.guarded.withLock { guarded in
            guarded.stopped = true
            let polls = guarded.store.hub.polls
            for id in polls.keys { _ = guarded.store.hub.remove(id) }
            guarded.store.counters.parkedPolls = 0
            return polls.values.map(\.exchange.sink)
        }
        self.pollTimer.cancel()
        self.sweepTimer?.cancel()
        if DispatchQueue.getSpecific(key: OriginHandler.timerQueueKey) == nil { self.timerQueue.sync {} }
        for sink in sinks { sink.close() }
    }

    // MARK: - Locking

    /// Runs `body` on the store while holding the lock, then carries out the queued effects without it.
    private func withStore(_ body: (inout Guarded) -> Void) {
        let (effects, observers) = self.guarded.withLock { guarded in
            guarded.store.now = self.now()
            guarded.store.uptime = DispatchTime.now().uptimeNanoseconds
            body(&guarded)
            self.armPollTimer(&guarded)
            return (guarded.store.takeEffects(), guarded.observers)
        }
        for answer in effects.answers { answer.sink.respond(answer.response) }
        for parked in effects.parked {
            parked.sink.onClose { [weak self] in self?.dropPoll(parked.id) }
        }
        for entry in effects.logged {
            for observer in observers { observer(entry) }
        }
    }

    private func dropPoll(_ id: Int) {
        self.withStore { $0.store.dropPoll(id) }
    }

    /// Points the poll timer at the earliest deadline of a parked poll. Called with the lock held.
    private func armPollTimer(_ guarded: inout Guarded) {
        guard !guarded.stopped, let deadline = guarded.store.hub.nextDeadline() else { return }
        if let armed = guarded.armedDeadline, armed <= deadline { return }
        guarded.armedDeadline = deadline
        self.pollTimer.schedule(
            deadline: DispatchTime(uptimeNanoseconds: deadline),
            repeating: .never,
            leeway: .milliseconds(5)
        )
    }
}
