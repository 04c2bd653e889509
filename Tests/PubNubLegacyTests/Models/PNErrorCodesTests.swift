import Testing

@testable import PubNubLegacy

/// The 3.4 error codes, transcribed from docs/API-3.4.md §2.5: constant, number, exact description and domain.
@Suite struct PNErrorCodesTests {
    static let defaultDomain = "com.pubnub.pubnub"
    static let serviceDomain = "com.pubnub.remote-service"

    struct Row: Sendable, CustomTestStringConvertible {
        let constant: Int
        let number: Int
        let text: String
        let domain: String
        var testDescription: String { "code \(self.number)" }
    }

    static let table: [Row] = [
        Row(constant: kPNUnknownError, number: -1, text: "Unknown error.", domain: defaultDomain),
        Row(
            constant: kPNClientConfigurationError,
            number: 100,
            text: "Incomplete PubNub client configuration. Make sure you set the configuration correctly.",
            domain: defaultDomain
        ),
        Row(
            constant: kPNClientTriedConnectWhileConnectedError,
            number: 101,
            text: "PubNub client already connected to origin",
            domain: defaultDomain
        ),
        Row(
            constant: kPNClientConnectionFailedOnInternetFailureError,
            number: 102,
            text: "PubNub client connection failed",
            domain: defaultDomain
        ),
        Row(
            constant: kPNClientConnectionClosedOnInternetFailureError,
            number: 103,
            text: "PubNub client connection lost connection",
            domain: defaultDomain
        ),
        Row(
            constant: kPNRequestExecutionFailedOnInternetFailureError,
            number: 104,
            text: "PubNub client can't perform request",
            domain: defaultDomain
        ),
        Row(
            constant: kPNRequestExecutionFailedClientNotReadyError,
            number: 105,
            text: "PubNub client can't perform request",
            domain: defaultDomain
        ),
        Row(
            constant: kPNRequestExecutionFailedByTimeoutError,
            number: 106,
            text: "Unknown error.",
            domain: defaultDomain
        ),
        Row(
            constant: kPNPresenceAPINotAvailableError,
            number: 107,
            text: "PubNub client can't use presence API",
            domain: serviceDomain
        ),
        Row(
            constant: kPNInvalidJSONError,
            number: 108,
            text: "PubNub service can't process JSON",
            domain: serviceDomain
        ),
        Row(
            constant: kPNInvalidSubscribeOrPublishKeyError,
            number: 109,
            text: "PubNub service can't process request",
            domain: defaultDomain
        ),
        Row(
            constant: kPNTooLongMessageError,
            number: 110,
            text: "PubNub client can't submit message",
            domain: defaultDomain
        ),
        Row(
            constant: kPNRestrictedCharacterInChannelNameError,
            number: 111,
            text: "PubNub service process request for channel",
            domain: serviceDomain
        ),
        Row(
            constant: kPNAPIUnauthorizedAccessError,
            number: 112,
            text: "PubNub API access denied",
            domain: defaultDomain
        ),
        Row(constant: kPNAPIAccessForbiddenError, number: 113, text: "PubNub API access denied", domain: defaultDomain),
        Row(
            constant: kPNCryptoEmptyCipherKeyError,
            number: 114,
            text: "Cipher helper initalization error",
            domain: defaultDomain
        ),
        Row(
            constant: kPNCryptoIllegalInitializationParametersError,
            number: 115,
            text: "Cipher helper initalization error",
            domain: defaultDomain
        ),
        Row(
            constant: kPNCryptoInsufficentBufferSizeError,
            number: 116,
            text: "Wrong buffer size",
            domain: defaultDomain
        ),
        Row(constant: kPNCryptoInsufficentMemoryError, number: 117, text: "Insufficient memory", domain: defaultDomain),
        Row(constant: kPNCryptoAligmentInputDataError, number: 118, text: "Input data error", domain: defaultDomain),
        Row(
            constant: kPNCryptoInputDataProcessingError,
            number: 119,
            text: "Input data processing error",
            domain: defaultDomain
        ),
        Row(constant: kPNCryptoUnavailableFeatureError, number: 120, text: "Not implemented", domain: defaultDomain),
        Row(
            constant: kPNMessageObjectError,
            number: 121,
            text: "PubNub client can't submit message",
            domain: defaultDomain
        ),
        Row(
            constant: kPNMessageHasNoContentError,
            number: 122,
            text: "PubNub client can't submit message",
            domain: defaultDomain
        ),
        Row(
            constant: kPNMessageHasNoChannelError,
            number: 123,
            text: "PubNub client can't submit message",
            domain: defaultDomain
        ),
        Row(
            constant: kPNPushNotificationsNotEnabledError,
            number: 124,
            text: "PubNub client can't work with APNS API",
            domain: defaultDomain
        ),
        Row(
            constant: kPNDevicePushTokenIsEmptyError,
            number: 125,
            text: "PubNub client can't enable push notification",
            domain: defaultDomain
        ),
        Row(
            constant: kPNResponseEncodingError,
            number: 126,
            text: "PubNub client can't decode response",
            domain: defaultDomain
        ),
        Row(
            constant: kPNResponseMalformedJSONError,
            number: 127,
            text: "PubNub client can't parse response",
            domain: defaultDomain
        ),
        Row(
            constant: kPNConnectionErrorOnSetup,
            number: 128,
            text: "PubNub client connection can't be opened",
            domain: defaultDomain
        ),
    ]

    @Test func theSpecListsThirtyCodes() {
        #expect(Self.table.count == 30)
        #expect(Set(Self.table.map(\.number)).count == 30)
    }

    @Test(arguments: table)
    func constantHasTheThreeFourNumber(_ row: Row) {
        #expect(row.constant == row.number)
    }

    @Test(arguments: table)
    func errorWithCodeHasTheThreeFourDescriptionAndDomain(_ row: Row) {
        let error = PNError.errorWithCode(row.number)
        #expect(error.code == row.number)
        #expect(error.localizedDescription == row.text)
        #expect(error.domain == row.domain)
    }

    @Test func domainsHaveTheThreeFourValues() {
        #expect(kPNDefaultErrorDomain == Self.defaultDomain)
        #expect(kPNServiceErrorDomain == Self.serviceDomain)
    }

    /// Every code used by 3.4.2 through 3.7.11: -1 and 100…144 (3.7.11's `PNErrorCodes.h` ends at 144).
    static let threeXCodes = Set([-1] + Array(100...144))
    /// 4.x `PNErrorCodes.h`: 100, 3000, 4000…4003.
    static let fourXCodes: Set<Int> = [100, 3000, 4000, 4001, 4002, 4003]

    @Test func addedCodesCollideWithNoThreeXOrFourXCode() {
        let added = [kPNRequestMessageCountExceededError, kPNResponseTooLargeError, kPNRequestQueueFullError]
        for code in added {
            #expect(!Self.threeXCodes.contains(code), "code \(code) is a 3.x code")
            #expect(!Self.fourXCodes.contains(code), "code \(code) is a 4.x code")
        }
        #expect(kPNRequestMessageCountExceededError == 200)
        #expect(PNError(code: kPNRequestMessageCountExceededError).category == .messageCountExceeded)
        #expect(
            PNError(code: kPNRequestMessageCountExceededError).localizedDescription
                == "PubNub client received too many messages in one response"
        )
        #expect(kPNResponseTooLargeError == 201)
        #expect(PNError(code: kPNResponseTooLargeError).category == .malformedResponse)
        #expect(kPNRequestQueueFullError == 202)
        #expect(PNError(code: kPNRequestQueueFullError).category == .unknown)
        #expect(
            PNError(code: kPNRequestQueueFullError).localizedDescription
                == "PubNub client has too many requests waiting"
        )
        #expect(
            PNError(code: kPNResponseTooLargeError).localizedDescription
                == "PubNub client received a response larger than it reads"
        )
    }
}
