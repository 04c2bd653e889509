import Foundation
import PlatformSupport

/// The transport a client lane uses. `http://` requests go to the socket transport; so do `https://` requests when
/// it has OpenSSL (Linux, `SocketTransport.supportsTLS`). Otherwise — Apple platforms, or a Linux system without a
/// usable OpenSSL — `https://` goes to a `URLSessionTransport` created on first use, and on Linux that fallback is
/// logged once per process (`TLSFallbackNotice`).
///
/// Completions come from whichever transport carried the request, exactly once and never inside `send`.
final class RoutingTransport: HTTPTransport {
    private struct State {
        var invalidated = false
        var secure: (any HTTPTransport)?
    }

    private let plain: any HTTPTransport
    /// Whether `plain` carries `https` too.
    private let plainCarriesTLS: Bool
    private let makeSecure: @Sendable () -> any HTTPTransport
    private let state = Locked(State())

    /// - Parameters:
    ///   - plain: Carries `http://` requests, and `https://` ones too when `plainCarriesTLS`.
    ///   - plainCarriesTLS: `plain` speaks TLS itself.
    ///   - makeSecure: Creates the transport for every other request, at its first one.
    init(
        plain: any HTTPTransport,
        plainCarriesTLS: Bool = false,
        makeSecure: @escaping @Sendable () -> any HTTPTransport
    ) {
        self.plain = plain
        self.plainCarriesTLS = plainCarriesTLS
        self.makeSecure = makeSecure
    }

    /// A lane of `maximumConnections`: sockets for plain HTTP, and for TLS when OpenSSL is there; URLSession for
    /// TLS otherwise. `reusesConnections`: keep-alive on the socket transport (see `SocketTransport`); URLSession
    /// manages its own connections.
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
        let carriesTLS = sockets.supportsTLS
        self.init(plain: sockets, plainCarriesTLS: carriesTLS) {
            notice.fellBack()
            return URLSessionTransport(maximumConnections: maximumConnections, label: label)
        }
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        let scheme = request.url.scheme?.lowercased()
        if scheme == "http" || (scheme == "https" && self.plainCarriesTLS) {
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

    /// Where `https` goes can relax validation: the sockets with OpenSSL, or URLSession on Apple platforms.
    var canRelaxCertificateValidation: Bool {
        self.plainCarriesTLS
            ? self.plain.canRelaxCertificateValidation : URLSessionTransport.canRelaxCertificateValidation
    }
}

/// Says once per process, in the log, that `https` requests go through URLSession because OpenSSL could not be
/// loaded. On Apple platforms URLSession is the design, not a fallback, so nothing is said there.
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

    /// Why `OpenSSL.shared` did not load, on Linux; nil elsewhere or when it loaded.
    static let loadFailure: @Sendable () -> String? = {
        #if os(Linux)
        if case .failure(let failure) = OpenSSL.shared { return failure.reason }
        #endif
        return nil
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
