import Foundation

// The engine talks HTTP only through this protocol, so the subscribe loop and request lanes can be tested
// without sockets and the URLSession details stay in one file.

/// One HTTP request as the engine wants it sent.
struct TransportRequest: Sendable, Equatable {
    var method: String
    var url: URL
    var body: Data?
    /// Idle timeout of the HTTP exchange. Operation timeouts with their 3.4 messages are enforced by the
    /// engine's own timers; this is the backstop of the transport.
    var timeout: TimeInterval
    /// For `https`: accept any server certificate (the relaxed rung of the TLS ladder, docs/BEHAVIOR.md §2.8). Only
    /// transports that can honour it act on it (`URLSessionTransport` on Apple platforms); the others validate as
    /// usual, and the engine does not ask them to relax.
    var relaxedCertificateValidation = false
}

/// A complete HTTP answer: any status, with its body.
struct TransportResponse: Sendable, Equatable {
    var status: Int
    var body: Data
}

/// Why no HTTP answer arrived. The classes follow docs/BEHAVIOR.md §2.8.
enum TransportFailure: Error, Sendable, Equatable {
    /// The request was cancelled by the engine (long-poll replaced, client disconnected).
    case cancelled
    /// No data for the request's timeout.
    case timedOut
    /// Network-class failure: host unreachable, DNS failure, connection refused or lost.
    case network(code: Int, description: String)
    /// TLS handshake or certificate failure.
    case tls(code: Int, description: String)
    /// Anything else the HTTP stack reports, with its original code.
    case other(domain: String, code: Int, description: String)
}

/// A request in flight; `cancel()` makes its completion report `.cancelled` unless it already finished.
protocol TransportTask: Sendable {
    func cancel()
}

/// Sends requests and reports each outcome exactly once, on a queue of the transport's choosing.
protocol HTTPTransport: Sendable {
    /// Starts `request`; `completion` is called once with the answer or the failure.
    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask

    /// Cancels everything in flight and releases the transport's resources; later sends fail with `.cancelled`.
    func invalidate()
}
