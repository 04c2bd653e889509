// The texts 3.4's `PNError.m` returned per code (docs/API-3.4.md §2.5). They are kept word for word, spelling
// slips included ("initalization", "becuase", …), because ported code and logs may match on them.

extension PNError {
    /// The generic texts for codes without an entry (3.4's `default:` branches).
    static let unknownDescription = "Unknown error."
    static let unknownFailureReason = "Unknown error reason."
    static let unknownRecoverySuggestion = "There is no known solutions."

    /// The description used when no explicit message was given. 106 has none in 3.4: timeouts always carry an
    /// explicit message (`PNError.timeoutMessage…`).
    static func defaultDescription(forCode code: Int) -> String {
        switch code {
        case kPNClientConfigurationError:
            return "Incomplete PubNub client configuration. Make sure you set the configuration correctly."
        case kPNClientTriedConnectWhileConnectedError:
            return "PubNub client already connected to origin"
        case kPNClientConnectionFailedOnInternetFailureError:
            return "PubNub client connection failed"
        case kPNClientConnectionClosedOnInternetFailureError:
            return "PubNub client connection lost connection"
        case kPNRequestExecutionFailedOnInternetFailureError, kPNRequestExecutionFailedClientNotReadyError:
            return "PubNub client can't perform request"
        case kPNConnectionErrorOnSetup:
            return "PubNub client connection can't be opened"
        case kPNPresenceAPINotAvailableError:
            return "PubNub client can't use presence API"
        case kPNInvalidJSONError:
            return "PubNub service can't process JSON"
        case kPNInvalidSubscribeOrPublishKeyError:
            return "PubNub service can't process request"
        case kPNRestrictedCharacterInChannelNameError:
            return "PubNub service process request for channel"
        case kPNAPIUnauthorizedAccessError, kPNAPIAccessForbiddenError:
            return "PubNub API access denied"
        case kPNMessageHasNoContentError, kPNMessageHasNoChannelError, kPNTooLongMessageError, kPNMessageObjectError:
            return "PubNub client can't submit message"
        case kPNPushNotificationsNotEnabledError:
            return "PubNub client can't work with APNS API"
        case kPNDevicePushTokenIsEmptyError:
            return "PubNub client can't enable push notification"
        case kPNResponseEncodingError:
            return "PubNub client can't decode response"
        case kPNResponseMalformedJSONError:
            return "PubNub client can't parse response"
        case kPNCryptoEmptyCipherKeyError, kPNCryptoIllegalInitializationParametersError:
            return "Cipher helper initalization error"
        case kPNCryptoInsufficentBufferSizeError:
            return "Wrong buffer size"
        case kPNCryptoInsufficentMemoryError:
            return "Insufficient memory"
        case kPNCryptoAligmentInputDataError:
            return "Input data error"
        case kPNCryptoInputDataProcessingError:
            return "Input data processing error"
        case kPNCryptoUnavailableFeatureError:
            return "Not implemented"
        case kPNRequestMessageCountExceededError:
            return "PubNub client received too many messages in one response"
        case kPNResponseTooLargeError:
            return "PubNub client received a response larger than it reads"
        case kPNRequestQueueFullError:
            return "PubNub client has too many requests waiting"
        default:
            return PNError.unknownDescription
        }
    }

    /// 3.4's `localizedFailureReason` for `code`.
    static func defaultFailureReason(forCode code: Int) -> String {
        switch code {
        case kPNClientConfigurationError:
            return "One of required configuration field is empty:\n- publish key\n- subscribe key\n- secret key"
        case kPNClientTriedConnectWhileConnectedError:
            return "Looks like client tried to connecte to remote PubNub service while already has connection"
        case kPNClientConnectionFailedOnInternetFailureError:
            return "Looks like client lost connection while trying to connect to remote PubNub service"
        case kPNRequestExecutionFailedOnInternetFailureError, kPNClientConnectionClosedOnInternetFailureError:
            return "Looks like client lost connection"
        case kPNRequestExecutionFailedByTimeoutError:
            return "Looks like there is some packets lost because of which request failed by timeout"
        case kPNConnectionErrorOnSetup:
            return "Connection can't be opened becuase of errors in configuration"
        case kPNRequestExecutionFailedClientNotReadyError:
            return "Looks like client is not connected to PubNub service"
        case kPNPresenceAPINotAvailableError:
            return "Looks like presence API access not enabled"
        case kPNInvalidJSONError:
            return "Looks like one of requests tried to send malformed JSON or message hase been changed after "
                + "signature was generated"
        case kPNInvalidSubscribeOrPublishKeyError:
            return "Looks like one of subscribe or publish key is wrong"
        case kPNRestrictedCharacterInChannelNameError:
            return "Looks like one of reqests used restricted characters in channel name"
        case kPNAPIUnauthorizedAccessError:
            return "Looks like API required 'auth' key"
        case kPNAPIAccessForbiddenError:
            return "Looks like specified wrong 'auth' key or you don't have permissions"
        case kPNMessageHasNoContentError:
            return "Looks like message has empty body or doesnt have it at all"
        case kPNMessageHasNoChannelError:
            return "Looks like target channel for message not specified"
        case kPNMessageObjectError:
            return "Looks like there is no message object has been passed"
        case kPNTooLongMessageError:
            return "Looks like message is too large and can't be processed"
        case kPNPushNotificationsNotEnabledError:
            return "Looks like push notifications wasn't enabled for current subscribe key on PubNub admin console"
        case kPNDevicePushTokenIsEmptyError:
            return "Looks like device push notification is nil"
        case kPNResponseEncodingError:
            return "Looks like remote service send message with encoding which is other than UTF8"
        case kPNResponseMalformedJSONError:
            return "Looks like remote service send response with malformed JSON in it (maybe truncated)"
        case kPNCryptoEmptyCipherKeyError:
            return "Looks like there is no cipher key in configuration instance which was used for client "
                + "configuration"
        case kPNCryptoIllegalInitializationParametersError:
            return "Looks like some illegal parameter values has been used during cryptor initialization"
        case kPNCryptoInsufficentBufferSizeError:
            return "Looks like output buffer with insufficient type has been specified"
        case kPNCryptoInsufficentMemoryError:
            return "Looks like there is not enough memory for Crypto helper operation completion"
        case kPNCryptoAligmentInputDataError:
            return "Looks like input data not aligned properly"
        case kPNCryptoInputDataProcessingError:
            return "Crypto helper failed to process input data because of unknown error"
        case kPNCryptoUnavailableFeatureError:
            return "Looks like someone tried to use feature which is not available for specified algorythm"
        case kPNRequestMessageCountExceededError:
            return "Looks like one subscribe response carried at least 'requestMessageCountThreshold' messages, "
                + "so the origin may have dropped older ones"
        case kPNResponseTooLargeError:
            return "Looks like the origin (or a proxy in between) sent a response larger than the client's limits, "
                + "so the client stopped reading it and dropped the connection"
        case kPNRequestQueueFullError:
            return "Looks like calls were made faster than the origin answers them, and the client already holds "
                + "'PubNub.maximumWaitingCalls' of them"
        default:
            return PNError.unknownFailureReason
        }
    }

    /// 3.4's `localizedRecoverySuggestion` for `code`.
    static func defaultRecoverySuggestion(forCode code: Int) -> String {
        switch code {
        case kPNClientConfigurationError:
            return "Ensure that you specified all required keys while creating PNConfiguration instance or all "
                + "values specified in PNDefaultConfiguration.h. You can always visit https://admin.pubnub.comto "
                + "get all required keys for PubNub client"
        case kPNClientTriedConnectWhileConnectedError:
            return "If it is required to reconnect PubNub client, close connection first and then try connect again"
        case kPNClientConnectionFailedOnInternetFailureError, kPNRequestExecutionFailedOnInternetFailureError:
            return "Ensure that all network configuration (including proxy if there is) is correct and try again"
        case kPNConnectionErrorOnSetup:
            return "Check whether client was configured to use secure connection and whether remote origin has "
                + "valid certificate.\nIf remote origin doesn't provide correct SSL certificate, you can set "
                + "kPNShouldReduceSecurityLevelOnError to YES in PNDefaultConfiguration.h or provide YES when "
                + "initializing PNConfiguration instance."
        case kPNRequestExecutionFailedClientNotReadyError:
            return "Ensure that PubNub client connected to the PubNub service and try again."
        case kPNRequestExecutionFailedByTimeoutError:
            return "Try send request again later."
        case kPNPresenceAPINotAvailableError:
            return "Please visit https://admin.pubnub.com and enable presence API feature and try again."
        case kPNInvalidJSONError:
            return "Review all JSON request which is sent for processing to the PubNub services. Ensure that you "
                + "don't try to change message while request is prepared."
        case kPNInvalidSubscribeOrPublishKeyError:
            return "Review request and ensure that correct publish or(and) subscribe key was specified in it"
        case kPNRestrictedCharacterInChannelNameError:
            return "Ensure that you don't use in channel name next characters: ','"
        case kPNAPIUnauthorizedAccessError:
            return "Specify 'authorizationKey' for configuration instance used to setup PubNub client"
        case kPNAPIAccessForbiddenError:
            return "Ensure that you specified correct 'authorizationKey'. If key is correct, than access denied "
                + "with ULS."
        case kPNMessageHasNoContentError:
            return "Ensure that you are not sending empty message (maybe there only spaces in it)."
        case kPNMessageHasNoChannelError:
            return "Ensure that you specified valid channel as message target"
        case kPNTooLongMessageError:
            return "Please visit https://admin.pubnub.com and change maximum message size."
        case kPNPushNotificationsNotEnabledError:
            return "Please visit https://admin.pubnub.com and enable push notifications feature."
        case kPNDevicePushTokenIsEmptyError:
            return "Ensure that you provided correct non nil device push token"
        case kPNMessageObjectError:
            return "Ensure that you provide correct message object to be used for sending request"
        case kPNResponseEncodingError:
            return "Ensure that you use UTF8 character table to send messages to the PubNub service"
        case kPNResponseMalformedJSONError:
            return "Try resend request which caused this error"
        case kPNCryptoEmptyCipherKeyError:
            return "Please check client configuration instance and ensure that key is specified or don't try to "
                + "initialize helper if there is no key supplied."
        case kPNCryptoIllegalInitializationParametersError:
            return "Ensure that correct parameters has been passed to cryptor creation functions."
        case kPNCryptoInsufficentBufferSizeError:
            return "Ensure that buffer with correct amount of space has been specified and provided for cryptor"
        case kPNCryptoInsufficentMemoryError:
            return "Looks like cryptor is run out of memory during his last operation. Try to separate input data "
                + "in chunks and process them one by one if possible."
        case kPNCryptoAligmentInputDataError:
            return "Ensure that input data is alligned according to PKCS5/7 padding."
        case kPNCryptoInputDataProcessingError:
            return "Cryptor stumbled on unknown error during input data processing."
        case kPNCryptoUnavailableFeatureError:
            return "Looks like you tried to perform some operation which is not supported by cryptor with "
                + "specified algorythm."
        case kPNRequestMessageCountExceededError:
            return "Request the channel history to catch up, or raise 'requestMessageCountThreshold' in the "
                + "configuration."
        case kPNResponseTooLargeError:
            return "Check the origin and any proxy in between, or raise 'maximumResponseBodySize' in the "
                + "configuration."
        case kPNRequestQueueFullError:
            return "Pace the calls: make the next one from the completion of an earlier one, or retry later."
        default:
            return PNError.unknownRecoverySuggestion
        }
    }

    /// 3.4 put codes 107, 108 and 111 in the service domain and every other code in the client domain.
    static func domain(forCode code: Int) -> String {
        switch code {
        case kPNPresenceAPINotAvailableError, kPNInvalidJSONError, kPNRestrictedCharacterInChannelNameError:
            return kPNServiceErrorDomain
        default:
            return kPNDefaultErrorDomain
        }
    }
}

extension PNError {
    /// The operations 3.4 gave an explicit timeout message (all code 106, docs/API-3.4.md §2.14).
    enum TimedOutOperation: CaseIterable {
        case subscription, unsubscription, messageSending, timeToken, history, hereNow
        case pushEnabling, pushDisabling, pushRemoval, pushEnabledChannels

        /// 3.4's description for a timeout of this operation.
        var message: String {
            switch self {
            case .subscription: return "Subscription failed by timeout"
            case .unsubscription: return "Unsubscription failed by timeout"
            case .messageSending: return "Message sending failed by timeout"
            case .timeToken: return "Time token request failed by timeout"
            case .history: return "Channel history request failed by timeout"
            case .hereNow: return "\"Here now\" request failed by timeout"
            case .pushEnabling: return "Push notification 'enabling' failed by timeout"
            case .pushDisabling: return "Push notification 'disabling' failed by timeout"
            case .pushRemoval: return "Push notification removal from all channels failed by timeout"
            case .pushEnabledChannels: return "Push notification enabled channels retrieval failed by timeout"
            }
        }
    }

    /// A code 106 error with 3.4's message for `operation`, category `timeout`.
    static func timeout(_ operation: TimedOutOperation, associatedObject: Any? = nil) -> PNError {
        PNError(
            message: operation.message,
            code: kPNRequestExecutionFailedByTimeoutError,
            category: .timeout,
            associatedObject: associatedObject
        )
    }
}
