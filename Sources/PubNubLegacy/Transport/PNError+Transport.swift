import Foundation

// The one place where transport, HTTP-status and body failures become `PNError`s.

extension PNError {
    /// The error of an answer that is not the operation's success (docs/BEHAVIOR.md §4.4). `associatedObject` is what
    /// the operation concerns (the message, the channel); without one, an access-denied error carries the channels
    /// its payload names.
    static func fromResponse(_ failure: ResponseFailure, associatedObject: Any? = nil) -> PNError {
        let error = Self.fromResponseWithoutObject(failure)
        error.setAssociatedObject(associatedObject)
        if case .accessDenied(_, _, let channels) = failure, !channels.isEmpty {
            error.setAssociatedObject(PNChannel.channelsWithNames(channels))
        }
        return error
    }

    private static func fromResponseWithoutObject(_ failure: ResponseFailure) -> PNError {
        switch failure {
        case .accessDenied(let status, let message, _):
            let code = status == 403 ? kPNAPIAccessForbiddenError : kPNAPIUnauthorizedAccessError
            return PNError(
                message: message.map { "PubNub API access denied: \($0)" },
                code: code,
                category: .accessDenied,
                associatedObject: nil
            )
        case .serverMessage(let text, let status):
            let error = PNError.fromServiceText(text)
            guard error.code == kPNUnknownError else { return error }
            // A message 3.4's classification does not know: its texts were the generic ones.
            return PNError(
                domain: nil,
                code: kPNUnknownError,
                message: text,
                failureReason: "The origin refused the request with HTTP \(status); the description is its message.",
                recoverySuggestion: "The message says what the origin refused: check the keys, the channel names "
                    + "and the request's arguments it names.",
                category: nil,
                associatedObject: nil,
                underlyingError: nil
            )
        case .notUTF8:
            return PNError(code: kPNResponseEncodingError, category: .malformedResponse)
        case .malformedJSON:
            return PNError(code: kPNResponseMalformedJSONError, category: .malformedResponse)
        case .malformedField(let reason):
            return PNError(
                domain: nil,
                code: kPNResponseMalformedJSONError,
                message: nil,
                failureReason: "The answer is JSON, but \(reason).",
                category: .malformedResponse,
                associatedObject: nil,
                underlyingError: nil
            )
        case .unexpectedStatus(let status):
            return PNError(
                domain: nil,
                code: kPNUnknownError,
                message: "PubNub origin answered with unexpected HTTP status \(status)",
                failureReason: "The origin answered HTTP \(status) without a PubNub error message.",
                recoverySuggestion: "Check that the origin setting names a PubNub origin, not another server or a "
                    + "proxy in between, and try the request again.",
                category: .unknown,
                associatedObject: nil,
                underlyingError: nil
            )
        }
    }

    /// The error of a service error text (`Invalid Key`, `Invalid Subscribe Key`, `Invalid JSON`, …): the code 3.4's
    /// `+errorWithResponseErrorMessage:` gives it, and a description that keeps the service's own words after the
    /// 3.4 text of that code (`PubNub service can't process request: Invalid Key`) — 3.4 dropped them, and they are
    /// what tells a porter which key or which argument the service refused. An unrecognised text is the
    /// description itself, as in 3.4.
    static func fromServiceText(_ text: String) -> PNError {
        let classified = PNError.errorWithResponseErrorMessage(text)
        guard classified.code != kPNUnknownError else { return classified }
        return PNError(
            message: "\(PNError.defaultDescription(forCode: classified.code)): \(text)",
            code: classified.code
        )
    }

    /// The error of a request that got no HTTP answer. Network-class failures carry `networkCode` (104 for a
    /// request, 102 for a connect attempt) with the transport's text as failure reason; TLS and other failures keep
    /// their own domain and code, as 3.4 passed socket errors through. Every one but a cancel carries the
    /// transport's failure as `underlyingError` (an `NSError` whose description is the transport's text).
    static func fromTransport(_ failure: TransportFailure, networkCode: Int, timeoutMessage: String?) -> PNError {
        switch failure {
        case .timedOut:
            return PNError(
                domain: nil,
                code: kPNRequestExecutionFailedByTimeoutError,
                message: timeoutMessage,
                failureReason: nil,
                category: nil,
                associatedObject: nil,
                underlyingError: Self.systemError(failure, timeout: nil)
            )
        case .cancelled:
            return PNError(code: kPNRequestExecutionFailedClientNotReadyError)
        case .network(_, let description):
            return PNError(
                domain: nil,
                code: networkCode,
                message: nil,
                failureReason: description,
                category: .networkIssues,
                associatedObject: nil,
                underlyingError: Self.systemError(failure, timeout: nil)
            )
        case .tls(let code, let description):
            let texts = Self.tlsTexts(code: code)
            return PNError(
                domain: URLLoading.errorDomain,
                code: code,
                message: description,
                failureReason: texts.reason,
                recoverySuggestion: texts.suggestion,
                category: .tlsFailure,
                associatedObject: nil,
                underlyingError: Self.systemError(failure, timeout: nil)
            )
        case .other(let domain, let code, let description):
            let badAnswer = domain == URLLoading.errorDomain && code == URLLoading.Code.badServerResponse
            return PNError(
                domain: domain,
                code: code,
                message: description,
                failureReason: badAnswer ? "What came back from the origin is not an HTTP/1.x response." : nil,
                recoverySuggestion: badAnswer
                    ? "Check the origin's address and port, and that useSecureConnection matches what the port "
                        + "speaks (TLS or plain HTTP)." : nil,
                category: .unknown,
                associatedObject: nil,
                underlyingError: Self.systemError(failure, timeout: nil)
            )
        case .responseTooLarge(let why):
            return PNError(
                message: "PubNub client stopped reading a response: \(why)",
                code: kPNResponseTooLargeError,
                category: .malformedResponse,
                associatedObject: nil
            )
        }
    }

    /// The error of a connection that could not be made (102, `kPNClientConnectionFailedOnInternetFailureError`)
    /// or was lost (103) because of `cause`, the last transport failure a connect attempt or a probe met: 3.4's
    /// code and description, the cause as failure reason and as `underlyingError`. A timeout names `origin` and
    /// `timeout` (the attempt's limit). The category follows the code (network issues, unexpected disconnect);
    /// without a cause (none recorded) the 3.4 texts stay.
    static func connection(code: Int, cause: TransportFailure?, origin: String, timeout: TimeInterval) -> PNError {
        let reason: String?
        switch cause {
        case .network(_, let text), .tls(_, let text), .other(_, _, let text):
            reason = text
        case .timedOut:
            reason = "\(origin) did not answer within \(Self.seconds(timeout)) (connection or request timed out)."
        case .responseTooLarge(let why):
            reason = "The origin's answer was too large: \(why)."
        case .cancelled, nil:
            reason = nil
        }
        return PNError(
            domain: nil,
            code: code,
            message: nil,
            failureReason: reason,
            category: nil,
            associatedObject: nil,
            underlyingError: cause.flatMap { Self.systemError($0, timeout: timeout, origin: origin) }
        )
    }

    /// The `underlyingError` of a transport failure: the URL-loading code (or the failure's own domain and code)
    /// and the transport's text as its description; nil for a cancel.
    private static func systemError(
        _ failure: TransportFailure,
        timeout: TimeInterval?,
        origin: String? = nil
    )
        -> NSError?
    {
        let (domain, code, text): (String, Int, String)
        switch failure {
        case .cancelled:
            return nil
        case .timedOut:
            let limit = timeout.map { " within \(Self.seconds($0))" } ?? " within the request's timeout"
            (domain, code, text) = (
                URLLoading.errorDomain, URLLoading.Code.timedOut, "\(origin ?? "The origin") did not answer\(limit)."
            )
        case .network(let value, let description), .tls(let value, let description):
            (domain, code, text) = (URLLoading.errorDomain, value, description)
        case .other(let otherDomain, let value, let description):
            (domain, code, text) = (otherDomain, value, description)
        case .responseTooLarge(let why):
            (domain, code, text) = (
                URLLoading.errorDomain, URLLoading.Code.dataLengthExceedsMaximum, "Response too large: \(why)."
            )
        }
        return NSError(domain: domain, code: code, userInfo: [NSLocalizedDescriptionKey: text])
    }

    /// Why a TLS failure with URL-loading `code` happened in general, and what to do about it (the description says
    /// what exactly was wrong).
    private static func tlsTexts(code: Int) -> (reason: String, suggestion: String) {
        switch code {
        case URLLoading.Code.serverCertificateHasBadDate, URLLoading.Code.serverCertificateNotYetValid:
            return (
                "The origin's certificate is outside its validity period.",
                "Renew the origin's certificate, or correct this machine's clock."
            )
        case URLLoading.Code.serverCertificateUntrusted, URLLoading.Code.serverCertificateHasUnknownRoot:
            return (
                "The origin's certificate, or its public key, is not trusted by this configuration.",
                "Check the origin's host name; trust its CA with anchorCertificatesFile (a PEM file) or update "
                    + "pinnedPublicKeyHashes. Turning validation off (reduceSecurityLevelOnError) is for tests only."
            )
        default:
            return (
                "The TLS connection to the origin could not be set up.",
                "Check that the origin's port speaks TLS (useSecureConnection) and accepts TLS 1.2 or later."
            )
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The error of a failed subscribe request (`timeoutMessage` for 106).
    static func fromSubscribe(_ failure: SubscribeFailure, timeoutMessage: String) -> PNError {
        switch failure {
        case .timeout:
            return PNError(message: timeoutMessage, code: kPNRequestExecutionFailedByTimeoutError)
        case .response(let response):
            return PNError.fromResponse(response)
        case .transport(let transport):
            return PNError.fromTransport(
                transport,
                networkCode: kPNRequestExecutionFailedOnInternetFailureError,
                timeoutMessage: timeoutMessage
            )
        case .connectionLost:
            return PNError(code: kPNRequestExecutionFailedOnInternetFailureError)
        }
    }
}
