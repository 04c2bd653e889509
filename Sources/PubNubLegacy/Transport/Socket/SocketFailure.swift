import Foundation
import PlatformSupport

/// The failures `SocketTransport` reports, with the NSURLError codes and texts `URLSessionTransport` reports for the
/// same situation, so the engine's error mapping (`PNError.fromTransport`) sees no difference between the two.
enum SocketFailure {
    /// Name resolution of `host` failed; `reason` is the resolver's text (`gai_strerror`).
    static func cannotFindHost(_ host: String, reason: String) -> TransportFailure {
        .network(
            code: URLLoading.Code.cannotFindHost,
            description: "The name \(host) could not be resolved (DNS: \(reason))."
        )
    }

    /// Connecting to `host`:`port` failed with `errno` `code` (the last address tried, when there were several):
    /// refused — nothing listens there —, unreachable, or another system error, each said as such.
    static func cannotConnect(_ host: String, port: UInt16, errno code: Int32) -> TransportFailure {
        let place = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]:\(port)" : "\(host):\(port)"
        let what: String
        switch code {
        case ECONNREFUSED:
            what = "\(place) refused the connection (nothing accepts connections on that port)"
        case ENETUNREACH, EHOSTUNREACH:
            what = "\(place) cannot be reached (\(POSIXSocket.describe(code)))"
        default:
            what = "Could not connect to \(place) (\(POSIXSocket.describe(code)))"
        }
        return .network(code: URLLoading.Code.cannotConnectToHost, description: what + ".")
    }

    /// Reset, broken pipe, or end of stream before the response was complete.
    static let connectionLost = TransportFailure.network(
        code: URLLoading.Code.networkConnectionLost,
        description: "The network connection was lost."
    )
    /// Bytes that are not an HTTP/1.x response.
    static let badServerResponse = TransportFailure.other(
        domain: URLLoading.errorDomain,
        code: URLLoading.Code.badServerResponse,
        description: "The server returned a bad response."
    )
    /// Not an `http://` URL with a host.
    static let unsupportedURL = TransportFailure.other(
        domain: URLLoading.errorDomain,
        code: URLLoading.Code.unsupportedURL,
        description: "unsupported URL"
    )

    // MARK: - TLS (`TLSStream`, `TLSContext`; refused certificates and pins: `TrustEvaluation`)

    /// The handshake with `host` failed: -1200, as Apple platforms report it.
    static func tlsHandshakeFailed(host: String, _ reason: String) -> TransportFailure {
        .tls(
            code: URLLoading.Code.secureConnectionFailed,
            description: "The TLS handshake with \(host) failed: \(reason)."
        )
    }

    /// TLS could not be set up for a connection (context, trust store, session): -1200 as well.
    static func tlsSetupFailed(_ reason: String) -> TransportFailure {
        .tls(code: URLLoading.Code.secureConnectionFailed, description: "TLS cannot be set up: \(reason).")
    }

    /// An `https` request where OpenSSL cannot be loaded (Linux without libssl): -1200, naming why. There is no other
    /// TLS to fall back on there (README "Platforms").
    static func openSSLUnavailable(_ failure: OpenSSL.LoadFailure) -> TransportFailure {
        self.tlsSetupFailed(
            "OpenSSL, which carries https on this platform, cannot be loaded (\(failure.reason)); install OpenSSL 3 or "
                + "1.1 (libssl and libcrypto)"
        )
    }

    /// The failure of a response the reader rejected under `limits`.
    static func from(_ error: HTTPResponseReader.Failure, limits: ResponseLimits) -> TransportFailure {
        switch error {
        case .truncated: return self.connectionLost
        case .malformed: return self.badServerResponse
        case .headerTooLarge:
            return .responseTooLarge("its header is larger than \(limits.maximumHeaderBytes) bytes")
        case .tooManyHeaders:
            return .responseTooLarge("it has more than \(limits.maximumHeaderCount) header lines")
        case .trailersTooLarge:
            return .responseTooLarge("its trailers are larger than \(limits.maximumTrailerBytes) bytes")
        case .bodyTooLarge:
            return .responseTooLarge(
                "its body is larger than \(limits.maximumBodyBytes) bytes (PNConfiguration.maximumResponseBodySize)"
            )
        }
    }
}
