// The error domains and codes of 3.4's `PNErrorCodes.h` (docs/API-3.4.md §2.5), with the 3.4 names and numbers,
// so ported code keeps comparing `error.code` with them. Codes this package adds follow at the end.

// MARK: - Domains

/// The domain of every client-side error (all codes except 107, 108 and 111).
public let kPNDefaultErrorDomain = "com.pubnub.pubnub"

/// The domain of errors the PubNub service reported: codes 107, 108 and 111.
public let kPNServiceErrorDomain = "com.pubnub.remote-service"

// MARK: - 3.4 codes

/// Unclassified error, e.g. a server error message the client does not recognise (its text becomes the
/// description).
public let kPNUnknownError = -1

/// The client is not configured, or its configuration lacks a publish, subscribe or secret key.
public let kPNClientConfigurationError = 100

/// `connect` was called while the client was already connected or connecting.
public let kPNClientTriedConnectWhileConnectedError = 101

/// Connecting failed because the network is down.
public let kPNClientConnectionFailedOnInternetFailureError = 102

/// The connection was lost because of a network problem.
public let kPNClientConnectionClosedOnInternetFailureError = 103

/// A request could not be sent: there is no network, or its state is not known yet.
public let kPNRequestExecutionFailedOnInternetFailureError = 104

/// A request could not be sent because the client is not connected.
public let kPNRequestExecutionFailedClientNotReadyError = 105

/// A request timed out.
public let kPNRequestExecutionFailedByTimeoutError = 106

/// Presence is not enabled for the keys in use (service domain).
public let kPNPresenceAPINotAvailableError = 107

/// The service could not process the JSON it was sent (service domain).
public let kPNInvalidJSONError = 108

/// The publish or subscribe key is wrong.
public let kPNInvalidSubscribeOrPublishKeyError = 109

/// The message is too large: over the 32 KiB limit (checked before sending) or refused by the service.
public let kPNTooLongMessageError = 110

/// A channel name contains a character the service reserves (service domain). This package also uses it for
/// the names it refuses before sending anything: empty names, names containing `,`, `/` or a control character, and
/// names longer than `PNChannel.maximumNameLength`.
public let kPNRestrictedCharacterInChannelNameError = 111

/// The service requires an authorization key (HTTP 401, and any refusal other than 403).
public let kPNAPIUnauthorizedAccessError = 112

/// The authorization key is wrong or lacks permission (HTTP 403).
public let kPNAPIAccessForbiddenError = 113

/// Encryption was set up without a cipher key.
public let kPNCryptoEmptyCipherKeyError = 114

/// The cipher was given illegal parameters.
public let kPNCryptoIllegalInitializationParametersError = 115

/// The cipher's output buffer was too small.
public let kPNCryptoInsufficentBufferSizeError = 116

/// The cipher ran out of memory.
public let kPNCryptoInsufficentMemoryError = 117

/// The cipher's input was not aligned to the block size.
public let kPNCryptoAligmentInputDataError = 118

/// Encrypting or decrypting failed; also the code of a received message that cannot be decrypted (3.4 used it
/// for that case; its category is then `decryptionError`).
public let kPNCryptoInputDataProcessingError = 119

/// The cipher does not support the requested feature.
public let kPNCryptoUnavailableFeatureError = 120

/// No message object was given. Never raised by 3.4; this package uses it for a payload that cannot be
/// expressed as JSON.
public let kPNMessageObjectError = 121

/// The message payload is nil or empty.
public let kPNMessageHasNoContentError = 122

/// The message has no target channel.
public let kPNMessageHasNoChannelError = 123

/// Push notifications are not enabled for the keys in use.
public let kPNPushNotificationsNotEnabledError = 124

/// The device push token is empty.
public let kPNDevicePushTokenIsEmptyError = 125

/// The service's response was not UTF-8.
public let kPNResponseEncodingError = 126

/// The service's response was malformed or truncated JSON.
public let kPNResponseMalformedJSONError = 127

/// A connection could not be set up, typically because of TLS (certificate or handshake).
public let kPNConnectionErrorOnSetup = 128

// MARK: - Codes added by this package
// 3.4.2 used -1 and 100…128; 3.5–3.7.11 renumbered within -1 and 100…144 (3.7.11's `PNErrorCodes.h` ends with
// kPNConnectionErrorOnSetup = 144). Codes added here start at 200 so they collide with none of those. Conditions
// that an existing 3.4 code already names reuse it: decryption failure (119), message too large (110), invalid
// channel name (111), TLS failure (128).

/// One subscribe response carried at least `PNConfiguration.requestMessageCountThreshold` messages
/// (4.x "message count exceeded"); reported through `pubnubClient(_:error:)`, never as a subscribe failure.
/// The messages are still delivered.
public let kPNRequestMessageCountExceededError = 200

/// An answer of the origin was larger than the client reads: its body passed
/// `PNConfiguration.maximumResponseBodySize`, or its header or trailers passed the transport's fixed bounds. The
/// request fails with this code (category `malformedResponse`) and the connection is dropped; the client goes on.
/// Reported where the request's own failure is reported (a call's failure event; `subscriptionDidFailWithError:`
/// for the subscription, after the same retries as a malformed answer).
public let kPNResponseTooLargeError = 201

/// A call found `PubNub.maximumWaitingCalls` calls of its client already waiting for their turn: it fails at once,
/// without being queued, on every channel its failure has (docs/BEHAVIOR.md §1.2). Calls made faster than the origin
/// answers them are refused instead of holding memory without bound; retry once earlier calls have completed.
public let kPNRequestQueueFullError = 202
