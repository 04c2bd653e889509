/// The 4.x-style classification of a `PNError`, new in this package (docs/DESIGN.md §3, docs/BEHAVIOR.md §7).
///
/// `PNError.code` keeps the 3.4 number that ported code compares with the `kPN…Error` constants; the category
/// says what kind of failure it was, so code written against the 4.x status model can switch on it instead.
public enum PNErrorCategory: Int, Sendable, CaseIterable {
    /// No usable connection: the network is down or the client is not connected (codes 102, 104, 105).
    case networkIssues
    /// A request timer expired (code 106).
    case timeout
    /// The TLS handshake failed and the configuration does not allow a downgrade (code 128 or the TLS error).
    case tlsFailure
    /// The connection or the subscribe loop was lost while the client was connected (code 103).
    case unexpectedDisconnect
    /// The connection came back and the subscription was restored; used for status reports, never for a failure.
    case reconnected
    /// The origin refused the request for missing or wrong authorization (codes 112, 113).
    case accessDenied
    /// The origin's answer could not be decoded or parsed (codes 126, 127), or was larger than the client reads
    /// (`kPNResponseTooLargeError`).
    case malformedResponse
    /// A received message could not be decrypted with the configured cipher key (code 119,
    /// `kPNCryptoInputDataProcessingError`, the code 3.4 used for it).
    case decryptionError
    /// One subscribe response carried at least `requestMessageCountThreshold` messages
    /// (`kPNRequestMessageCountExceededError`).
    case messageCountExceeded
    /// Anything else: configuration and usage errors, service refusals, unrecognised failures.
    case unknown

    /// The category a `PNError` gets when its creator names none: the meaning of the 3.4 code.
    static func defaultCategory(forCode code: Int) -> PNErrorCategory {
        switch code {
        case kPNClientConnectionFailedOnInternetFailureError, kPNRequestExecutionFailedOnInternetFailureError,
            kPNRequestExecutionFailedClientNotReadyError:
            return .networkIssues
        case kPNClientConnectionClosedOnInternetFailureError:
            return .unexpectedDisconnect
        case kPNRequestExecutionFailedByTimeoutError:
            return .timeout
        case kPNAPIUnauthorizedAccessError, kPNAPIAccessForbiddenError:
            return .accessDenied
        case kPNResponseEncodingError, kPNResponseMalformedJSONError, kPNResponseTooLargeError:
            return .malformedResponse
        case kPNConnectionErrorOnSetup:
            // 3.4 raised 128 when a connection could not be configured, and its recovery text is all about TLS
            // certificates; a transport failure of another kind names its category explicitly.
            return .tlsFailure
        case kPNRequestMessageCountExceededError:
            return .messageCountExceeded
        default:
            return .unknown
        }
    }
}
