import Foundation

/// The transport a client lane uses: `http://` requests go to a `SocketTransport`, anything else (`https://`) to a
/// `URLSessionTransport`, created on first use, because TLS on Linux is only available through URLSession.
///
/// Completions come from whichever transport carried the request, exactly once and never inside `send`.
final class RoutingTransport: HTTPTransport {
    private struct State {
        var invalidated = false
        var secure: (any HTTPTransport)?
    }

    private let plain: any HTTPTransport
    private let makeSecure: @Sendable () -> any HTTPTransport
    private let state = Locked(State())

    /// - Parameters:
    ///   - plain: Carries `http://` requests.
    ///   - makeSecure: Creates the transport for every other scheme, at its first request.
    init(plain: any HTTPTransport, makeSecure: @escaping @Sendable () -> any HTTPTransport) {
        self.plain = plain
        self.makeSecure = makeSecure
    }

    /// A lane of `maximumConnections`: sockets for plain HTTP, URLSession for TLS. `reusesConnections`: keep-alive
    /// on the socket transport (see `SocketTransport`); URLSession manages its own connections.
    convenience init(maximumConnections: Int, label: String, reusesConnections: Bool = true) {
        let plain = SocketTransport(
            maximumConnections: maximumConnections,
            label: label,
            reusesConnections: reusesConnections
        )
        self.init(plain: plain) {
            URLSessionTransport(maximumConnections: maximumConnections, label: label)
        }
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        if request.url.scheme?.lowercased() == "http" {
            return self.plain.send(request, completion: completion)
        }
        // Created under the lock so two first requests share one session; creating it calls no user code.
        let secure = self.state.withLock { state -> (any HTTPTransport)? in
            guard !state.invalidated else { return nil }
            if let secure = state.secure { return secure }
            let secure = self.makeSecure()
            state.secure = secure
            return secure
        }
        guard let secure else {
            DispatchQueue.global().async { completion(.failure(.cancelled)) }
            return CancelledTask()
        }
        return secure.send(request, completion: completion)
    }

    func invalidate() {
        let secure = self.state.withLock { state -> (any HTTPTransport)? in
            state.invalidated = true
            return state.secure
        }
        self.plain.invalidate()
        secure?.invalidate()
    }
}

/// The task of a request that was refused at once; cancelling it does nothing.
private struct CancelledTask: TransportTask {
    func cancel() {}
}
