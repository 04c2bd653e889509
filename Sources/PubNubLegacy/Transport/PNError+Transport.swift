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
        case .serverMessage(let text, _):
            return PNError.fromServiceText(text)
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
                message: "PubNub origin answered with unexpected HTTP status \(status)",
                code: kPNUnknownError,
                category: .unknown,
                associatedObject: nil
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
    /// request, 102 for a connect attempt); TLS and other failures keep their own domain and code, as 3.4
    /// passed socket errors through.
    static func fromTransport(_ failure: TransportFailure, networkCode: Int, timeoutMessage: String?) -> PNError {
        switch failure {
        case .timedOut:
            return PNError(message: timeoutMessage, code: kPNRequestExecutionFailedByTimeoutError)
        case .cancelled:
            return PNError(code: kPNRequestExecutionFailedClientNotReadyError)
        case .network(let code, let description):
            return PNError(
                domain: nil,
                code: networkCode,
                message: nil,
                failureReason: description,
                category: .networkIssues,
                associatedObject: nil,
                underlyingError: NSError(domain: NSURLErrorDomain, code: code)
            )
        case .tls(let code, let description):
            return PNError(
                domain: NSURLErrorDomain,
                code: code,
                message: description,
                failureReason: nil,
                category: .tlsFailure,
                associatedObject: nil,
                underlyingError: NSError(domain: NSURLErrorDomain, code: code)
            )
        case .other(let domain, let code, let description):
            return PNError(
                domain: domain,
                code: code,
                message: description,
                failureReason: nil,
                category: .unknown,
                associatedObject: nil,
                underlyingError: NSError(domain: domain, code: code)
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
