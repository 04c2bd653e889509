import Dispatch
import Foundation
import PlatformSupport

/// The fault-injection layer: an `HTTPHandler` placed between the socket server and the origin's `OriginHandler`.
/// With no fault in effect it hands every request straight to the origin; otherwise the first fault (in injection
/// order) whose scope matches a request takes it, and the PubNub logic never changes.
///
/// Requests and answers a fault holds back are tracked here until they are due, their fault is cleared, or their
/// connection closes (each held sink gets an `onClose` hook), so nothing is ever answered from a stale state and a
/// stopped origin leaves nothing behind. Deadlines run on one Dispatch timer.
final class FaultInjector: HTTPHandler, @unchecked Sendable {
    // @unchecked: what changes lives in `state`; `timer` and `queue` are thread-safe Dispatch objects. Sinks and the
    // origin are called only after unlocking.

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

    /// Everything the lock guards.
    private struct State {
        var origin: OriginHandler
        var entries: [Entry] = []
        var held: [Int: Held] = [:]
        var nextFaultID = 1
        var nextHeldID = 1
        var tally = OriginFaultCounters()
        var armedDeadline: UInt64?
        var stopped = false
    }

    private let state: Locked<State>
    private let queue = DispatchQueue(label: "LocalOrigin.FaultInjector.timer")
    private static let queueKey = DispatchSpecificKey<Void>()
    private let timer: DispatchSourceTimer

    /// A layer in front of `origin` with no fault in effect.
    init(origin: OriginHandler) {
        self.state = Locked(State(origin: origin))
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
        let unfaulted = self.state.withLock { state -> OriginHandler? in
            state.entries.contains { !$0.fault.isConnectionLevel } ? nil : state.origin
        }
        if let unfaulted {
            decision = .forward(unfaulted)
        } else {
            let target = FaultTarget(request.target)  // parsed without the lock, and only while faults are in effect
            decision = self.state.withLock { state in self.decide(&state, request, target, sink) }
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
    private func decide(
        _ state: inout State,
        _ request: HTTPRequest,
        _ target: FaultTarget,
        _ sink: any HTTPResponseSink
    ) -> Decision {
        guard !state.stopped else { return .forward(state.origin) }
        for index in state.entries.indices {
            let entry = state.entries[index]
            guard !entry.fault.isConnectionLevel,
                entry.scope.matches(target: request.target, operation: target.operation)
            else { continue }
            if case .stallSubscribe = entry.fault, target.operation != .subscribe { continue }
            if let remaining = entry.remaining {
                if remaining <= 1 {
                    state.entries.remove(at: index)
                } else {
                    state.entries[index].remaining = remaining - 1
                }
            }
            state.tally.count(entry.fault)
            return self.decision(for: entry, &state, request, target, sink)
        }
        return .forward(state.origin)
    }

    private func decision(
        for entry: Entry,
        _ state: inout State,
        _ request: HTTPRequest,
        _ target: FaultTarget,
        _ sink: any HTTPResponseSink
    ) -> Decision {
        switch entry.fault {
        case .neverAnswer:
            return .hold(self.hold(&state, Held(fault: entry.id, deadline: nil, pending: .blackHole(sink))))
        case .stallSubscribe(let seconds):
            let deadline = seconds.map { FaultInjector.uptime() + FaultInjector.nanoseconds($0) }
            return .hold(self.hold(&state, Held(fault: entry.id, deadline: deadline, pending: .stalled(request, sink))))
        case .delay(let seconds):
            return .delay(
                state.origin,
                fault: entry.id,
                due: FaultInjector.uptime() + FaultInjector.nanoseconds(seconds)
            )
        case .closeMidResponse(let point):
            return .cut(state.origin, point)
        case .serverError, .accessDenied, .malformedJSON, .nonUTF8, .htmlPage, .refuseConnections:
            // `refuseConnections` never gets here (connection-level); the fallback keeps the switch total.
            return FaultReply.response(for: entry.fault, target: target).map(Decision.answer) ?? .forward(state.origin)
        }
    }

    // MARK: - Faults

    /// Puts `fault` in effect after the ones already there. The caller validated it.
    func add(_ fault: OriginFault, scope: OriginFaultScope, count: Int?) -> OriginFaultID {
        self.state.withLock { state in
            let id = state.nextFaultID
            state.nextFaultID += 1
            state.entries.append(Entry(id: id, fault: fault, scope: scope, remaining: count))
            return OriginFaultID(rawValue: id)
        }
    }

    /// Ends fault `id` (every fault when `nil`): it takes no more requests, the requests it holds without an answer
    /// will have their connections closed, and the subscribes it stalls will go to the origin — when the caller
    /// runs the returned `release`, after releasing its own locks. `found` tells whether the fault was in effect or
    /// still held something.
    func clear(_ id: OriginFaultID?) -> (found: Bool, release: @Sendable () -> Void) {
        let (found, releases) = self.state.withLock { state -> (Bool, [Release]) in
            let before = state.entries.count
            state.entries.removeAll { id == nil || $0.id == id?.rawValue }
            var found = state.entries.count != before
            var releases: [Release] = []
            for (heldID, item) in state.held where id == nil || item.fault == id?.rawValue {
                switch item.pending {
                case .blackHole(let sink): releases.append(.close(sink))
                case .stalled(let request, let sink): releases.append(.forward(request, sink, state.origin))
                case .answer: continue
                }
                found = true
                state.held[heldID] = nil
            }
            return (found, releases)
        }
        return (found, { FaultInjector.perform(releases) })
    }

    /// The faults in effect, in the order they are tried.
    var activeFaults: [InjectedFault] {
        self.state.withLock { state in
            state.entries.map {
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
        self.state.withLock { state in
            var result = (refusing: false, dropExisting: false)
            for entry in state.entries {
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
        self.state.withLock { $0.held.count }
    }

    /// A snapshot of the counters.
    var counters: OriginFaultCounters {
        self.state.withLock { $0.tally }
    }

    /// Counts a listening socket closed by a refusal.
    func countRefusal() {
        self.state.withLock { $0.tally.refusals += 1 }
    }

    /// Counts a completed restart.
    func countRestart() {
        self.state.withLock { $0.tally.restarts += 1 }
    }

    // MARK: - Origin

    /// The origin requests go to.
    var currentOrigin: OriginHandler {
        self.state.withLock { $0.origin }
    }

    /// Sends later requests to `origin` (a restart that starts empty).
    func replaceOrigin(_ origin: OriginHandler) {
        self.state.withLock { $0.origin = origin }
    }

    /// Stops the timer and closes whatever is still held; later requests go straight to the origin. Idempotent.
    /// Returns when no timer handler runs, except when called from one.
    func stop() {
        let items: [Held] = self.state.withLock { state in
            state.stopped = true
            state.entries.removeAll()
            defer { state.held.removeAll() }
            return Array(state.held.values)
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
        let heldID: Int? = self.state.withLock { state in
            guard !state.stopped, FaultInjector.uptime() < due else { return nil }
            return self.hold(&state, Held(fault: fault, deadline: due, pending: .answer(sink, outcome)))
        }
        guard let heldID else {
            FaultInjector.perform([.deliver(sink, outcome)])
            return
        }
        sink.onClose { [weak self] in self?.drop(heldID) }
    }

    /// Files `item` and points the timer at its deadline when it is the earliest. Called with the lock held.
    private func hold(_ state: inout State, _ item: Held) -> Int {
        let id = state.nextHeldID
        state.nextHeldID += 1
        state.held[id] = item
        if let deadline = item.deadline, !state.stopped, state.armedDeadline.map({ deadline < $0 }) ?? true {
            state.armedDeadline = deadline
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
        let removed = self.state.withLock { $0.held.removeValue(forKey: heldID) }
        _ = removed  // released here, outside the lock
    }

    /// Releases every held item whose deadline has come (run by the timer).
    private func releaseDue() {
        let (releases, dropped) = self.state.withLock { state -> ([Release], [Held]) in
            state.armedDeadline = nil
            guard !state.stopped else { return ([], []) }
            let now = FaultInjector.uptime()
            var releases: [Release] = []
            var dropped: [Held] = []
            var next: UInt64?
            for (heldID, item) in state.held {
                guard let deadline = item.deadline else { continue }
                guard deadline <= now else {
                    next = min(next ?? deadline, deadline)
                    continue
                }
                switch item.pending {
                case .stalled(let request, let sink): releases.append(.forward(request, sink, state.origin))
                case .answer(let sink, let outcome): releases.append(.deliver(sink, outcome))
                case .blackHole(let sink): releases.append(.close(sink))
                }
                if let removed = state.held.removeValue(forKey: heldID) { dropped.append(removed) }
            }
            if let next {
                state.armedDeadline = next
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
