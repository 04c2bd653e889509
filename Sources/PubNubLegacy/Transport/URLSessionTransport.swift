import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over one `URLSession`. The engine makes one per lane (long-poll, service) so a parked
/// long-poll never holds a connection that other requests wait for (BEHAVIOR §1.1).
final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
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
        self.session = URLSession(configuration: configuration, delegate: nil, delegateQueue: delegateQueue)
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            if let error {
                completion(.failure(Self.classify(error)))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(.other(domain: "PubNubLegacy.Transport", code: -1, description: "not HTTP")))
                return
            }
            completion(.success(TransportResponse(status: http.statusCode, body: data ?? Data())))
        }
        let task = self.invalidated.withLock { invalidated -> URLSessionDataTask? in
            guard !invalidated else { return nil }
            let task = self.session.dataTask(with: urlRequest, completionHandler: handler)
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

    /// Sorts URLSession errors into the classes of BEHAVIOR §2.8.
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
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
            NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
            NSURLErrorClientCertificateRequired:
            return .tls(code: nsError.code, description: description)
        default:
            return .other(domain: nsError.domain, code: nsError.code, description: description)
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
