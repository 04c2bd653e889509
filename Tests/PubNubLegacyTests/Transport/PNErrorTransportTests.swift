import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct PNErrorTransportTests {
    @Test(
        arguments: [
            (
                ResponseFailure.accessDenied(status: 403, message: "Forbidden", channels: ["a"]), 113,
                PNErrorCategory.accessDenied
            ),
            (.accessDenied(status: 401, message: nil, channels: []), 112, .accessDenied),
            (.serverMessage("Invalid Subscribe Key", status: 400), 109, .unknown),
            (.serverMessage("Message Too Large", status: 400), 110, .unknown),
            (.serverMessage("Presence not enabled", status: 200), 107, .unknown),
            (.serverMessage("Something else", status: 400), -1, .unknown),
            (.notUTF8, 126, .malformedResponse),
            (.malformedJSON, 127, .malformedResponse),
            (.unexpectedStatus(502), -1, .unknown),
        ]
    )
    func responseFailuresBecomeTheirCodes(failure: ResponseFailure, code: Int, category: PNErrorCategory) {
        let error = PNError.fromResponse(failure)
        #expect(error.code == code)
        #expect(error.category == category)
    }

    /// The service's own words stay in the description after the 3.4 text of the code it maps to; a text 3.4 does
    /// not recognise is the whole description, as in 3.4, with a failure reason that says so.
    @Test(arguments: [
        ("Invalid Key", "PubNub service can't process request: Invalid Key"),
        ("Invalid Subscribe Key", "PubNub service can't process request: Invalid Subscribe Key"),
        ("Invalid JSON", "PubNub service can't process JSON: Invalid JSON"),
        ("Message Too Large", "PubNub client can't submit message: Message Too Large"),
        ("Invalid device token", "Invalid device token"),
    ])
    func theServicesOwnTextIsInTheDescription(_ text: String, _ description: String) {
        let error = PNError.fromResponse(.serverMessage(text, status: 400))
        #expect(error.localizedDescription == description)
        #expect(error.code == PNError.errorWithResponseErrorMessage(text).code)
        if error.code == kPNUnknownError {
            // 3.4's reason for an unknown text is the generic one; this one says where the description came from.
            #expect(
                error.localizedFailureReason
                    == "The origin refused the request with HTTP 400; the description is its message."
            )
        } else {
            #expect(error.localizedFailureReason == PNError.errorWithResponseErrorMessage(text).localizedFailureReason)
        }
    }

    @Test func unexpectedStatusNamesTheStatus() {
        #expect(PNError.fromResponse(.unexpectedStatus(502)).localizedDescription.contains("502"))
    }

    @Test func accessDeniedPrefersTheOperationsObjectOverThePayloadChannels() {
        let channel = PNChannel.channelWithName("h")
        let denied = ResponseFailure.accessDenied(status: 403, message: nil, channels: ["x"])
        #expect(PNError.fromResponse(denied, associatedObject: channel).associatedObject as? PNChannel == channel)
        let channels = PNError.fromResponse(denied).associatedObject as? [PNChannel]
        #expect(channels?.map(\.name) == ["x"])
    }

    @Test func transportFailuresKeepTheirClass() {
        let network = PNError.fromTransport(
            .network(code: -1004, description: "refused"),
            networkCode: 104,
            timeoutMessage: nil
        )
        #expect(network.code == 104 && network.category == .networkIssues)
        let timeout = PNError.fromTransport(
            .timedOut,
            networkCode: 104,
            timeoutMessage: "Time token request failed by timeout"
        )
        #expect(timeout.code == 106 && timeout.localizedDescription == "Time token request failed by timeout")
        let tls = PNError.fromTransport(
            .tls(code: -1202, description: "untrusted"),
            networkCode: 102,
            timeoutMessage: nil
        )
        #expect(tls.code == -1202 && tls.domain == NSURLErrorDomain && tls.category == .tlsFailure)
        let other = PNError.fromTransport(
            .other(domain: "D", code: 7, description: "x"),
            networkCode: 104,
            timeoutMessage: nil
        )
        #expect(other.code == 7 && other.domain == "D")
    }

    @Test func subscribeTimeoutsCarryTheSubscribeMessage() {
        let error = PNError.fromSubscribe(.timeout, timeoutMessage: "Subscription failed by timeout")
        #expect(error.code == 106 && error.localizedDescription == "Subscription failed by timeout")
        #expect(PNError.fromSubscribe(.connectionLost, timeoutMessage: "").code == 104)
    }

    @Test(arguments: Array(-1206 ... -1200))
    func everyTLSFailureIsATLSErrorDistinctFromTheNetworkCodes(code: Int) {
        for networkCode in [
            kPNClientConnectionFailedOnInternetFailureError, kPNRequestExecutionFailedOnInternetFailureError,
        ] {
            let error = PNError.fromTransport(
                .tls(code: code, description: "handshake failed"),
                networkCode: networkCode,
                timeoutMessage: nil
            )
            #expect(error.category == .tlsFailure)
            #expect(error.domain == NSURLErrorDomain && error.code == code)
            #expect(error.localizedDescription == "handshake failed")
            #expect((error.underlyingError as? NSError)?.code == code)
            let network = PNError.fromTransport(
                .network(code: -1004, description: "refused"),
                networkCode: networkCode,
                timeoutMessage: nil
            )
            #expect(network.category != error.category && network.code != error.code)
        }
    }
}
