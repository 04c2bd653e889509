// Apple platforms only: URLSession carries every request that leaves the machine (`TransportRoute`), with the
// package's trust decisions carried out by `SessionTrust` (`TrustEvaluation+Security.swift`). What can be decided
// without URLSession — error classes, sessions per trust — is decided in `URLLoading` and tested on Linux;
// `Scripts/check-apple-branches.py` type-checks this file on Linux against the stand-ins of `Tests/AppleStandIns`.
// Linux has no URLSession route (`URLSessionTransport+NoSecurity.swift`): the package's sockets carry everything.

#if canImport(Security)
import Foundation
import PlatformSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over URLSession. The engine makes one per lane (long-poll, service) so a parked long-poll never
/// holds a connection that other requests wait for (docs/BEHAVIOR.md §1.1). Requests with different trust — anchors,
/// pins, relaxed validation — get sessions of their own (`URLLoading.SessionKey`).
final class URLSessionTransport: HTTPTransport {
    /// Whether a request marked `relaxedCertificateValidation` accepts the certificate its server presents, and
    /// whether anchors and pins can be enforced: yes, the package judges server trust here through the server-trust
    /// challenge (`SessionTrust`).
    static var canRelaxCertificateValidation: Bool { SessionTrust.judgesServerTrust }

    private struct Session {
        let session: URLSession
        /// The session's delegate where the package judges server trust, and the tasks it judges.
        let trust: SessionTrust
    }

    private struct State {
        var invalidated = false
        var sessions: [URLLoading.SessionKey: Session] = [:]
    }

    private let maximumConnections: Int
    private let label: String
    /// `invalidated` is set once by `invalidate()`. Session and task creation and invalidation are serialized by
    /// this lock, so no task is created on an invalidated session.
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
        let evaluation = URLLoading.evaluation(of: request)
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
                completion(.failure(refusal ?? URLLoading.classify(error)))
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
        let key = URLLoading.SessionKey(evaluation)
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

    func invalidate() {
        self.state.withLock { state in
            guard !state.invalidated else { return }
            state.invalidated = true
            for session in state.sessions.values { session.session.invalidateAndCancel() }
        }
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

extension RoutingTransport {
    /// Makes the URLSession transport of a lane, at the first request `TransportRoute` gives it.
    static func sessionTransport(maximumConnections: Int, label: String) -> @Sendable () -> any HTTPTransport {
        { URLSessionTransport(maximumConnections: maximumConnections, label: label) }
    }
}
#endif
