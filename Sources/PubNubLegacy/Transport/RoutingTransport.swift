import Foundation
import PlatformSupport

/// The transport a client lane uses: the package's sockets or a `URLSessionTransport` created on first use, as
/// `TransportRoute` decides for each request — on Apple platforms URLSession for everything that leaves the machine,
/// on Linux the sockets for plain HTTP and, with OpenSSL, for TLS too. On Linux, `https` through URLSession is the
/// fallback for a system without a usable OpenSSL, logged once per process (`TLSFallbackNotice`).
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
    ///   - platform: What the route depends on (whether remote requests go through URLSession, whether `sockets`
    ///     speak TLS).
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
    /// `SocketTransport`); URLSession manages its own connections.
    convenience init(
        maximumConnections: Int,
        label: String,
        reusesConnections: Bool = true,
        notice: TLSFallbackNotice = .shared
    ) {
        let sockets = SocketTransport(
            maximumConnections: maximumConnections,
            label: label,
            reusesConnections: reusesConnections
        )
        self.init(sockets: sockets, platform: .current(socketsCarryTLS: sockets.supportsTLS)) {
            notice.fellBack()
            return URLSessionTransport(maximumConnections: maximumConnections, label: label)
        }
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        if TransportRoute.decide(for: request.url, on: self.platform) == .sockets {
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

    /// Where the origin's `https` goes can relax validation: the sockets with OpenSSL, or URLSession on Apple
    /// platforms (not libcurl's).
    var canRelaxCertificateValidation: Bool {
        self.platform.socketsCarryTLS && !self.platform.remoteThroughURLSession
            ? self.sockets.canRelaxCertificateValidation : URLSessionTransport.canRelaxCertificateValidation
    }
}

/// Says once per process, in the log, that `https` requests go through URLSession because OpenSSL could not be
/// loaded. On Apple platforms URLSession is the design, not a fallback, so nothing is said there (`loadFailure`).
final class TLSFallbackNotice: Sendable {
    /// The process's notice, used by every client's lanes.
    static let shared = TLSFallbackNotice { reason in
        PNLogger.log(
            .PNLogConnectionLayerErrorLevel,
            nil,
            "OpenSSL is not usable (\(reason)); https requests go through URLSession, which cannot use "
                + "anchorCertificatesFile, pinnedPublicKeyHashes or reduceSecurityLevelOnError on Linux"
        )
    }

    private let told = Locked(false)
    private let reason: @Sendable () -> String?
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - reason: Why OpenSSL is not used; nil when there is nothing to say (not Linux).
    ///   - log: Writes the notice.
    init(
        reason: @escaping @Sendable () -> String? = TLSFallbackNotice.loadFailure,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.reason = reason
        self.log = log
    }

    /// Why `OpenSSL.shared` did not load where it is the package's TLS (Linux); nil where URLSession is the design
    /// (Apple platforms) or when it loaded.
    static let loadFailure: @Sendable () -> String? = {
        guard !SessionTrust.judgesServerTrust, case .failure(let failure) = OpenSSL.shared else { return nil }
        return failure.reason
    }

    /// A lane started using URLSession for `https`: logs the reason the first time in the process.
    func fellBack() {
        guard let reason = self.reason() else { return }
        let first = self.told.withLock { told -> Bool in
            defer { told = true }
            return !told
        }
        if first { self.log(reason) }
    }
}

/// The task of a request that was refused at once; cancelling it does nothing.
private struct CancelledTask: TransportTask {
    func cancel() {}
}
