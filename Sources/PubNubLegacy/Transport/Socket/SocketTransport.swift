import Foundation
import PlatformSupport

// HTTP and HTTPS transport on POSIX sockets. URLSession on Linux goes through libcurl, which costs about a kilobyte
// of memory that is never returned per request and milliseconds of latency; PubNub traffic is small HTTP/1.1
// request/response pairs, which a keep-alive pool of blocking sockets serves directly. TLS comes from the system's
// OpenSSL (`OpenSSL.shared`, opened at the first `https` request), as a `TLSStream` under the same HTTP exchange.

/// `HTTPTransport` for `http://` URLs — and `https://` URLs when OpenSSL loads (`supportsTLS`) — over its own
/// keep-alive connections.
///
/// At most `maximumConnections` requests are on the wire at once, each carried by a worker thread that blocks in
/// `poll` with the request's idle timeout; further requests wait in FIFO order. With `reusesConnections`, a
/// connection that carried a complete keep-alive response, with not one byte after it, goes back to the idle pool
/// and is reused for the same host and port after a check that nothing arrived on it meanwhile (the server closed
/// it, or sent something unasked). Without it, every request asks for `Connection: close` and gets a connection of
/// its own. A request is never sent twice: a failure after its bytes may have left is reported.
///
/// Why a lane would not reuse: HTTP/1.1 answers carry no request identifier. An answer nobody asked for (a proxy
/// that duplicated one, a broken origin) that arrives after the next request was written on the same connection
/// reads as that request's answer, and each later answer as the one of the request before it, for as long as the
/// connection lives. A lane whose requests are held by the server (the long-poll) would then never get back in
/// step; one request per connection makes every answer belong to its request.
///
/// TLS (`https`): TLS 1.2 or later with SNI; the certificate and the host name are verified against the system
/// trust store (which honours `SSL_CERT_FILE` / `SSL_CERT_DIR`) or the request's anchors file, then the request's
/// pins are checked. A request marked `relaxedCertificateValidation` skips verification (pins still apply). A
/// handshake or certificate failure is a `.tls` failure (`SocketFailure.tlsHandshakeFailed`, and
/// `TrustEvaluation`'s refusals and pin failures); a failure after the handshake counts as a lost connection, as on a
/// plain socket.
///
/// Failures are the ones `URLSessionTransport` reports for the same situation (see `SocketFailure`). Completions run
/// exactly once, never inside `send` and never under a lock: on the worker thread that carried the request out (so
/// a completion must not block), or on `TransportReports.queue` for cancellations.
final class SocketTransport: HTTPTransport {
    /// How long a worker with nothing to do waits for a request before its thread ends.
    static let workerLinger: TimeInterval = 5

    let maximumConnections: Int
    private let pool: SocketPool

    /// - Parameters:
    ///   - maximumConnections: Requests on the wire at once (and connections kept), at least 1.
    ///   - label: Names the lane in the worker threads' names, for debugging.
    ///   - reusesConnections: Keep-alive: false gives every request a connection of its own (see the type).
    ///   - openSSL: The library for `https`, asked for at the first `https` request (or `supportsTLS` question) and
    ///     not before; when it fails, `https` requests fail with `SocketFailure.openSSLUnavailable`.
    init(
        maximumConnections: Int,
        label: String,
        reusesConnections: Bool = true,
        openSSL: @escaping TLSContextCache.Library = { OpenSSL.shared }
    ) {
        self.maximumConnections = max(1, maximumConnections)
        self.pool = SocketPool(
            maximumConnections: self.maximumConnections,
            label: label,
            reusesConnections: reusesConnections,
            contexts: TLSContextCache(library: openSSL)
        )
    }

    /// Whether `https` requests are carried (with TLS over the same pool) rather than refused. Asking loads OpenSSL.
    var supportsTLS: Bool {
        guard case .success = self.pool.contexts.openSSL else { return false }
        return true
    }

    /// The relaxed rung of the TLS ladder really skips verification here. Asking loads OpenSSL.
    var canRelaxCertificateValidation: Bool { self.supportsTLS }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        guard let target = HTTPTarget(urlText: request.urlText) else {
            return self.refuse(request, SocketFailure.unsupportedURL, completion: completion)
        }
        if let refusal = self.refusal(of: target) {
            return self.refuse(request, refusal, completion: completion)
        }
        let task = SocketTask(
            request: request,
            target: target,
            scheduledReports: self.pool.scheduledReports,
            completion: completion
        )
        self.pool.enqueue(task)
        return task
    }

    /// A task that reports `failure` at once, never inside `send` (`SocketTask.finish`).
    private func refuse(
        _ request: TransportRequest,
        _ failure: TransportFailure,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        let task = SocketTask(
            request: request,
            target: HTTPTarget.none,
            scheduledReports: self.pool.scheduledReports,
            completion: completion
        )
        task.finish(.failure(failure))
        return task
    }

    /// Why a request to `target` is refused before it is queued: an `https` one where OpenSSL cannot be loaded (the
    /// first `https` request loads it). Nil for every plain `http` request, which never asks for OpenSSL.
    private func refusal(of target: HTTPTarget) -> TransportFailure? {
        guard target.secure, case .failure(let failure) = self.pool.contexts.openSSL else { return nil }
        return SocketFailure.openSSLUnavailable(failure)
    }

    func invalidate() {
        self.pool.invalidate()
    }

    /// Connections resting in the idle pool, for tests.
    var idleConnectionCount: Int {
        self.pool.idleConnectionCount
    }

    /// Idle connections that a next request would discard as stale (the peer closed them, or sent bytes), for tests
    /// that wait until a server's close has reached the client before sending again.
    var staleIdleConnectionCount: Int {
        self.pool.staleIdleConnectionCount
    }

    /// Requests sent and not yet taken by a worker (waiting for a connection slot), for tests.
    var queuedRequestCount: Int {
        self.pool.queuedRequestCount
    }

    /// Places a report may still come from, for tests that check that nothing is reported again: requests waiting
    /// for a worker, requests a worker holds (until it has returned from their completion), and reports handed to
    /// `TransportReports.queue` (a cancellation's) whose completion has not returned yet. At 0, every completion this
    /// transport will ever call for the requests sent so far has returned (unless `cancel()` or `invalidate()` is
    /// called while it is read: those take a request out of the queue before scheduling its report).
    var outstandingReportCount: Int {
        self.pool.outstandingReportCount
    }

    /// Closes the connections resting in the idle pool, so the next request opens a new one (benchmarks time that).
    func closeIdleConnections() {
        self.pool.closeIdleConnections()
    }
}

// MARK: - Pool

/// The queue of waiting requests, the worker threads and the idle connections of one `SocketTransport`.
// Sendable: its mutable state lives in `monitor`; every other stored property is an immutable `let`.
final class SocketPool: Sendable {
    private struct State {
        var invalidated = false
        var waiting: [SocketTask] = []
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
        self.monitor.withLock { $0.waiting.count - $0.waitingHead }
    }

    /// The tasks are counted first: a worker reports on its own thread before it lets go of a task, so once none is
    /// held, the scheduled reports can only go down.
    var outstandingReportCount: Int {
        let held = self.monitor.withLock { $0.waiting.count - $0.waitingHead + $0.running.count }
        return held + self.scheduledReports.withLock { $0 }
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
    /// previous answer).
    func enqueue(_ task: SocketTask) {
        enum Step { case cancel, keep, signal, spawn }
        let worker = WorkerThread.current.flatMap { worker in
            worker.pool == ObjectIdentifier(self) && worker.reporting && !worker.promised ? worker : nil
        }
        let step = self.monitor.withLock { state -> Step in
            if state.invalidated { return .cancel }
            state.waiting.append(task)
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
        case .keep:
            worker?.promised = true
        case .signal:
            self.monitor.signal()
        case .spawn:
            let thread = Thread { [self] in self.work() }
            thread.name = "com.pubnub.legacy.socket.\(self.label)"
            thread.start()
        }
    }

    /// Cancels every request, closes the idle connections and ends the workers; later requests are cancelled.
    func invalidate() {
        let (tasks, connections) = self.monitor.withLock { state -> ([SocketTask], [SocketConnection]) in
            state.invalidated = true
            let tasks = Array(state.waiting[state.waitingHead...]) + Array(state.running.values)
            state.waiting = []
            state.waitingHead = 0
            let connections = state.idle
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
            while let task = self.nextTask(for: worker) {
                if let outcome = self.carryOut(task) {
                    worker.report { task.finishOnWorker(outcome) }
                }
                self.monitor.withLock { _ = $0.running.removeValue(forKey: ObjectIdentifier(task)) }
            }
        }
    }

    /// The oldest waiting request, or nil when the worker should end (invalidated, or idle for `workerLinger`).
    private func nextTask(for worker: WorkerThread) -> SocketTask? {
        self.monitor.wait { state, wake -> MonitorStep<SocketTask?> in
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
                    return .done(nil)
                }
            }
            if state.hasWaiting {
                let task = state.waiting[state.waitingHead]
                state.waitingHead += 1
                if state.waitingHead == state.waiting.count {
                    state.waiting.removeAll(keepingCapacity: true)
                    state.waitingHead = 0
                }
                state.running[ObjectIdentifier(task)] = task
                return .done(task)
            }
            if state.invalidated {
                state.workers -= 1
                return .done(nil)
            }
            // The linger starts again after every wake that found nothing to do.
            state.idleWorkers += 1
            return .waitUntil(Date(timeIntervalSinceNow: SocketTransport.workerLinger))
        }
    }

    /// Carries `task` out and returns its outcome, to be reported with no lock held; nil when there is nothing to
    /// report (it was cancelled before anything was written, and reported its cancellation then).
    private func carryOut(_ task: SocketTask) -> Result<TransportResponse, TransportFailure>? {
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
        let result = connection.exchange(
            head: Self.head(of: task, keepAlive: self.reusesConnections),
            body: task.request.body,
            timeout: task.request.timeout,
            limits: task.request.limits
        )
        let live = task.detach()
        switch result {
        case .success(let (response, reusable)):
            if live && reusable {
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

    /// The most recently used healthy idle connection for `key`; stale ones met on the way are closed. Without
    /// one, idle connections to other hosts are closed so that opening a new one stays within the limit.
    private func takeIdle(for key: String) -> SocketConnection? {
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
