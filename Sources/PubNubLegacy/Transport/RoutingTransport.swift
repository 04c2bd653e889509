import Foundation
import PlatformSupport

/// The transport a client lane uses: the package's sockets or a `URLSessionTransport` created on first use, as
/// `TransportRoute` decides for each request — on Apple platforms URLSession for everything that leaves the machine,
/// on Linux the sockets for everything (`https` with OpenSSL, loaded at the first `https` request; without a usable
/// OpenSSL an `https` request fails with a TLS error that says why).
///
/// Completions come from whichever transport carried the request, exactly once and never inside `send`.
final class RoutingTransport: HTTPTransport {
    private struct State {
        var invalidated = false
        var session: (any HTTPTransport)?
    }

    private let sockets: any HTTPTransport
    private let platform: TransportRoute.Platform
    private let makeSession: @Sendable () -> any HTTPTransport
    private let state = Locked(State())

    /// - Parameters:
    ///   - sockets: Carries what `TransportRoute` gives the sockets.
    ///   - platform: What the route depends on (whether URLSession carries the requests that leave the machine).
    ///   - makeSession: Creates the URLSession transport, at the first request routed to it.
    init(
        sockets: any HTTPTransport,
        platform: TransportRoute.Platform,
        makeSession: @escaping @Sendable () -> any HTTPTransport
    ) {
        self.sockets = sockets
        self.platform = platform
        self.makeSession = makeSession
    }

    /// A lane of `maximumConnections` on this platform. `reusesConnections`: keep-alive on the socket transport (see
    /// `SocketTransport`); URLSession manages its own connections. `openSSL`: the sockets' TLS library, asked for at
    /// the first `https` request they carry (tests count the asks).
    convenience init(
        maximumConnections: Int,
        label: String,
        reusesConnections: Bool = true,
        openSSL: @escaping TLSContextCache.Library = { OpenSSL.shared }
    ) {
        let sockets = SocketTransport(
            maximumConnections: maximumConnections,
            label: label,
            reusesConnections: reusesConnections,
            openSSL: openSSL
        )
        self.init(
            sockets: sockets,
            platform: .current,
            makeSession: Self.sessionTransport(maximumConnections: maximumConnections, label: label)
        )
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        if TransportRoute.decide(for: request, on: self.platform) == .sockets {
            return self.sockets.send(request, completion: completion)
        }
        // Created under the lock so two first requests share one session; creating it calls no user code.
        let session = self.state.withLock { state -> (any HTTPTransport)? in
            guard !state.invalidated else { return nil }
            if let session = state.session { return session }
            let session = self.makeSession()
            state.session = session
            return session
        }
        guard let session else {
            TransportReports.queue.async { completion(.failure(.cancelled)) }
            return CancelledTask()
        }
        return session.send(request, completion: completion)
    }

    func invalidate() {
        let session = self.state.withLock { state -> (any HTTPTransport)? in
            state.invalidated = true
            return state.session
        }
        self.sockets.invalidate()
        session?.invalidate()
    }

    /// Where the origin's `https` goes can relax validation: URLSession where the package judges server trust
    /// (Apple platforms), else the sockets when OpenSSL loads (asking loads it; the TLS ladder asks only after a TLS
    /// failure it may relax).
    var canRelaxCertificateValidation: Bool {
        self.platform.remoteThroughURLSession
            ? SessionTrust.judgesServerTrust : self.sockets.canRelaxCertificateValidation
    }

    /// The sockets chain requests; URLSession, which carries what leaves the machine on Apple platforms, does not,
    /// so there no request is chained.
    var chainsRequests: Bool {
        !self.platform.remoteThroughURLSession && self.sockets.chainsRequests
    }
}

/// The task of a request that was refused at once; cancelling it does nothing.
private struct CancelledTask: TransportTask {
    func cancel() {}
}
