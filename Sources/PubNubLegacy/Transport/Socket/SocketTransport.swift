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

    /// A pool that keeps connections alive carries chained requests in order (`SocketPool.enqueue`); one that opens a
    /// connection per request does not chain.
    var chainsRequests: Bool { self.pool.reusesConnections }

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

    /// Worker threads waiting for a request, for tests.
    var idleWorkerCount: Int {
        self.pool.idleWorkerCount
    }

    /// Requests written by the thread that sent them, a worker reading only their answers (`SocketPool.enqueue`), for
    /// tests.
    var writtenBySenderCount: Int {
        self.pool.writtenBySenderCount
    }

    /// Chained requests a worker wrote before it reported the answer before them (`SocketPool.enqueue`), for tests.
    var writtenAheadCount: Int {
        self.pool.writtenAheadCount
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

    /// Requests written whose answer waits unread while their worker makes the listener calls of an earlier answer
    /// (`SocketTask.beginUnreadWait()`), for tests.
    var unreadAnswerCount: Int {
        self.pool.unreadAnswerCount
    }

    /// Closes the connections resting in the idle pool, so the next request opens a new one (benchmarks time that).
    func closeIdleConnections() {
        self.pool.closeIdleConnections()
    }
}
