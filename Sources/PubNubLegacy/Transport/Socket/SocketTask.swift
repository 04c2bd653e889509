import Dispatch
import Foundation
import PlatformSupport

/// One request of a `SocketTransport`, from `send` to its one completion.
///
/// The completion is called exactly once, never inside `send`: on the thread of the worker that carried the request
/// out, or asynchronously on `TransportReports.queue` after `cancel()` / the transport's `invalidate()` — whichever
/// comes first. A worker that finishes after a cancel finds the task finished and drops its outcome.
// @unchecked: the mutable part is `state`, a `Locked` box; `request` and `completion` are immutable.
final class SocketTask: TransportTask, @unchecked Sendable {
    private struct State {
        var finished = false
        /// The descriptor a worker is using for this request, so `cancel()` can wake it. Only the worker closes it,
        /// after taking it out of here (`detach`) under the same lock, so `cancel()` never touches a closed or
        /// reused descriptor number.
        var descriptor: Int32?
        /// True while the request is written and its worker, instead of reading the answer, makes the listener calls
        /// of an earlier one (`beginUnreadWait()`).
        var answerUnread = false
        /// The deadline passed while `answerUnread` (`expire()`).
        var expired = false
    }

    let request: TransportRequest
    let target: HTTPTarget
    /// Which pooled connections may carry this request: a connection verified against one trust store is never lent
    /// to a request that asked for another, nor a relaxed one to a strict request (`PoolKey`).
    let poolKey: PoolKey
    private let completion: @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    private let state = Locked(State())
    /// The transport's count of reports handed to `TransportReports.queue` whose completion has not returned yet
    /// (shared by all its tasks), so a test can wait until no late report can still arrive.
    private let scheduledReports: Locked<Int>

    init(
        request: TransportRequest,
        target: HTTPTarget,
        scheduledReports: Locked<Int>,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) {
        self.request = request
        self.target = target
        self.scheduledReports = scheduledReports
        self.completion = completion
        var poolKey = target.poolKey
        if target.secure {
            poolKey.relaxed = request.relaxedCertificateValidation
            poolKey.trust = request.trust
        }
        self.poolKey = poolKey
    }

    /// True once the outcome was reported (or the task cancelled).
    var isFinished: Bool {
        self.state.withLock { $0.finished }
    }

    /// Reports `.cancelled` unless an outcome was already reported, and wakes the worker's blocking wait by shutting
    /// the connection down (the worker then closes it instead of pooling it).
    func cancel() {
        let report = self.state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.finished = true
            if let descriptor = state.descriptor {
                // Under the lock: the worker cannot close the descriptor until it has detached it here.
                POSIXSocket.shutdownBoth(descriptor)
            }
            return true
        }
        if report { self.report(.failure(.cancelled)) }
    }

    /// The request's deadline passed. Cancels it as `cancel()` does, unless it is written and its answer waits
    /// unread while its worker makes the listener calls of an earlier answer: the origin may have taken it, and a
    /// timeout reported then would be a request sent that the app is told failed. Such a request is left to its
    /// worker, which takes the answer if it has begun to arrive when the calls return and reports `.timedOut`
    /// otherwise (`SocketConnection.exchange`). Returns false when it was left so: its outcome is still to come.
    func expire() -> Bool {
        let leftToWorker = self.state.withLock { state -> Bool in
            guard state.answerUnread, !state.finished else { return false }
            state.expired = true
            return true
        }
        if leftToWorker { return false }
        self.cancel()
        return true
    }

    /// True while the request is written and its answer waits unread (`beginUnreadWait()`), for tests.
    var isAnswerUnread: Bool {
        self.state.withLock { $0.answerUnread }
    }

    /// The worker wrote the request and turns to other work before reading its answer; false (nothing changed) when
    /// the task is finished.
    func beginUnreadWait() -> Bool {
        self.state.withLock { state in
            guard !state.finished else { return false }
            state.answerUnread = true
            return true
        }
    }

    /// The worker turns back to reading the answer: true when the deadline passed meanwhile (`expire()`).
    func endUnreadWait() -> Bool {
        self.state.withLock { state in
            state.answerUnread = false
            return state.expired
        }
    }

    /// Reports `result` asynchronously unless an outcome was already reported.
    func finish(_ result: Result<TransportResponse, TransportFailure>) {
        if self.markFinished() { self.report(result) }
    }

    /// Reports `result` on the calling worker thread unless an outcome was already reported: one thread hop less
    /// between the socket and the engine's queue. Workers call it holding no lock, never inside `send`.
    func finishOnWorker(_ result: Result<TransportResponse, TransportFailure>) {
        if self.markFinished() { self.completion(result) }
    }

    private func markFinished() -> Bool {
        self.state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.finished = true
            return true
        }
    }

    private func report(_ result: Result<TransportResponse, TransportFailure>) {
        let completion = self.completion
        let scheduledReports = self.scheduledReports
        scheduledReports.withLock { $0 += 1 }
        TransportReports.queue.async {
            completion(result)
            scheduledReports.withLock { $0 -= 1 }
        }
    }

    /// Registers the descriptor the worker is about to use; false (nothing registered) when the task is finished.
    func attach(_ descriptor: Int32) -> Bool {
        self.state.withLock { state in
            guard !state.finished else { return false }
            state.descriptor = descriptor
            return true
        }
    }

    /// Forgets the descriptor before the worker closes or pools it. Returns false when the task was finished
    /// meanwhile (cancelled): the descriptor may have been shut down and must not be reused.
    func detach() -> Bool {
        self.state.withLock { state in
            state.descriptor = nil
            return !state.finished
        }
    }
}
