import Foundation

// The engine talks HTTP only through this protocol, so the subscribe loop and request lanes can be tested
// without sockets and the URLSession details stay in one file.

/// One HTTP request as the engine wants it sent.
struct TransportRequest: Sendable, Equatable {
    var method: String
    /// The absolute URL as text, escaped as the engine wrote it: the sockets send its path and query byte for byte
    /// and never make a `URL` of it (parsing one cost a publish 7,600 instructions, BENCHMARKS.md). Always text that
    /// `URL(string:)` accepts: every initializer makes sure of it.
    private(set) var urlText: String
    var body: Data?
    /// Idle timeout of the HTTP exchange. Operation timeouts with their 3.4 messages are enforced by the
    /// engine's own timers; this is the backstop of the transport.
    var timeout: TimeInterval
    /// For `https`: accept any server certificate (the relaxed rung of the TLS ladder, docs/BEHAVIOR.md §2.8).
    /// Only transports that can honour it act on it (`canRelaxCertificateValidation`); the others validate as
    /// usual, and the engine does not ask them to relax.
    var relaxedCertificateValidation = false
    /// How much of an answer the transport reads before it gives up on it (`TransportFailure.responseTooLarge`).
    var limits = ResponseLimits()
    /// For `https`: the configuration's own trust anchors and public-key pins (`TrustEvaluation`). A transport
    /// that cannot enforce them (URLSession on Linux) fails the request with a TLS failure instead of ignoring them.
    var trust = TLSTrust()
    /// Sent after the chained request before it on the same transport, never beside it: written once that one's
    /// answer is read (on its connection when it stays open), before that answer is reported. Only transports whose
    /// `chainsRequests` is true are given such requests (docs/BEHAVIOR.md §1.2).
    var chained = false

    /// A request to `url` (probes and tests; set the TLS properties afterwards).
    init(method: String, url: URL, body: Data?, timeout: TimeInterval) {
        self.init(method: method, acceptedURLText: url.absoluteString, body: body, timeout: timeout)
    }

    /// A request to `acceptedURLText`, which the caller has made sure `URL(string:)` accepts (`Endpoint.request`).
    init(
        method: String,
        acceptedURLText: String,
        body: Data?,
        timeout: TimeInterval,
        relaxedCertificateValidation: Bool = false,
        trust: TLSTrust = TLSTrust()
    ) {
        self.method = method
        self.urlText = acceptedURLText
        self.body = body
        self.timeout = timeout
        self.relaxedCertificateValidation = relaxedCertificateValidation
        self.trust = trust
    }

    /// `urlText` as a `URL`, parsed at each use (by URLSession and by tests; the sockets use the text).
    var url: URL {
        get {
            guard let url = URL(string: self.urlText) else {
                preconditionFailure("TransportRequest.urlText is always text that URL(string:) accepts")
            }
            return url
        }
        set { self.urlText = newValue.absoluteString }
    }
}

/// Bounds on what one HTTP answer may make the client hold, so an origin, proxy or attacker cannot take the process
/// down through memory (a 1 GB body, endless chunks, endless headers or trailers). The defaults are far above what
/// the PubNub service sends: its largest answers — a 100-message subscribe or history page of 32 KiB messages — stay
/// under 4 MiB.
struct ResponseLimits: Sendable, Equatable {
    /// Status line and header lines, line ends included.
    var maximumHeaderBytes = 65_536
    /// Header lines.
    var maximumHeaderCount = 256
    /// Trailer lines after a chunked body, line ends included.
    var maximumTrailerBytes = 65_536
    /// The body, after chunked framing is removed (`PNConfiguration.maximumResponseBodySize`).
    var maximumBodyBytes = ResponseLimits.defaultMaximumBodyBytes

    /// 32 MiB.
    static let defaultMaximumBodyBytes = 32 * 1_024 * 1_024
}

/// What an `https` request trusts, set by the configuration (`PNConfiguration.anchorCertificatesFile`,
/// `PNConfiguration.pinnedPublicKeyHashes`).
struct TLSTrust: Sendable, Hashable {
    /// A PEM file of CA certificates trusted instead of the system's trust store; nil: the system trust store.
    var anchorCertificatesFile: String?
    /// SHA-256 digests (32 bytes each) of the DER SubjectPublicKeyInfo of keys the server's certificate chain must
    /// contain one of; empty: no pinning.
    var pinnedKeyDigests: Set<[UInt8]> = []

    /// True when nothing is set: the system trust store, no pins.
    var isSystemDefault: Bool {
        self.anchorCertificatesFile == nil && self.pinnedKeyDigests.isEmpty
    }
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
    /// The answer passed one of the request's `ResponseLimits` (named in the description); the connection was
    /// dropped without reading the rest.
    case responseTooLarge(String)
}

/// A request in flight; `cancel()` makes its completion report `.cancelled` unless it already finished.
protocol TransportTask: Sendable {
    func cancel()

    /// The request's deadline passed: cancels it, or leaves it to finish with its answer or `.timedOut` when its
    /// answer may already be waiting unread (`SocketTask.expire()`). False when it was left so.
    func expire() -> Bool
}

extension TransportTask {
    /// Cancels: a transport that never leaves an answer unread has nothing to wait for.
    func expire() -> Bool {
        self.cancel()
        return true
    }
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

    /// Whether `https` requests marked `relaxedCertificateValidation` really skip certificate validation here, so
    /// the relaxed rung of the TLS ladder is worth trying.
    var canRelaxCertificateValidation: Bool { get }

    /// Whether requests marked `TransportRequest.chained` are carried in order here, each written as soon as the
    /// answer of the one before it is read (the socket transport's keep-alive pools).
    var chainsRequests: Bool { get }
}

extension HTTPTransport {
    /// Transports validate every certificate unless they say otherwise.
    var canRelaxCertificateValidation: Bool { false }

    /// Transports carry requests side by side unless they say otherwise.
    var chainsRequests: Bool { false }
}

/// Where a transport reports an outcome it does not report from its own thread (a cancellation, a request refused
/// before it started, a socket task finished from another thread): one serial queue of the package's own. Not
/// `DispatchQueue.global()`: on Linux its threads are capped at the core count, and an app or a test that blocks them
/// (a semaphore wait in a global-queue block) held every such report back until they were freed — a whole-suite run
/// on 2 cores saw an invalidated transport's cancellation reported after more than 60 s. A serial queue gets a thread
/// of its own when it has work. The completions it runs only hand the outcome on (to the engine's queue).
enum TransportReports {
    /// The queue transports report on; completions run on it one at a time, in the order they were reported.
    static let queue = DispatchQueue(label: "com.pubnub.legacy.transport.reports")
}
