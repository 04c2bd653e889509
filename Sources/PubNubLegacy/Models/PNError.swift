import Foundation

/// An error reported by the PubNub client: the 3.4 `PNError` surface plus a 4.x-style `category`.
///
/// 3.4's `PNError` was an `NSError` subclass. This one is a Swift class that conforms to `Error`,
/// `LocalizedError` and `CustomNSError`, so it can be thrown, caught as `any Error` and bridged to `NSError`
/// without depending on subclassing Foundation's `NSError` (which behaves differently across Foundation
/// implementations). It stays a class, not a struct, for two 3.4 behaviours ported code can observe: the same
/// error object reaches the delegate, the observers, the notification and the block of one event, and the client
/// may attach the `associatedObject` after creating the error, once.
///
/// Porters compare `code` with the `kPN…Error` constants; those keep their 3.4 numbers.
public final class PNError: Error, CustomStringConvertible, @unchecked Sendable {
    // @unchecked: every stored property is a `let`; the one thing that changes after creation, the associated
    // object, is set at most once through the `associated` lock box. Associated objects are the package's own
    // thread-safe models (channels, messages) or values given by whoever created the error.

    /// The 3.4 error code: one of the `kPN…Error` constants, or the code of the underlying error when
    /// `domain` is not a PubNub domain (a transport error wrapped as 3.4 did).
    public let code: Int

    /// `kPNDefaultErrorDomain`, `kPNServiceErrorDomain` (codes 107, 108, 111), or the domain of a wrapped
    /// transport error.
    public let domain: String

    /// What kind of failure this is, in 4.x terms; new in this package.
    public let category: PNErrorCategory

    /// The system error this one wraps (a URL loading or socket error), when there is one; new in this package.
    public let underlyingError: (any Error)?

    private let message: String?
    private let failureReasonOverride: String?
    private let associated: Locked<Any?>

    // MARK: - Initializers

    /// Creates the error every other initializer funnels into.
    ///
    /// - Parameters:
    ///   - domain: nil picks the 3.4 domain for `code`.
    ///   - message: the description; nil uses the 3.4 text for `code`.
    ///   - failureReason: replaces the 3.4 reason text, to say precisely what failed (e.g. which configuration
    ///     field is empty).
    ///   - category: nil derives it from `code`.
    init(
        domain: String?,
        code: Int,
        message: String?,
        failureReason: String?,
        category: PNErrorCategory?,
        associatedObject: Any?,
        underlyingError: (any Error)?
    ) {
        let domain = domain ?? PNError.domain(forCode: code)
        self.code = code
        self.domain = domain
        self.message = message
        self.failureReasonOverride = failureReason
        self.underlyingError = underlyingError
        let isPubNubDomain = domain == kPNDefaultErrorDomain || domain == kPNServiceErrorDomain
        self.category = category ?? (isPubNubDomain ? PNErrorCategory.defaultCategory(forCode: code) : .unknown)
        self.associated = Locked(associatedObject)
    }

    /// 3.4's `-initWithMessage:code:`: an error with an explicit description (nil uses the 3.4 text for the code);
    /// the domain and the category follow from the code.
    public convenience init(message errorMessage: String?, code errorCode: Int) {
        self.init(
            domain: nil,
            code: errorCode,
            message: errorMessage,
            failureReason: nil,
            category: nil,
            associatedObject: nil,
            underlyingError: nil
        )
    }

    /// An error with the 3.4 texts, domain and category of `code`.
    public convenience init(code: Int) {
        self.init(message: nil, code: code)
    }

    /// An error with the 3.4 texts and domain of `code`, an explicit category and an associated object.
    public convenience init(code: Int, category: PNErrorCategory, associatedObject: Any? = nil) {
        self.init(
            domain: nil,
            code: code,
            message: nil,
            failureReason: nil,
            category: category,
            associatedObject: associatedObject,
            underlyingError: nil
        )
    }

    /// An error with an explicit description (nil uses the 3.4 text), category and associated object.
    public convenience init(message: String?, code: Int, category: PNErrorCategory, associatedObject: Any?) {
        self.init(
            domain: nil,
            code: code,
            message: message,
            failureReason: nil,
            category: category,
            associatedObject: associatedObject,
            underlyingError: nil
        )
    }

    // MARK: - 3.4 factories

    /// 3.4's `+errorWithCode:`: the 3.4 texts for `errorCode`.
    public static func errorWithCode(_ errorCode: Int) -> PNError {
        PNError(code: errorCode)
    }

    /// 3.4's `+errorWithMessage:code:`: an explicit description (nil uses the 3.4 text).
    public static func errorWithMessage(_ errorMessage: String?, code: Int) -> PNError {
        PNError(message: errorMessage, code: code)
    }

    /// 3.4's `+errorWithHTTPStatusCode:`: 403 gives `kPNAPIAccessForbiddenError`, any other status
    /// `kPNAPIUnauthorizedAccessError`; category `accessDenied`.
    public static func errorWithHTTPStatusCode(_ statusCode: UInt) -> PNError {
        PNError(code: statusCode == 403 ? kPNAPIAccessForbiddenError : kPNAPIUnauthorizedAccessError)
    }

    /// 3.4's `+errorWithResponseErrorMessage:`: classifies a server error message by case-sensitive substrings,
    /// first match wins — "Presence" → 107; "Invalid" with "JSON" → 108, with "Character" and "Channel" → 111,
    /// with "Key" → 109; "Message" with "Too Large" → 110; "Push" with "not enabled" → 124. A recognised message
    /// gets the 3.4 text of its code; anything else becomes `kPNUnknownError` with the server text as description.
    public static func errorWithResponseErrorMessage(_ errorMessage: String) -> PNError {
        var code = kPNUnknownError
        if errorMessage.contains("Presence") {
            code = kPNPresenceAPINotAvailableError
        } else if errorMessage.contains("Invalid") {
            if errorMessage.contains("JSON") {
                code = kPNInvalidJSONError
            } else if errorMessage.contains("Character") {
                // 3.4 stops at "Character": without "Channel" the message stays unknown, even if it names a key.
                if errorMessage.contains("Channel") {
                    code = kPNRestrictedCharacterInChannelNameError
                }
            } else if errorMessage.contains("Key") {
                code = kPNInvalidSubscribeOrPublishKeyError
            }
        } else if errorMessage.contains("Message") {
            if errorMessage.contains("Too Large") {
                code = kPNTooLongMessageError
            }
        } else if errorMessage.contains("Push") {
            if errorMessage.contains("not enabled") {
                code = kPNPushNotificationsNotEnabledError
            }
        }
        return code == kPNUnknownError ? PNError(message: errorMessage, code: code) : PNError(code: code)
    }

    // MARK: - 3.4 accessors

    /// The object the error concerns: the channels of a failed subscribe, the `PNMessage` of a failed send, the
    /// `PNChannel` of a failed history or here-now request; nil when there is none.
    public var associatedObject: Any? {
        self.associated.current
    }

    /// Attaches the object the error concerns. Only the first non-nil value sticks, later ones are ignored,
    /// as in 3.4 (a 401/403 error whose payload named channels keeps those channels).
    func setAssociatedObject(_ object: Any?) {
        self.associated.withLock { current in
            if current == nil {
                current = object
            }
        }
    }

    /// The explicit message the error was created with, or the 3.4 text for its code.
    public var localizedDescription: String {
        if let message = self.message {
            return message
        }
        return self.isPubNubDomain ? PNError.defaultDescription(forCode: self.code) : PNError.unknownDescription
    }

    /// Why the error happened: the 3.4 text for the code, or a more precise reason the client gave.
    public var localizedFailureReason: String {
        if let reason = self.failureReasonOverride {
            return reason
        }
        return self.isPubNubDomain ? PNError.defaultFailureReason(forCode: self.code) : PNError.unknownFailureReason
    }

    /// What to do about it: the 3.4 text for the code.
    public var localizedRecoverySuggestion: String {
        self.isPubNubDomain
            ? PNError.defaultRecoverySuggestion(forCode: self.code) : PNError.unknownRecoverySuggestion
    }

    /// 3.4's format: `Domain=…; Code=…; Description="…"; Reason="…"; Fix suggestion="…"; Associated object=…`.
    public var description: String {
        let associated = self.associatedObject.map { String(describing: $0) } ?? "(null)"
        return "Domain=\(self.domain); Code=\(self.code); Description=\"\(self.localizedDescription)\"; "
            + "Reason=\"\(self.localizedFailureReason)\"; Fix suggestion=\"\(self.localizedRecoverySuggestion)\"; "
            + "Associated object=\(associated)"
    }

    private var isPubNubDomain: Bool {
        self.domain == kPNDefaultErrorDomain || self.domain == kPNServiceErrorDomain
    }
}

// MARK: - Bridging

extension PNError: LocalizedError {
    /// `localizedDescription`, so `(error as any Error).localizedDescription` shows the 3.4 text.
    public var errorDescription: String? { self.localizedDescription }

    /// `localizedFailureReason`.
    public var failureReason: String? { self.localizedFailureReason }

    /// `localizedRecoverySuggestion`.
    public var recoverySuggestion: String? { self.localizedRecoverySuggestion }
}

extension PNError: CustomNSError {
    /// The domain `NSError` bridging reports. It has to be one static value, so it is always
    /// `kPNDefaultErrorDomain`; the exact domain of a given error is `domain`.
    public static var errorDomain: String { kPNDefaultErrorDomain }

    /// `code`, so a bridged `NSError` keeps the 3.4 number.
    public var errorCode: Int { self.code }

    /// The three texts, plus the underlying error when there is one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: self.localizedDescription,
            NSLocalizedFailureReasonErrorKey: self.localizedFailureReason,
            NSLocalizedRecoverySuggestionErrorKey: self.localizedRecoverySuggestion,
        ]
        if let underlying = self.underlyingError {
            info[NSUnderlyingErrorKey] = underlying as NSError
        }
        return info
    }
}
