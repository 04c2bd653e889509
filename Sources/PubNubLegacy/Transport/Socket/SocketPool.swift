import Foundation
import PlatformSupport

// The pool behind `SocketTransport`: requests wait in FIFO order for one of at most `maximumConnections` worker
// threads, each carrying one request at a time over a connection of the idle pool or a new one. A worker that reads
// an answer reports it on its own thread (`WorkerThread`), and a request sent from inside that report is left for it.
// A request sent from any other thread while a worker waits idle and a kept-alive plain connection is free is written
// by the sender itself (`writeAtOnce`): it is on its way before the woken worker runs, which only reads its answer.
// Chained requests (`TransportRequest.chained`, the engine's sequential publishes) are carried one after the other by
// the worker that read the answer of the one before, which writes the next before it reports that answer: the
// engine's handling of an answer and the making of the request after it then no longer lie between the two.

/// The queue of waiting requests, the worker threads and the idle connections of one `SocketTransport`.
// Sendable: its mutable state lives in `monitor`; every other stored property is an immutable `let`.
final class SocketPool: Sendable {
    /// A request waiting for a worker, with the connection it was already written on (`writeAtOnce`), if any.
    private struct Waiting {
        let task: SocketTask
        let written: Written?
    }

    /// A request written by its sender: its connection, its head, and how many bytes of head and body went out.
    private struct Written {
        let connection: SocketConnection
        let head: [UInt8]
        let bytes: Int
    }

    private struct State {
        var invalidated = false
        var waiting: [Waiting] = []
        /// Index of the first request in `waiting` not yet taken, so taking one is O(1).
        var waitingHead = 0
        var workers = 0
        var idleWorkers = 0
        /// Workers that will look at `waiting` before they wait again: a request was sent from inside their completion
        /// and left for them (`WorkerThread`), so no other worker is woken for it.
        var promised = 0
        /// Idle connections, least recently used first.
        var idle: [SocketConnection] = []
        /// Requests a worker is carrying out, for `invalidate()`.
        var running: [ObjectIdentifier: SocketTask] = [:]
        /// Requests their senders wrote (`writeAtOnce`), for tests.
        var writtenBySender = 0
        /// True from when a chained request is queued until the worker that carries the last of the chain has read
        /// its answer: a chained request sent meanwhile waits in `chainNext`, not in `waiting`.
        var chainBusy = false
        /// Chained requests waiting for the answer of the one before them, oldest first.
        var chainNext: [SocketTask] = []
        /// Chained requests their worker wrote before reporting the answer before them, for tests.
        var writtenAhead = 0

        var hasWaiting: Bool { self.waitingHead < self.waiting.count }
    }

    private let maximumConnections: Int
    private let label: String
    /// False: one request per connection, asked with `Connection: close` and closed after the answer.
    let reusesConnections: Bool
    /// The TLS contexts of `https` connections (OpenSSL is loaded at the first).
    let contexts: TLSContextCache
    /// Reports of this pool's tasks handed to `TransportReports.queue` whose completion has not returned
    /// (`SocketTask`).
    let scheduledReports = Locked(0)
    private let monitor = Monitor(State())

    init(maximumConnections: Int, label: String, reusesConnections: Bool, contexts: TLSContextCache) {
        self.maximumConnections = maximumConnections
        self.label = label
        self.reusesConnections = reusesConnections
        self.contexts = contexts
    }

    deinit {
        // A transport dropped without `invalidate()`: its last worker has ended, so only idle connections are left.
        for connection in self.monitor.withLock({ $0.idle }) { connection.close() }
    }

    var idleConnectionCount: Int {
        self.monitor.withLock { $0.idle.count }
    }

    /// Checked under the lock, so no worker takes a connection out while its socket is polled.
    var staleIdleConnectionCount: Int {
        self.monitor.withLock { state in state.idle.count { !$0.isHealthyWhileIdle } }
    }

    var queuedRequestCount: Int {
        self.monitor.withLock { $0.waiting.count - $0.waitingHead + $0.chainNext.count }
    }

    /// The tasks are counted first: a worker reports on its own thread before it lets go of a task, so once none is
    /// held, the scheduled reports can only go down.
    var outstandingReportCount: Int {
        let held = self.monitor.withLock {
            $0.waiting.count - $0.waitingHead + $0.chainNext.count + $0.running.count
        }
        return held + self.scheduledReports.withLock { $0 }
    }

    /// Workers waiting for a request (a worker woken but not yet running still counts).
    var idleWorkerCount: Int {
        self.monitor.withLock { $0.idleWorkers }
    }

    /// How many requests their senders wrote themselves (`writeAtOnce`) since the pool was made.
    var writtenBySenderCount: Int {
        self.monitor.withLock { $0.writtenBySender }
    }

    /// How many chained requests a worker wrote before it reported the answer before them, since the pool was made.
    var writtenAheadCount: Int {
        self.monitor.withLock { $0.writtenAhead }
    }

    var unreadAnswerCount: Int {
        let running = self.monitor.withLock { Array($0.running.values) }
        return running.count { $0.isAnswerUnread }
    }

    func closeIdleConnections() {
        let connections = self.monitor.withLock { state -> [SocketConnection] in
            defer { state.idle = [] }
            return state.idle
        }
        for connection in connections { connection.close() }
    }

    /// Queues `task` and makes sure a worker will take it; a task sent after `invalidate()` is cancelled. Sent from
    /// inside the completion of one of this pool's workers, it is left for that worker, which takes the oldest
    /// waiting request as soon as its completion returns (the next publish is written by the thread that read the
    /// previous answer). Sent from elsewhere while a worker waits idle, it may be written on the calling thread
    /// first (`writeAtOnce`); the worker then only reads its answer. A chained request sent while another chained one
    /// is queued or carried waits for the worker that carries that one, which writes it once it has read that one's
    /// answer (`successor(answered:)`).
    func enqueue(_ task: SocketTask) {
        enum Step { case cancel, keep, signal, spawn }
        if task.request.chained && self.reusesConnections {
            let chainedBehind = self.monitor.withLock { state -> Bool in
                guard !state.invalidated, state.chainBusy else {
                    state.chainBusy = true
                    return false
                }
                state.chainNext.append(task)
                return true
            }
            if chainedBehind { return }
        }
        let worker = WorkerThread.current.flatMap { worker in
            worker.pool == ObjectIdentifier(self) && worker.reporting && !worker.promised ? worker : nil
        }
        let written = worker == nil ? self.writeAtOnce(task) : nil
        let step = self.monitor.withLock { state -> Step in
            if state.invalidated { return .cancel }
            state.waiting.append(Waiting(task: task, written: written))
            if written != nil { state.writtenBySender += 1 }
            if worker != nil {
                state.promised += 1
                return .keep
            }
            // A worker woken but not yet running still counts as idle, so compare with the whole backlog (less what
            // reporting workers will take): two requests sent back to back with one idle worker get a second worker.
            let backlog = state.waiting.count - state.waitingHead - state.promised
            if backlog <= state.idleWorkers { return .signal }
            if state.workers < self.maximumConnections {
                state.workers += 1
                return .spawn
            }
            return .signal
        }
        switch step {
        case .cancel:
            task.cancel()
            if let written {
                _ = task.detach()
                written.connection.close()
            }
        case .keep:
            worker?.promised = true
        case .signal:
            self.monitor.signal()
        case .spawn:
            NamedThread.start("pn.\(self.label)") { [self] in self.work() }
        }
    }

    /// Cancels every request, closes the idle connections and ends the workers; later requests are cancelled.
    func invalidate() {
        let (tasks, connections) = self.monitor.withLock { state -> ([SocketTask], [SocketConnection]) in
            state.invalidated = true
            let waiting = state.waiting[state.waitingHead...]
            let tasks = waiting.map(\.task) + state.chainNext + Array(state.running.values)
            state.waiting = []
            state.waitingHead = 0
            state.chainNext = []
            // A written request's connection belongs to no worker yet: its task's cancel shuts it down first.
            let connections = state.idle + waiting.compactMap(\.written?.connection)
            state.idle = []
            return (tasks, connections)
        }
        self.monitor.broadcast()
        for task in tasks { task.cancel() }
        for connection in connections { connection.close() }
    }

    // MARK: - Workers

    private func work() {
        // Every call into OpenSSL runs on a worker: there, a write to a reset connection must not end the process.
        POSIXSocket.blockBrokenPipeSignal()
        WorkerThread.run(for: self) { worker in
            // The connection of the last answer on a lane that does not reuse connections, closed once the listener
            // calls of that answer are made: closing a loopback connection runs the origin's side of the close on this
            // thread, which would otherwise come between the answer and the app.
            var closing: SocketConnection?
            defer { closing?.close() }
            // The chained request this worker carries next, taken from `chainNext` (and perhaps written) before it
            // reported the answer of the one before.
            var successor: Waiting?
            while true {
                let step = successor.map { Next.task($0) } ?? self.next(for: worker, closing: closing != nil)
                successor = nil
                switch step {
                case .end:
                    return
                case .owedWork:
                    worker.runOwedWork()
                    closing?.close()
                    closing = nil
                case .task(let waiting):
                    let task = waiting.task
                    let outcome: Result<TransportResponse, TransportFailure>?
                    if self.reusesConnections {
                        // The listener calls a report left run while this request is on its way (a publish queued
                        // behind the one answered: its calls and its round trip overlap). Its deadline waits for
                        // them (`SocketTask.expire()`): an answer that came meanwhile is taken, not timed out.
                        outcome = self.carryOut(waiting, closing: &closing) {
                            guard worker.owesWork, task.beginUnreadWait() else { return false }
                            worker.runOwedWork()
                            return task.endUnreadWait()
                        }
                    } else {
                        // A new connection per request (the long-poll lane): the calls of the answer come first,
                        // not after a connect.
                        worker.runOwedWork()
                        closing?.close()
                        closing = nil
                        outcome = self.carryOut(waiting, closing: &closing) { false }
                    }
                    if task.request.chained && self.reusesConnections {
                        successor = self.successor(answered: outcome.map { (try? $0.get()) != nil } ?? false)
                    }
                    if let outcome {
                        worker.report {
                            task.finishOnWorker(outcome)
                            // The last references to the answered request and what its completion captured (the
                            // engine's operation, the message, the answer) go with the work the report left: after
                            // the next request is written when one was left for this worker, at once otherwise.
                            worker.afterCompletion { withExtendedLifetime((waiting, outcome)) {} }
                        }
                    }
                    self.monitor.withLock { _ = $0.running.removeValue(forKey: ObjectIdentifier(task)) }
                }
            }
        }
    }

    /// What a worker does next.
    private enum Next {
        /// Carry out this request (or, written by its sender, read its answer).
        case task(Waiting)
        /// Run the work its last report left (`WorkerThread.afterCompletion`), then close the connection that report's
        /// answer came on (lanes that do not reuse connections): there is no request to write first.
        case owedWork
        /// End the thread (invalidated, or idle for `workerLinger`).
        case end
    }

    /// The oldest waiting request; else the worker's owed work (or its connection `closing`); else it waits for a
    /// request, and ends when the pool is invalidated or after `workerLinger` without one. Owed work never waits
    /// behind an idle wait.
    private func next(for worker: WorkerThread, closing: Bool) -> Next {
        self.monitor.wait { state, wake -> MonitorStep<Next> in
            if wake == .first && worker.promised {
                // The promise is kept by looking: the request left for this worker may have been taken by a worker
                // that woke meanwhile, and then there is nothing to wait for here.
                worker.promised = false
                state.promised -= 1
            }
            if wake != .first {
                state.idleWorkers -= 1
                if wake == .timedOut && !state.hasWaiting {
                    state.workers -= 1
                    return .done(.end)
                }
            }
            if state.hasWaiting {
                let task = state.waiting[state.waitingHead]
                state.waitingHead += 1
                if state.waitingHead == state.waiting.count {
                    state.waiting.removeAll(keepingCapacity: true)
                    state.waitingHead = 0
                }
                state.running[ObjectIdentifier(task.task)] = task.task
                return .done(.task(task))
            }
            if wake == .first && (worker.owesWork || closing) {
                // Only this worker adds owed work, in its reports: it is never pending after an idle wait.
                return .done(.owedWork)
            }
            if state.invalidated {
                state.workers -= 1
                return .done(.end)
            }
            // The linger starts again after every wake that found nothing to do.
            state.idleWorkers += 1
            return .waitUntil(Date(timeIntervalSinceNow: SocketTransport.workerLinger))
        }
    }

    /// Carries a waiting request out (writes the request, or what its sender did not, and reads its answer) and
    /// returns its outcome, to be reported with no lock held; nil when there is nothing to report (it was cancelled
    /// before anything was written, and reported its cancellation then). `whileWaiting` runs once the request is
    /// written (not at all when it never is) and returns true when the request's deadline passed meanwhile
    /// (`SocketConnection.exchange`). A connection answered on a lane that does not reuse connections is left in
    /// `closing` for the worker to close after the answer's calls.
    private func carryOut(
        _ waiting: Waiting,
        closing: inout SocketConnection?,
        whileWaiting: () -> Bool
    ) -> Result<TransportResponse, TransportFailure>? {
        let task = waiting.task
        if let written = waiting.written {
            // Attached by its sender: a cancel since has shut the connection down, and the read below fails.
            return self.exchange(
                task,
                on: written.connection,
                head: written.head,
                written: written.bytes,
                closing: &closing,
                whileWaiting
            )
        }
        if task.isFinished { return nil }
        let connection: SocketConnection
        if let pooled = self.takeIdle(for: task.poolKey) {
            connection = pooled
        } else {
            switch SocketConnection.open(
                to: task.target,
                timeout: task.request.timeout,
                task: task,
                contexts: self.contexts
            ) {
            case .success(let opened): connection = opened
            case .failure(let failure): return .failure(failure)
            }
        }
        guard task.attach(connection.descriptor) else {
            // Cancelled before anything was written: the connection is untouched.
            self.putIdle(connection)
            return nil
        }
        let head = Self.head(of: task, keepAlive: self.reusesConnections)
        return self.exchange(task, on: connection, head: head, written: 0, closing: &closing, whileWaiting)
    }

    /// Writes `task`'s request on the attached `connection` (less the `written` bytes already sent), reads its answer,
    /// and pools or closes the connection — or, answered on a lane that does not reuse connections, leaves it in
    /// `closing` (the answer was read whole; the origin closes its side first).
    private func exchange(
        _ task: SocketTask,
        on connection: SocketConnection,
        head: [UInt8],
        written: Int,
        closing: inout SocketConnection?,
        _ whileWaiting: () -> Bool
    ) -> Result<TransportResponse, TransportFailure> {
        let result = connection.exchange(
            head: head,
            body: task.request.body,
            written: written,
            timeout: task.request.timeout,
            limits: task.request.limits,
            whileWaiting: whileWaiting
        )
        let live = task.detach()
        switch result {
        case .success(let (response, reusable)):
            if !self.reusesConnections {
                closing = connection
            } else if live && reusable {
                self.putIdle(connection)
            } else {
                connection.close()
            }
            return .success(response)
        case .failure(let failure):
            connection.close()
            return .failure(failure)
        }
    }

    /// The chained request after the one whose answer the calling worker has just read, taken out of `chainNext` for
    /// that worker to carry next; nil (and the chain idle) when none waits. When that answer came (`answered`) on a
    /// plain connection left open, the request is written now, as far as the socket takes it without waiting: it is
    /// on its way before the answer before it is reported.
    private func successor(answered: Bool) -> Waiting? {
        let next = self.monitor.withLock { state -> SocketTask? in
            guard !state.chainNext.isEmpty else {
                state.chainBusy = false
                return nil
            }
            let next = state.chainNext.removeFirst()
            state.running[ObjectIdentifier(next)] = next
            return next
        }
        guard let next else { return nil }
        guard answered, !next.target.secure, let connection = self.takeIdle(for: next.poolKey),
            let written = self.write(next, on: connection)
        else {
            return Waiting(task: next, written: nil)
        }
        self.monitor.withLock { $0.writtenAhead += 1 }
        return Waiting(task: next, written: written)
    }

    /// Writes `task`'s request on the calling thread, as far as the socket takes it without waiting, when that saves
    /// waking a thread before it is on its way: the pool keeps connections alive, the target is plain `http` (an
    /// `SSL_write` cut short must be finished by the same caller), a worker waits idle with no request before this
    /// one, and an idle connection for the task's key is healthy. Returns the connection, attached to the task, and
    /// what was written; nil when the worker is to carry the whole request out as usual.
    private func writeAtOnce(_ task: SocketTask) -> Written? {
        guard self.reusesConnections, !task.target.secure else { return nil }
        let idle = self.monitor.withLock { state -> SocketConnection? in
            guard !state.invalidated, !state.hasWaiting, state.promised == 0, state.idleWorkers > 0,
                let index = state.idle.lastIndex(where: { $0.poolKey == task.poolKey })
            else { return nil }
            return state.idle.remove(at: index)
        }
        guard let connection = idle else { return nil }
        guard connection.isHealthyWhileIdle else {
            connection.close()
            return nil
        }
        return self.write(task, on: connection)
    }

    /// Writes `task`'s request on the healthy idle `connection`, taken out of the pool, as far as the socket takes it
    /// without waiting: the connection, attached to the task, and what was written; nil when the task was finished (the
    /// connection goes back to the pool) or the write fell short (it is closed).
    private func write(_ task: SocketTask, on connection: SocketConnection) -> Written? {
        guard task.attach(connection.descriptor) else {
            self.putIdle(connection)
            return nil
        }
        let head = Self.head(of: task)
        guard let bytes = connection.writeWithoutWaiting(head: head, body: task.request.body) else {
            // Not all of it went out: the origin cannot act on a request cut short, so a worker sends it again on
            // another connection.
            _ = task.detach()
            connection.close()
            return nil
        }
        return Written(connection: connection, head: head, bytes: bytes)
    }

    /// The most recently used healthy idle connection for `key`; stale ones met on the way are closed. Without
    /// one, idle connections to other hosts are closed so that opening a new one stays within the limit.
    private func takeIdle(for key: PoolKey) -> SocketConnection? {
        while true {
            let (found, evicted) = self.monitor.withLock { state -> (SocketConnection?, [SocketConnection]) in
                if let index = state.idle.lastIndex(where: { $0.poolKey == key }) {
                    return (state.idle.remove(at: index), [])
                }
                let excess = state.idle.count + state.workers - self.maximumConnections
                guard excess > 0 else { return (nil, []) }
                let evicted = Array(state.idle.prefix(excess))
                state.idle.removeFirst(evicted.count)
                return (nil, evicted)
            }
            for connection in evicted { connection.close() }
            guard let found else { return nil }
            if found.isHealthyWhileIdle { return found }
            found.close()
        }
    }

    private func putIdle(_ connection: SocketConnection) {
        let surplus = self.monitor.withLock { state -> [SocketConnection] in
            guard !state.invalidated, self.reusesConnections else { return [connection] }
            state.idle.append(connection)
            let excess = state.idle.count - self.maximumConnections
            guard excess > 0 else { return [] }
            let surplus = Array(state.idle.prefix(excess))
            state.idle.removeFirst(excess)
            return surplus
        }
        for extra in surplus { extra.close() }
    }
}
