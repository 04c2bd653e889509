import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct PNErrorTests {
    @Test func explicitMessageReplacesOnlyTheDescription() {
        let error = PNError(message: "Subscription failed by timeout", code: kPNRequestExecutionFailedByTimeoutError)
        #expect(error.localizedDescription == "Subscription failed by timeout")
        #expect(error.localizedFailureReason.hasPrefix("Looks like there is some packets lost"))
        #expect(error.category == .timeout)
        #expect(
            PNError.errorWithMessage(nil, code: 101).localizedDescription == "PubNub client already connected to origin"
        )
        #expect(PNError.errorWithMessage("x", code: 101).localizedDescription == "x")
    }

    @Test func explicitCategoryAndAssociatedObjectAreKept() {
        let channels = [PNChannel(name: "a")]
        let error = PNError(
            code: kPNCryptoInputDataProcessingError,
            category: .decryptionError,
            associatedObject: channels
        )
        #expect(error.category == .decryptionError)
        #expect((error.associatedObject as? [PNChannel]) == channels)
        let withMessage = PNError(message: "m", code: 104, category: .unexpectedDisconnect, associatedObject: nil)
        #expect(withMessage.localizedDescription == "m")
        #expect(withMessage.category == .unexpectedDisconnect)
        #expect(withMessage.associatedObject == nil)
    }

    @Test func associatedObjectIsSetOnlyOnce() {
        let error = PNError(code: kPNAPIAccessForbiddenError)
        error.setAssociatedObject(nil)
        error.setAssociatedObject("first")
        error.setAssociatedObject("second")
        #expect(error.associatedObject as? String == "first")
    }

    // 402 too: 3.5.3 gave it its new kPNAPINotAvailableOrNotEnabledError, which PubNub's 3.5.x PNErrorTest.m asserts
    // (MIGRATION.md §10).
    @Test(arguments: [(403, 113), (401, 112), (402, 112), (400, 112), (500, 112), (0, 112)])
    func httpStatusMapsToAuthorizationCodes(_ status: UInt, _ code: Int) {
        let error = PNError.errorWithHTTPStatusCode(status)
        #expect(error.code == code)
        #expect(error.category == .accessDenied)
    }

    @Test(arguments: [
        ("Presence Subscribe Key Invalid", 107),
        ("Invalid JSON", 108),
        ("Invalid Character in Channel Name", 111),
        ("Invalid Character", -1),
        ("Invalid Key", 109),
        ("Invalid Subscribe Key", 109),
        ("Message Too Large", 110),
        ("Message Rejected", -1),
        ("Push notifications not enabled", 124),
        ("Push Failure", -1),
        ("invalid key", -1),
        ("Forbidden", -1),
    ])
    func serverMessagesAreClassifiedByThreeFourRules(_ message: String, _ code: Int) {
        let error = PNError.errorWithResponseErrorMessage(message)
        #expect(error.code == code)
        if code == kPNUnknownError {
            #expect(error.localizedDescription == message)
        } else {
            #expect(error.localizedDescription == PNError(code: code).localizedDescription)
        }
    }

    @Test func descriptionUsesTheThreeFourFormat() {
        let error = PNError(code: kPNMessageHasNoChannelError)
        #expect(
            error.description
                == "Domain=com.pubnub.pubnub; Code=123; Description=\"PubNub client can't submit message\"; "
                + "Reason=\"Looks like target channel for message not specified\"; "
                + "Fix suggestion=\"Ensure that you specified valid channel as message target\"; Associated object=(null)"
        )
        error.setAssociatedObject("m")
        #expect(error.description.hasSuffix("Associated object=m"))
    }

    @Test func wrappedTransportErrorsKeepTheirDomainAndCodeAndUseGenericTexts() {
        let underlying = URLError(.timedOut)
        let error = PNError(
            domain: NSURLErrorDomain,
            code: 104,
            message: nil,
            failureReason: nil,
            category: nil,
            associatedObject: nil,
            underlyingError: underlying
        )
        #expect(error.domain == NSURLErrorDomain)
        #expect(error.code == 104)
        // 104 here is not the PubNub 104: neither its texts nor its category apply.
        #expect(error.localizedDescription == "Unknown error.")
        #expect(error.localizedFailureReason == "Unknown error reason.")
        #expect(error.category == .unknown)
        #expect(error.underlyingError is URLError)
    }

    @Test func bridgesToNSErrorWithCodeAndTexts() {
        let error: any Error = PNError(code: kPNAPIAccessForbiddenError)
        let bridged = error as NSError
        #expect(bridged.code == 113)
        #expect(bridged.domain == kPNDefaultErrorDomain)
        #expect(bridged.localizedDescription == "PubNub API access denied")
        #expect(error.localizedDescription == "PubNub API access denied")
        #expect(bridged.localizedFailureReason == "Looks like specified wrong 'auth' key or you don't have permissions")
    }

    @Test func canBeThrownAndCaught() throws {
        func fail() throws { throw PNError(code: kPNTooLongMessageError) }
        let caught = #expect(throws: PNError.self) { try fail() }
        #expect(caught?.code == kPNTooLongMessageError)
    }
}
