import Testing

@testable import PubNubLegacy

/// `localizedFailureReason` and `localizedRecoverySuggestion` per code, transcribed from 3.4.2's `PNError.m`
/// (docs/API-3.4.md §2.5 points there for the exact text), and 3.4's explicit timeout messages (docs/API-3.4.md §2.14).
@Suite struct PNErrorTextsTests {
    static let noSolution = "There is no known solutions."

    struct Row: Sendable, CustomTestStringConvertible {
        let code: Int
        let reason: String
        let fix: String
        var testDescription: String { "code \(self.code)" }
    }

    static let table: [Row] = [
        Row(
            code: 100,
            reason: "One of required configuration field is empty:\n- publish key\n- subscribe key\n- secret key",
            fix: "Ensure that you specified all required keys while creating PNConfiguration instance or all values "
                + "specified in PNDefaultConfiguration.h. You can always visit https://admin.pubnub.comto get all "
                + "required keys for PubNub client"
        ),
        Row(
            code: 101,
            reason: "Looks like client tried to connecte to remote PubNub service while already has connection",
            fix: "If it is required to reconnect PubNub client, close connection first and then try connect again"
        ),
        Row(
            code: 102,
            reason: "Looks like client lost connection while trying to connect to remote PubNub service",
            fix: "Ensure that all network configuration (including proxy if there is) is correct and try again"
        ),
        Row(code: 103, reason: "Looks like client lost connection", fix: noSolution),
        Row(
            code: 104,
            reason: "Looks like client lost connection",
            fix: "Ensure that all network configuration (including proxy if there is) is correct and try again"
        ),
        Row(
            code: 105,
            reason: "Looks like client is not connected to PubNub service",
            fix: "Ensure that PubNub client connected to the PubNub service and try again."
        ),
        Row(
            code: 106,
            reason: "Looks like there is some packets lost because of which request failed by timeout",
            fix: "Try send request again later."
        ),
        Row(
            code: 107,
            reason: "Looks like presence API access not enabled",
            fix: "Please visit https://admin.pubnub.com and enable presence API feature and try again."
        ),
        Row(
            code: 108,
            reason: "Looks like one of requests tried to send malformed JSON or message hase been changed after "
                + "signature was generated",
            fix: "Review all JSON request which is sent for processing to the PubNub services. Ensure that you don't "
                + "try to change message while request is prepared."
        ),
        Row(
            code: 109,
            reason: "Looks like one of subscribe or publish key is wrong",
            fix: "Review request and ensure that correct publish or(and) subscribe key was specified in it"
        ),
        Row(
            code: 110,
            reason: "Looks like message is too large and can't be processed",
            fix: "Please visit https://admin.pubnub.com and change maximum message size."
        ),
        Row(
            code: 111,
            reason: "Looks like one of reqests used restricted characters in channel name",
            fix: "Ensure that you don't use in channel name next characters: ','"
        ),
        Row(
            code: 112,
            reason: "Looks like API required 'auth' key",
            fix: "Specify 'authorizationKey' for configuration instance used to setup PubNub client"
        ),
        Row(
            code: 113,
            reason: "Looks like specified wrong 'auth' key or you don't have permissions",
            fix: "Ensure that you specified correct 'authorizationKey'. If key is correct, than access denied with ULS."
        ),
        Row(
            code: 114,
            reason:
                "Looks like there is no cipher key in configuration instance which was used for client configuration",
            fix: "Please check client configuration instance and ensure that key is specified or don't try to "
                + "initialize helper if there is no key supplied."
        ),
        Row(
            code: 115,
            reason: "Looks like some illegal parameter values has been used during cryptor initialization",
            fix: "Ensure that correct parameters has been passed to cryptor creation functions."
        ),
        Row(
            code: 116,
            reason: "Looks like output buffer with insufficient type has been specified",
            fix: "Ensure that buffer with correct amount of space has been specified and provided for cryptor"
        ),
        Row(
            code: 117,
            reason: "Looks like there is not enough memory for Crypto helper operation completion",
            fix: "Looks like cryptor is run out of memory during his last operation. Try to separate input data in "
                + "chunks and process them one by one if possible."
        ),
        Row(
            code: 118,
            reason: "Looks like input data not aligned properly",
            fix: "Ensure that input data is alligned according to PKCS5/7 padding."
        ),
        Row(
            code: 119,
            reason: "Crypto helper failed to process input data because of unknown error",
            fix: "Cryptor stumbled on unknown error during input data processing."
        ),
        Row(
            code: 120,
            reason: "Looks like someone tried to use feature which is not available for specified algorythm",
            fix: "Looks like you tried to perform some operation which is not supported by cryptor with specified "
                + "algorythm."
        ),
        Row(
            code: 121,
            reason: "Looks like there is no message object has been passed",
            fix: "Ensure that you provide correct message object to be used for sending request"
        ),
        Row(
            code: 122,
            reason: "Looks like message has empty body or doesnt have it at all",
            fix: "Ensure that you are not sending empty message (maybe there only spaces in it)."
        ),
        Row(
            code: 123,
            reason: "Looks like target channel for message not specified",
            fix: "Ensure that you specified valid channel as message target"
        ),
        Row(
            code: 124,
            reason: "Looks like push notifications wasn't enabled for current subscribe key on PubNub admin console",
            fix: "Please visit https://admin.pubnub.com and enable push notifications feature."
        ),
        Row(
            code: 125,
            reason: "Looks like device push notification is nil",
            fix: "Ensure that you provided correct non nil device push token"
        ),
        Row(
            code: 126,
            reason: "Looks like remote service send message with encoding which is other than UTF8",
            fix: "Ensure that you use UTF8 character table to send messages to the PubNub service"
        ),
        Row(
            code: 127,
            reason: "Looks like remote service send response with malformed JSON in it (maybe truncated)",
            fix: "Try resend request which caused this error"
        ),
        Row(
            code: 128,
            reason: "Connection can't be opened becuase of errors in configuration",
            fix: "Check whether client was configured to use secure connection and whether remote origin has valid "
                + "certificate.\nIf remote origin doesn't provide correct SSL certificate, you can set "
                + "kPNShouldReduceSecurityLevelOnError to YES in PNDefaultConfiguration.h or provide YES when "
                + "initializing PNConfiguration instance."
        ),
    ]

    @Test(arguments: table)
    func reasonAndFixAreThreeFourTexts(_ row: Row) {
        let error = PNError(code: row.code)
        #expect(error.localizedFailureReason == row.reason)
        #expect(error.localizedRecoverySuggestion == row.fix)
    }

    @Test(arguments: [-1, 0, 99, 129, 4003])
    func codesWithoutAnEntryUseTheGenericTexts(_ code: Int) {
        let error = PNError(code: code)
        #expect(error.localizedDescription == "Unknown error.")
        #expect(error.localizedFailureReason == "Unknown error reason.")
        #expect(error.localizedRecoverySuggestion == Self.noSolution)
    }

    @Test func timeoutMessagesAreThreeFourTexts() {
        let expected: [PNError.TimedOutOperation: String] = [
            .subscription: "Subscription failed by timeout",
            .unsubscription: "Unsubscription failed by timeout",
            .messageSending: "Message sending failed by timeout",
            .timeToken: "Time token request failed by timeout",
            .history: "Channel history request failed by timeout",
            .hereNow: "\"Here now\" request failed by timeout",
            .pushEnabling: "Push notification 'enabling' failed by timeout",
            .pushDisabling: "Push notification 'disabling' failed by timeout",
            .pushRemoval: "Push notification removal from all channels failed by timeout",
            .pushEnabledChannels: "Push notification enabled channels retrieval failed by timeout",
        ]
        #expect(expected.count == PNError.TimedOutOperation.allCases.count)
        for operation in PNError.TimedOutOperation.allCases {
            let error = PNError.timeout(operation, associatedObject: "x")
            #expect(error.localizedDescription == expected[operation])
            #expect(error.code == kPNRequestExecutionFailedByTimeoutError)
            #expect(error.category == .timeout)
            #expect(error.associatedObject as? String == "x")
        }
    }
}
