// Everywhere the Security framework is not (Linux): FoundationNetworking's URLSession (libcurl) never delivers
// server-trust challenges to a delegate and has no setting that skips certificate validation, so a URLSession
// request here is always validated against the system's trust store, and the package cannot judge it. The package's
// own TLS (OpenSSL, `TLSStream`) carries `https` on Linux; URLSession only when OpenSSL is missing. The counterpart
// of `TrustEvaluation+Security.swift`.

#if !canImport(Security)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession side of server trust where the package cannot judge it: no delegate, nothing registered.
final class SessionTrust: Sendable {
    /// Relaxed validation, own anchors and pins cannot be carried out through this URLSession.
    static let judgesServerTrust = false

    let challenges = TrustChallenges()

    /// What the session is created with: no delegate.
    var sessionDelegate: (any URLSessionDelegate)? { nil }

    /// Nothing to set: libcurl negotiates TLS itself.
    static func configure(_ configuration: URLSessionConfiguration) {}
}
#endif
