import Foundation
import PlatformSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over one `URLSession`. The engine makes one per lane (long-poll, service) so a parked
/// long-poll never holds a connection that other requests wait for (docs/BEHAVIOR.md §1.1).
final class URLSessionTransport: HTTPTransport {
    #if canImport(Security)
    /// Apple platforms: a server-trust challenge lets a request marked `relaxedCertificateValidation` accept the
    /// certificate its server presents.
    static let canRelaxCertificateValidation = true
    #else
    /// FoundationNetworking (libcurl) never delivers server-trust challenges to the delegate and has no
    /// configuration that skips certificate validation on Linux, so a request here is always fully validated.
    static let canRelaxCertificateValidation = false
    #endif

    private let session: URLSession
    #if canImport(Security)
    private let trust: ServerTrustDelegate
    #endif
    /// Set once by `invalidate()`. FoundationNetworking traps when a task is created on an invalidated session,
    /// so task creation and invalidation are serialized by this lock.
    private let invalidated = Locked(false)

    /// - Parameters:
    ///   - maximumConnections: Connections per host; the long-poll lane needs two (the old poll may still be
    ///     closing while its replacement starts).
    ///   - label: Names the lane in the session's delegate queue, for debugging.
    init(maximumConnections: Int, label: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpAdditionalHeaders = [
            "V": "3.4",
            "User-Agent": "PubNubLegacy-Swift/3.4",
            "Accept": "*/*",
        ]
        let delegateQueue = OperationQueue()
        delegateQueue.name = "com.pubnub.legacy.transport.\(label)"
        delegateQueue.maxConcurrentOperationCount = 1
        #if canImport(Security)
        let trust = ServerTrustDelegate()
        self.trust = trust
        self.session = URLSession(configuration: configuration, delegate: trust, delegateQueue: delegateQueue)
        #else
        self.session = URLSession(configuration: configuration, delegate: nil, delegateQueue: delegateQueue)
        #endif
    }

    /// Instance spelling of `canRelaxCertificateValidation` for `HTTPTransport`.
    var canRelaxCertificateValidation: Bool { Self.canRelaxCertificateValidation }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        if request.url.scheme?.lowercased() == "https" && !request.trust.isSystemDefault {
            // Fail closed: a pin or a private trust store this transport ignored would be a silent downgrade.
            let failure = SocketFailure.tlsSetupFailed(
                "anchorCertificatesFile and pinnedPublicKeyHashes need the package's own TLS (OpenSSL on Linux); "
                    + "URLSession cannot enforce them"
            )
            DispatchQueue.global().async { completion(.failure(failure)) }
            return SessionTask(task: nil)
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        // Bounded as on the socket transport: a day at most (a configuration may ask for 1e300 s, which URLSession
        // would turn into an integer of milliseconds).
        urlRequest.timeoutInterval = SocketConnection.seconds(request.timeout)
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        #if canImport(Security)
        let relaxed = request.relaxedCertificateValidation && request.url.scheme == "https"
        let taskID = Locked<Int?>(nil)
        let trust = self.trust
        #endif
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            #if canImport(Security)
            if let id = taskID.current { trust.forget(id) }
            #endif
            if let error {
                completion(.failure(Self.classify(error)))
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
        let task = self.invalidated.withLock { invalidated -> URLSessionDataTask? in
            guard !invalidated else { return nil }
            let task = self.session.dataTask(with: urlRequest, completionHandler: handler)
            #if canImport(Security)
            // Registered before `resume()`, so the challenge of this task's handshake finds it.
            if relaxed {
                taskID.set(task.taskIdentifier)
                self.trust.relax(task.taskIdentifier)
            }
            #endif
            task.resume()
            return task
        }
        guard let task else {
            DispatchQueue.global().async { completion(.failure(.cancelled)) }
            return SessionTask(task: nil)
        }
        return SessionTask(task: task)
    }

    func invalidate() {
        self.invalidated.withLock { invalidated in
            guard !invalidated else { return }
            invalidated = true
            self.session.invalidateAndCancel()
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

#if canImport(Security)
/// Answers the server-trust challenges of one session: a task registered with `relax(_:)` accepts the certificate
/// its server presents (expired, self-signed, unknown root, other host: 3.4's "BarelySecure"); every other task
/// gets the system's default evaluation. Called on the session's delegate queue.
private final class ServerTrustDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    /// Identifiers of this session's running tasks that may skip certificate validation.
    private let relaxed = Locked<Set<Int>>([])

    func relax(_ taskIdentifier: Int) {
        self.relaxed.withLock { _ = $0.insert(taskIdentifier) }
    }

    func forget(_ taskIdentifier: Int) {
        self.relaxed.withLock { _ = $0.remove(taskIdentifier) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let serverTrust = space.serverTrust,
            self.relaxed.withLock({ $0.contains(task.taskIdentifier) })
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        completionHandler(.useCredential, URLCredential(trust: serverTrust))
    }
}
#endif
