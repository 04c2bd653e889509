import Dispatch
import Foundation

/// The fault-injection layer: an `HTTPHandler` placed between the socket server and the origin's `OriginHandler`.
/// With no fault in effect it hands every request straight to the origin; otherwise the first fault (in injection
/// order) whose scope matches a request takes it, and the PubNub logic never changes.
///
/// Requests and answers a fault holds back are tracked here until they are due, their fault is cleared, or their
/// connection closes (each held sink gets an `onClose` hook), so nothing is ever answered from a stale state and a
/// stopped origin leaves nothing behind. Deadlines run on one Dispatch timer.
final class FaultInjector: HTTPHandler, @unchecked Sendable {
    // @unchecked: every `var` below is read and written only while holding `lock`; `timer` and `queue` are
    // thread-safe Dispatch objects. Sinks and the origin are called only after unlocking.

    /// One fault in effect.
    private struct Entry {
        let id: Int
        let fault: OriginFault
        let scope: OriginFaultScope
        var remaining: Int?
    }

    /// What a fault holds back.
    private enum Pending {
        /// `neverAnswer`: closed without an answer when its fault is cleared.
        case blackHole(any HTTPResponseSink)
        /// `stallSubscribe`: handed to the origin at its deadline or when its fault is cleared.
        case stalled(HTTPRequest, any HTTPResponseSink)
        /// `delay`: the origin's answer, written at its deadline (clearing the fault does not hurry it).
        case answer(any HTTPResponseSink, HTTPOutcome)
    }

    private struct Held {
        let fault: Int
        let deadline: UInt64?
        let pending: Pending
    }

    /// Work to carry out once the lock is released.
    private enum Release: Sendable {
        case close(any HTTPResponseSink)
        case forward(HTTPRequest, any HTTPResponseSink, OriginHandler)
        case deliver(any HTTPResponseSink, HTTPOutcome)
    }

    /// What `handle` does with one request.
    private enum Decision {
        case forward(OriginHandler)
        case answer(HTTPResponse)
        case hold(Int)
        case delay(OriginHandler, fault: Int, due: UInt64)
        case cut(OriginHandler, OriginFault.CutPoint)
    }

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "LocalOrigin.FaultInjector.timer")
    private static let queueKey = DispatchSpecificKey<Void>()
    private let timer: DispatchSourceTimer
    private var origin: OriginHandler
    private var entries: [Entry] = []
    private var held: [Int: Held] = [:]
    private var nextFaultID = 1
    private var nextHeldID = 1
    private var tally = OriginFaultCounters()
    private var armedDeadline: UInt64?
    private var stopped = false

    /// A layer in front of `origin` with no fault in effect.
    init(origin: OriginHandler) {
        self.origin = origin
        self.queue.setSpecific(key: FaultInjector.queueKey, value: ())
        self.timer = DispatchSource.makeTimerSource(queue: self.queue)
        self.timer.setEventHandler { [weak self] in self?.releaseDue() }
        self.timer.schedule(deadline: .distantFuture)
        self.timer.activate()
    }

    deinit {
        self.timer.cancel()
    }

    // MARK: - HTTPHandler

    /// Hands `request` to the origin, or to the first fault in effect whose scope matches it. Never blocks. Called by
    /// the origin's server threads only: it marks the calling thread as one (see `ServerThread`).
    func handle(_ request: HTTPRequest, sink: any HTTPResponseSink) {
        ServerThread.mark()
        let decision: Decision
        let unfaulted = self.lock.withLock { () -> OriginHandler? in
            self.entries.contains { !$0.fault.isConnectionLevel } ? nil : self.origin
        }
        if let unfaulted {
            decision = .forward(unfaulted)
        } else {
            let target = FaultTarget(request.target)  // parsed without the lock, and only while faults are in effect
            decision = self.lock.withLock { self.decide(request, target, sink) }
        }
        switch decision {
        case .forward(let origin):
            origin.handle(request, sink: sink)
        case .answer(let response):
            sink.respond(response)
        case .hold(let heldID):
            sink.onClose { [weak self] in self?.drop(heldID) }
        case .delay(let origin, let fault, let due):
            origin.handle(request, sink: DelayedAnswerSink(base: sink, injector: self, fault: fault, due: due))
        case .cut(let origin, let point):
            origin.handle(request, sink: CutResponseSink(base: sink, point: point))
        }
    }

    /// Picks the fault for one request and books it. Called with the lock held.
    private func decide(_ request: HTTPRequest, _ target: FaultTarget, _ sink: any HTTPResponseSink) -> Decision {
        guard !self.stopped else { return .forward(self.origin) }
        for index in self.entries.indices {
            let entry = self.entries[index]
            guard !entry.fault.isConnectionLevel,
                entry.scope.matches(target: request.target, operation: target.operation)
            else { continue }
            if case .stallSubscribe = entry.fault, target.operation != .subscribe { continue }
            if let remaining = entry.remaining {
                if remaining <= 1 {
                    self.entries.remove(at: index)
                } else {
                    self.entries[index].remaining = remaining - 1
                }
            }
            self.tally.count(entry.fault)
            return self.decision(for: entry, request, target, sink)
        }
        return .forward(self.origin)
    }

    private func decision(
        for entry: Entry,
        _ request: HTTPRequest,
        _ target: FaultTarget,
        _ sink: any HTTPResponseSink
    ) -> Decision {
        switch entry.fault {
        case .neverAnswer:
            return .hold(self.hold(Held(fault: entry.id, deadline: nil, pending: .blackHole(sink))))
        case .stallSubscribe(let seconds):
            let deadline = seconds.map { FaultInjector.uptime() + FaultInjector.nanoseconds($0) }
            return .hold(self.hold(Held(fault: entry.id, deadline: deadline, pending: .stalled(request, sink))))
        case .delay(let seconds):
            return .delay(
                self.origin,
                fault: entry.id,
                due: FaultInjector.uptime() + FaultInjector.nanoseconds(seconds)
            )
        case .closeMidResponse(let point):
            return .cut(self.origin, point)
        case .serverError, .accessDenied, .malformedJSON, .nonUTF8, .htmlPage, .refuseConnections:
            // `refuseConnections` never gets here (connection-level); the fallback keeps the switch total.
            return FaultReply.response(for: entry.fault, target: target).map(Decision.answer) ?? .forward(self.origin)
        }
    }

    // MARK: - Faults

    /// Puts `fault` in effect after the ones already there. The caller validated it.
    func add(_ fault: OriginFault, scope: OriginFaultScope, count: Int?) -> OriginFaultID {
        self.lock.withLock {
            let id = self.nextFaultID
            self.nextFaultID += 1
            self.entries.append(Entry(id: id, fault: fault, scope: scope, remaining: count))
            return OriginFaultID(rawValue: id)
        }
    }

    /// Ends fault `id` (every fault when `nil`): it takes no more requests, the requests it holds without an answer
    /// will have their connections closed, and the subscribes it stalls will go to the origin — when the caller
    /// runs the returned `release`, after releasing its own locks. `found` tells whether the fault was in effect or
    /// still held something.
    func clear(_ id: OriginFaultID?) -> (found: Bool, release: @Sendable () -> Void) {
        let (found, releases) = self.lock.withLock { () -> (Bool, [Release]) in
            let before = self.entries.count
            self.entries.removeAll { id == nil || $0.id == id?.rawValue }
            var found = self.entries.count != before
            var releases: [Release] = []
            for (heldID, item) in self.held where id == nil || item.fault == id?.rawValue {
                switch item.pending {
                case .blackHole(let sink): releases.append(.close(sink))
                case .stalled(let request, let sink): releases.append(.forward(request, sink, self.origin))
                case .answer: continue
                }
                found = true
                self.held[heldID] = nil
            }
            return (found, releases)
        }
        return (found, { FaultInjector.perform(releases) })
    }

    /// The faults in effect, in the order they are tried.
    var activeFaults: [InjectedFault] {
        self.lock.withLock {
            self.entries.map {
                InjectedFault(
                    id: OriginFaultID(rawValue: $0.id),
                    fault: $0.fault,
                    scope: $0.scope,
                    remaining: $0.remaining
                )
            }
        }
    }

    /// Whether a `refuseConnections` fault is in effect, and whether one of them drops open connections.
    var refusal: (refusing: Bool, dropExisting: Bool) {
        self.lock.withLock {
            var result = (refusing: false, dropExisting: false)
            for entry in self.entries {
                if case .refuseConnections(let drop) = entry.fault {
                    result.refusing = true
                    result.dropExisting = result.dropExisting || drop
                }
            }
            return result
        }
    }

    /// Requests and answers held back right now.
    var heldCount: Int {
        self.lock.withLock { self.held.count }
    }

    /// A snapshot of the counters.
    var counters: OriginFaultCounters {
        self.lock.withLock { self.tally }
    }

    /// Counts a listening socket closed by a refusal.
    func countRefusal() {
        self.lock.withLock { self.tally.refusals += 1 }
    }

    /// Counts a completed restart.
    func countRestart() {
        self.lock.withLock { self.tally.restarts += 1 }
    }

    // MARK: - Origin

    /// The origin requests go to.
    var currentOrigin: OriginHandler {
        self.lock.withLock { self.origin }
    }

    /// Sends later requests to `origin` (a restart that starts empty).
    func replaceOrigin(_ origin: OriginHandler) {
        self.lock.withLock { self.origin = origin }
    }

    /// Stops the timer and closes whatever is still held; later requests go straight to the origin. Idempotent.
    /// Returns when no timer handler runs, except when called from one.
    func stop() {
        let items: [Held] = self.lock.withLock {
            self.stopped = true
            self.entries.removeAll()
            defer { self.held.removeAll() }
            return Array(self.held.values)
        }
        self.timer.cancel()
        if DispatchQueue.getSpecific(key: FaultInjector.queueKey) == nil { self.queue.sync {} }
        for item in items {
            switch item.pending {
            case .blackHole(let sink), .stalled(_, let sink), .answer(let sink, _): sink.close()
            }
        }
    }

    // MARK: - Held requests and answers

    /// Writes `outcome` to `sink` once `due` has come (at once when it has, or when stopped).
    func deliver(_ outcome: HTTPOutcome, to sink: any HTTPResponseSink, fault: Int, due: UInt64) {
        let heldID: Int? = self.lock.withLock {
            guard !self.stopped, FaultInjector.uptime() < due else { return nil }
            return self.hold(Held(fault: fault, deadline: due, pending: .answer(sink, outcome)))
        }
        guard let heldID else {
            FaultInjector.perform([.deliver(sink, outcome)])
            return
        }
        sink.onClose { [weak self] in self?.drop(heldID) }
    }

    /// Files `item` and points the timer at its deadline when it is the earliest. Called with the lock held.
    private func hold(_ item: Held) -> Int {
        let id = self.nextHeldID
        self.nextHeldID += 1
        self.held[id] = item
        if let deadline = item.deadline, !self.stopped, self.armedDeadline.map({ deadline < $0 }) ?? true {
            self.armedDeadline = deadline
            self.timer.schedule(
                deadline: DispatchTime(uptimeNanoseconds: deadline),
                repeating: .never,
                leeway: .milliseconds(1)
            )
        }
        return id
    }

    /// Forgets a held item whose connection closed.
    private func drop(_ heldID: Int) {
        let removed = self.lock.withLock { self.held.removeValue(forKey: heldID) }
        _ = removed  // released here, outside the lock
    }

    /// Releases every held item whose deadline has come (run by the timer).
    private func releaseDue() {
        let (releases, dropped) = self.lock.withLock { () -> ([Release], [Held]) in
            self.armedDeadline = nil
            guard !self.stopped else { return ([], []) }
            let now = FaultInjector.uptime()
            var releases: [Release] = []
            var dropped: [Held] = []
            var next: UInt64?
            for (heldID, item) in self.held {
                guard let deadline = item.deadline else { continue }
                guard deadline <= now else {
                    next = min(next ?? deadline, deadline)
                    continue
                }
                switch item.pending {
                case .stalled(let request, let sink): releases.append(.forward(request, sink, self.origin))
                case .answer(let sink, let outcome): releases.append(.deliver(sink, outcome))
                case .blackHole(let sink): releases.append(.close(sink))
                }
                if let removed = self.held.removeValue(forKey: heldID) { dropped.append(removed) }
            }
            if let next {
                self.armedDeadline = next
                self.timer.schedule(
                    deadline: DispatchTime(uptimeNanoseconds: next),
                    repeating: .never,
                    leeway: .milliseconds(1)
                )
            }
            return (releases, dropped)
        }
        FaultInjector.perform(releases)
        _ = dropped
    }

    private static func perform(_ releases: [Release]) {
        for release in releases {
            switch release {
            case .close(let sink):
                sink.close()
            case .forward(let request, let sink, let origin):
                origin.handle(request, sink: sink)
            case .deliver(let sink, .response(let response)):
                sink.respond(response)
            case .deliver(let sink, .raw(let bytes, let thenClose)):
                sink.respondRaw(bytes, thenClose: thenClose)
            case .deliver(let sink, .close):
                sink.close()
            }
        }
    }

    // MARK: - Clock

    static func uptime() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// `seconds` (already checked to be 0…86,400) in nanoseconds.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, min(seconds, OriginFault.maximumSeconds)) * 1e9)
    }
}
