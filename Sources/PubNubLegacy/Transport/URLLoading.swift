import Foundation

// What the package decides about URL loading without URLSession, so the Linux tests cover it: the codes of
// `NSURLErrorDomain` that transport failures carry on every platform, how a URLSession error is classified, and which
// session a request goes to. `URLSessionTransport+Security.swift` (Apple platforms) carries the decisions out.

/// The URL-loading error domain and codes, and the URLSession decisions that need no URLSession.
///
/// The codes are Apple's fixed values (`NSURLError.h`, `URLError.Code`), declared here rather than taken from
/// Foundation: on Linux they live in FoundationNetworking, which the package does not link (its libcurl, GnuTLS and
/// Kerberos cost every process about 8 MB resident, BENCHMARKS.md), and its TLS constants are numbered one below
/// Apple's there (`NSURLErrorSecureConnectionFailed` is -1201). Every failure reports the same domain and code on
/// every platform, as before.
enum URLLoading {
    /// `NSURLErrorDomain`.
    static let errorDomain = "NSURLErrorDomain"

    /// The codes of `NSURLErrorDomain` the package reports or classifies.
    enum Code {
        static let unknown = -1
        static let cancelled = -999
        static let timedOut = -1001
        static let unsupportedURL = -1002
        static let cannotFindHost = -1003
        static let cannotConnectToHost = -1004
        static let networkConnectionLost = -1005
        static let dnsLookupFailed = -1006
        static let notConnectedToInternet = -1009
        static let badServerResponse = -1011
        static let internationalRoamingOff = -1018
        static let callIsActive = -1019
        static let dataNotAllowed = -1020
        static let dataLengthExceedsMaximum = -1103
        /// The TLS handshake failed.
        static let secureConnectionFailed = -1200
        static let serverCertificateHasBadDate = -1201
        static let serverCertificateUntrusted = -1202
        static let serverCertificateHasUnknownRoot = -1203
        static let serverCertificateNotYetValid = -1204
        static let clientCertificateRejected = -1205
        static let clientCertificateRequired = -1206
    }

    /// The TLS codes of URL loading: the handshake failed (-1200) or the server's or the client's certificate was
    /// refused (-1201 … -1206).
    static let tlsCodes: Set<Int> = Set(Code.clientCertificateRequired...Code.secureConnectionFailed)

    /// Sorts URLSession errors into the classes of docs/BEHAVIOR.md §2.8: cancelled, timed out, network-class (the
    /// host cannot be found or reached, the connection was lost, no network), TLS-class (`tlsCodes`), and every
    /// other error with its own domain, code and description.
    static func classify(_ error: any Error) -> TransportFailure {
        let nsError = error as NSError
        let description = nsError.localizedDescription
        guard nsError.domain == Self.errorDomain else {
            return .other(domain: nsError.domain, code: nsError.code, description: description)
        }
        switch nsError.code {
        case Code.cancelled:
            return .cancelled
        case Code.timedOut:
            return .timedOut
        case Code.cannotFindHost, Code.cannotConnectToHost, Code.networkConnectionLost, Code.dnsLookupFailed,
            Code.notConnectedToInternet, Code.internationalRoamingOff, Code.dataNotAllowed, Code.callIsActive:
            return .network(code: nsError.code, description: description)
        case let code where Self.tlsCodes.contains(code):
            return .tls(code: code, description: description)
        default:
            return .other(domain: nsError.domain, code: nsError.code, description: description)
        }
    }

    // MARK: - Sessions

    /// The trust a URLSession's connections were accepted under: requests with different trust — anchors, pins,
    /// relaxed validation — get sessions of their own, so a connection accepted under one trust is never reused
    /// under another (URLSession judges a server once per connection).
    struct SessionKey: Hashable, Sendable {
        var trust: TLSTrust
        var relaxed: Bool

        /// The session of a request with `evaluation` (nil: plain `http`, which shares the default one).
        init(_ evaluation: TrustEvaluation?) {
            self.trust = evaluation?.trust ?? TLSTrust()
            self.relaxed = evaluation?.relaxed ?? false
        }
    }

    /// The trust decision of an `https` request (nil for plain `http`): its host, anchors and pins, and whether it
    /// is relaxed.
    static func evaluation(of request: TransportRequest) -> TrustEvaluation? {
        guard request.url.scheme?.lowercased() == "https" else { return nil }
        return TrustEvaluation(
            host: request.url.host ?? "",
            trust: request.trust,
            relaxed: request.relaxedCertificateValidation
        )
    }
}
