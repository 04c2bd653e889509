import Foundation
import PlatformSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over URLSession. The engine makes one per lane (long-poll, service) so a parked long-poll never
/// holds a connection that other requests wait for (docs/BEHAVIOR.md §1.1). Requests with different trust — anchors,
/// pins, relaxed validation — get sessions of their own (`SessionKey`), so a connection accepted under one trust is
/// never reused under another: URLSession judges a server once per connection.
final class URLSessionTransport: HTTPTransport {
    /// Whether a request marked `relaxedCertificateValidation` accepts the certificate its server presents, and
    /// whether anchors and pins can be enforced: where the package judges server trust (`SessionTrust`: Apple
    /// platforms, through the server-trust challenge). FoundationNetworking (libcurl) never delivers those
    /// challenges, so on Linux a request is always fully validated against the system's trust store.
    static var canRelaxCertificateValidation: Bool { SessionTrust.judgesServerTrust }

    /// The trust a session's connections were accepted under.
    struct SessionKey: Hashable, Sendable {
        var trust: TLSTrust
        var relaxed: Bool

        /// The session of a request with `evaluation` (nil: plain `http`, which shares the default one).
        init(_ evaluation: TrustEvaluation?) {
            self.trust = evaluation?.trust ?? TLSTrust()
            self.relaxed = evaluation?.relaxed ?? false
        }
    }

    private struct Session {
        let session: URLSession
        /// The session's delegate where the package judges server trust, and the tasks it judges.
        let trust: SessionTrust
    }

    private struct State {
        var invalidated = false
        var sessions: [SessionKey: Session] = [:]
    }

    private let maximumConnections: Int
    private let label: String
    /// `invalidated` is set once by `invalidate()`. FoundationNetworking traps when a task is created on an
    /// invalidated session, so session and task creation and invalidation are serialized by this lock.
    private let state = Locked(State())

    /// - Parameters:
    ///   - maximumConnections: Connections per host; the long-poll lane needs two (the old poll may still be
    ///     closing while its replacement starts).
    ///   - label: Names the lane in the sessions' delegate queues, for debugging.
    init(maximumConnections: Int, label: String) {
        self.maximumConnections = maximumConnections
        self.label = label
    }

    /// A new session for requests of one `SessionKey`.
    private func makeSession() -> Session {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = self.maximumConnections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpAdditionalHeaders = [
            "V": "3.4",
            "User-Agent": "PubNubLegacy-Swift/3.4",
            "Accept": "*/*",
        ]
        SessionTrust.configure(configuration)
        let delegateQueue = OperationQueue()
        delegateQueue.name = "com.pubnub.legacy.transport.\(self.label)"
        delegateQueue.maxConcurrentOperationCount = 1
        let trust = SessionTrust()
        let session = URLSession(
            configuration: configuration,
            delegate: trust.sessionDelegate,
            delegateQueue: delegateQueue
        )
        return Session(session: session, trust: trust)
    }

    /// Sessions made so far, for tests.
    var sessionCount: Int { self.state.withLock { $0.sessions.count } }

    /// Instance spelling of `canRelaxCertificateValidation` for `HTTPTransport`.
    var canRelaxCertificateValidation: Bool { Self.canRelaxCertificateValidation }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        let evaluation = Self.evaluation(of: request)
        if let evaluation, !evaluation.trust.isSystemDefault, !SessionTrust.judgesServerTrust {
            // Fail closed: a pin or a private trust store this transport ignored would be a silent downgrade.
            let failure = SocketFailure.tlsSetupFailed(
                "anchorCertificatesFile and pinnedPublicKeyHashes need the package's own TLS (OpenSSL on Linux) or "
                    + "the Security framework; URLSession cannot enforce them here"
            )
            TransportReports.queue.async { completion(.failure(failure)) }
            return SessionTask(task: nil)
        }
        // The package judges the server of this request (relaxed, own anchors, pins): see `SessionTrust`.
        let judged = evaluation.flatMap { SessionTrust.judgesServerTrust && !$0.isPlatformDefault ? $0 : nil }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        // Bounded as on the socket transport: a day at most (a configuration may ask for 1e300 s, which URLSession
        // would turn into an integer of milliseconds).
        urlRequest.timeoutInterval = SocketConnection.seconds(request.timeout)
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // The judged task and the challenges of its session, set before the task starts.
        let judgedTask = Locked<(id: Int, challenges: TrustChallenges)?>(nil)
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            // A refused challenge ends the task as "cancelled"; the refusal is its real outcome.
            let refusal = judgedTask.current.flatMap { $0.challenges.finish($0.id) }
            if let error {
                completion(.failure(refusal ?? Self.classify(error)))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(.other(domain: "PubNubLegacy.Transport", code: -1, description: "not HTTP")))
                return
            }
            // URLSession reads the whole body before it hands it over, so the limit only keeps an oversized answer
            // from going further; it cannot bound what URLSession held meanwhile (nor headers or trailers).
            let limit = request.limits.maximumBodyBytes
            if let data, data.count > limit {
                completion(
                    .failure(
                        .responseTooLarge(
                            "its body is larger than \(limit) bytes (PNConfiguration.maximumResponseBodySize)"
                        )
                    )
                )
                return
            }
            completion(.success(TransportResponse(status: http.statusCode, body: data ?? Data())))
        }
        let key = SessionKey(evaluation)
        let task = self.state.withLock { state -> URLSessionDataTask? in
            guard !state.invalidated else { return nil }
            let session = state.sessions[key] ?? self.makeSession()
            state.sessions[key] = session
            let task = session.session.dataTask(with: urlRequest, completionHandler: handler)
            // Registered before `resume()`, so the challenge of this task's handshake finds it.
            if let judged {
                judgedTask.set((task.taskIdentifier, session.trust.challenges))
                session.trust.challenges.register(task.taskIdentifier, judged)
            }
            task.resume()
            return task
        }
        guard let task else {
            TransportReports.queue.async { completion(.failure(.cancelled)) }
            return SessionTask(task: nil)
        }
        return SessionTask(task: task)
    }

    /// The trust decision of an `https` request (nil for plain `http`): its host, anchors and pins, relaxed only
    /// where validation can be relaxed.
    static func evaluation(of request: TransportRequest) -> TrustEvaluation? {
        guard request.url.scheme?.lowercased() == "https" else { return nil }
        return TrustEvaluation(
            host: request.url.host ?? "",
            trust: request.trust,
            relaxed: request.relaxedCertificateValidation && SessionTrust.judgesServerTrust
        )
    }

    func invalidate() {
        self.state.withLock { state in
            guard !state.invalidated else { return }
            state.invalidated = true
            for session in state.sessions.values { session.session.invalidateAndCancel() }
        }
    }

    /// Sorts URLSession errors into the classes of docs/BEHAVIOR.md §2.8. TLS-class: the handshake failed (-1200) or
    /// the server's or the client's certificate was refused (-1201 … -1206), see `tlsCodes`. FoundationNetworking
    /// reports libcurl's TLS failures as `NSURLErrorUnknown` with the TLS library's text ("OpenSSL/3.0: … wrong
    /// version number", "SSL certificate problem: self-signed certificate"); those become -1200 and -1202, the
    /// codes Apple platforms give for the same failures, keeping that text as the description.
    static func classify(_ error: Error) -> TransportFailure {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return .other(domain: nsError.domain, code: nsError.code, description: nsError.localizedDescription)
        }
        let description = nsError.localizedDescription
        switch nsError.code {
        case NSURLErrorCancelled:
            return .cancelled
        case NSURLErrorTimedOut:
            return .timedOut
        case NSURLErrorCannotFindHost, NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost,
            NSURLErrorDNSLookupFailed, NSURLErrorNotConnectedToInternet, NSURLErrorInternationalRoamingOff,
            NSURLErrorDataNotAllowed, NSURLErrorCallIsActive:
            return .network(code: nsError.code, description: description)
        case let code where Self.tlsCodes.contains(code):
            return .tls(code: code, description: description)
        case NSURLErrorUnknown:
            if let code = Self.tlsCode(describedBy: description) {
                return .tls(code: code, description: description)
            }
            return .other(domain: nsError.domain, code: nsError.code, description: description)
        default:
            return .other(domain: nsError.domain, code: nsError.code, description: description)
        }
    }

    /// The TLS codes of URL loading: -1200 (handshake failed) … -1206, as Apple platforms and `URLError.Code`
    /// number them. FoundationNetworking's `NSURLError…` constants for these are shifted by one
    /// (`NSURLErrorSecureConnectionFailed` is -1201 there, `NSURLErrorClientCertificateRequired` -1207), so both
    /// spellings count; everything this file reports uses the `URLError.Code` numbers.
    static let tlsCodes: Set<Int> = Set(
        [
            URLError.Code.secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired,
        ].map(\.rawValue) + [
            NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
            NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
            NSURLErrorClientCertificateRequired,
        ]
    )

    /// The TLS error code that libcurl's error text names, nil when the text is not about TLS. libcurl names the
    /// TLS backend ("OpenSSL/…", "GnuTLS", "wolfSSL", "schannel") or "SSL" in those messages; certificate failures
    /// say "certificate".
    static func tlsCode(describedBy text: String) -> Int? {
        let markers = ["SSL", "TLS", "GnuTLS", "schannel"]
        guard markers.contains(where: { text.contains($0) }) else { return nil }
        if text.range(of: "certificate", options: .caseInsensitive) != nil {
            return URLError.Code.serverCertificateUntrusted.rawValue
        }
        return URLError.Code.secureConnectionFailed.rawValue
    }
}

/// Wraps a data task so it can be cancelled from the client queue.
// @unchecked: the only member is a URLSessionTask, whose `cancel()` is documented thread-safe.
private final class SessionTask: TransportTask, @unchecked Sendable {
    private let task: URLSessionTask?

    init(task: URLSessionTask?) {
        self.task = task
    }

    func cancel() {
        self.task?.cancel()
    }
}
