import Foundation
import PlatformSupport

/// An error reported by the PubNub client: the 3.4 `PNError` surface plus a 4.x-style `category`.
///
/// As in 3.4 this is an `NSError` subclass, so ported code that treats it as an `NSError` keeps working: a
/// delegate method or block written with `NSError` receives it, `error as NSError` is the same object, it can be
/// thrown and caught as `any Error`, and it sits in Foundation collections. `code`, `domain` and the three
/// localized texts are `NSError`'s own members; `userInfo` carries the texts (and the underlying error) under the
/// standard keys, so a copy made from `domain`, `code` and `userInfo` reads the same. Two errors are equal (`==`,
/// `isEqual(_:)`) when their domain, code and texts are, as `NSError` compares them.
///
/// It stays a class, not a struct, for two 3.4 behaviours ported code can observe: the same error object reaches
/// the delegate, the observers, the notification and the block of one event, and the client may attach the
/// `associatedObject` after creating the error, once.
///
/// Porters compare `code` with the `kPN…Error` constants; those keep their 3.4 numbers.
public final class PNError: NSError, @unchecked Sendable {
    // @unchecked: every stored property is a `let`; the one thing that changes after creation, the associated
    // object, is set at most once through the `associated` lock box. Associated objects are the package's own
    // thread-safe models (channels, messages) or values given by whoever created the error. `NSError`'s own
    // state (domain, code, userInfo) is immutable after `init`.

    /// What kind of failure this is, in 4.x terms; new in this package.
    public let category: PNErrorCategory

    /// The system error this one wraps (a URL loading or socket error), when there is one; new in this package.
    public let underlyingError: (any Error)?

    private let associated: Locked<Any?>

    // MARK: - Initializers

    /// Creates the error every other initializer funnels into.
    ///
    /// - Parameters:
    ///   - domain: nil picks the 3.4 domain for `code`.
    ///   - message: the description; nil uses the 3.4 text for `code`.
    ///   - failureReason: replaces the 3.4 reason text, to say precisely what failed (e.g. which configuration
    ///     field is empty, or the transport's cause of a connection failure).
    ///   - recoverySuggestion: replaces the 3.4 suggestion (or the generic one outside the PubNub domains) where
    ///     a specific one is known.
    ///   - category: nil derives it from `code`.
    init(
        domain: String?,
        code: Int,
        message: String?,
        failureReason: String?,
        recoverySuggestion: String? = nil,
        category: PNErrorCategory?,
        associatedObject: Any?,
        underlyingError: (any Error)?
    ) {
        let domain = domain ?? PNError.domain(forCode: code)
        let isPubNubDomain = domain == kPNDefaultErrorDomain || domain == kPNServiceErrorDomain
        self.underlyingError = underlyingError
        self.category = category ?? (isPubNubDomain ? PNErrorCategory.defaultCategory(forCode: code) : .unknown)
        self.associated = Locked(associatedObject)
        let texts = PNError.texts(
            code: code,
            isPubNubDomain: isPubNubDomain,
            message: message,
            failureReason: failureReason,
            recoverySuggestion: recoverySuggestion
        )
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: texts.description,
            NSLocalizedFailureReasonErrorKey: texts.reason,
            NSLocalizedRecoverySuggestionErrorKey: texts.suggestion,
        ]
        if let underlyingError {
            info[NSUnderlyingErrorKey] = underlyingError as NSError
        }
        super.init(domain: domain, code: code, userInfo: info)
    }

    /// Decoding is not supported: a `PNError` is only ever created by the client or by the 3.4 factories.
    public required init?(coder: NSCoder) {
        return nil
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
    public override var localizedDescription: String {
        self.userInfo[NSLocalizedDescriptionKey] as? String ?? PNError.unknownDescription
    }

    /// Why the error happened: the 3.4 text for the code, or a more precise reason the client gave. Never nil
    /// (3.4 always had one), unlike `NSError`'s.
    public override var localizedFailureReason: String {
        self.userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? PNError.unknownFailureReason
    }

    /// What to do about it: the 3.4 text for the code. Never nil (3.4 always had one), unlike `NSError`'s.
    public override var localizedRecoverySuggestion: String {
        self.userInfo[NSLocalizedRecoverySuggestionErrorKey] as? String ?? PNError.unknownRecoverySuggestion
    }

    /// 3.4's format: `Domain=…; Code=…; Description="…"; Reason="…"; Fix suggestion="…"; Associated object=…`.
    public override var description: String {
        let associated = self.associatedObject.map { String(describing: $0) } ?? "(null)"
        return "Domain=\(self.domain); Code=\(self.code); Description=\"\(self.localizedDescription)\"; "
            + "Reason=\"\(self.localizedFailureReason)\"; Fix suggestion=\"\(self.localizedRecoverySuggestion)\"; "
            + "Associated object=\(associated)"
    }

    /// Consistent with `isEqual(_:)`, which is `NSError`'s (equal domain, code and `userInfo`): hashes the domain and
    /// the code. 3.4's `[error hash]` ports as `error.hash`; on Linux `NSError`'s own `hash` traps (Foundation there
    /// leaves it unimplemented), which would crash an error put in a `Set`, an `NSSet` or a dictionary's keys.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(self.domain)
        hasher.combine(self.code)
        return hasher.finalize()
    }

    /// The three texts of an error: the explicit ones given, else the 3.4 texts of `code` (generic ones outside the
    /// PubNub domains).
    private static func texts(
        code: Int,
        isPubNubDomain: Bool,
        message: String?,
        failureReason: String?,
        recoverySuggestion: String?
    ) -> (description: String, reason: String, suggestion: String) {
        let description =
            message ?? (isPubNubDomain ? PNError.defaultDescription(forCode: code) : PNError.unknownDescription)
        let reason =
            failureReason
            ?? (isPubNubDomain ? PNError.defaultFailureReason(forCode: code) : PNError.unknownFailureReason)
        let suggestion =
            recoverySuggestion
            ?? (isPubNubDomain ? PNError.defaultRecoverySuggestion(forCode: code) : PNError.unknownRecoverySuggestion)
        return (description, reason, suggestion)
    }
}
