import Foundation

/// A PubNub time token and the date it stands for (3.4's `PNDate`, docs/API-3.4.md §2.9).
///
/// The token is kept exactly, as an unsigned 64-bit integer; the `date` is derived from it on each access by
/// 3.4's rule (tokens above `Int32.max` are 100 ns units, smaller ones Unix seconds; whole seconds either way).
/// An `NSObject`, as in 3.4; dates are equal (`isEqual(_:)`, `==`, `hash`) when their tokens are. Immutable, so it
/// can be shared between threads.
public final class PNDate: NSObject, Sendable {
    /// The token as an unsigned 64-bit value; new in this package (3.4 only had the `NSNumber`).
    public let timeTokenValue: UInt64

    /// Creates a date from a time token; new in this package.
    public init(timeToken: UInt64) {
        self.timeTokenValue = timeToken
    }

    /// 3.4's `+dateWithDate:`: the token of `date` (seconds × 10 000 000, truncated); nil for a nil date. The
    /// original `Date` is not kept: `date` is re-derived from the token.
    public static func dateWithDate(_ date: Date?) -> PNDate? {
        date.map { PNDate(timeToken: timeTokenFromDate($0)) }
    }

    /// 3.4's `+dateWithToken:`: a date for the token held by `number` (read as unsigned 64-bit); nil for nil.
    public static func dateWithToken(_ number: NSNumber?) -> PNDate? {
        number.map { PNDate(timeToken: $0.uint64Value) }
    }

    /// The token as 3.4 exposed it: an `NSNumber` holding the exact unsigned 64-bit value.
    public var timeToken: NSNumber {
        NSNumber(value: self.timeTokenValue)
    }

    /// The date of the token, to the whole second (3.4's `PNUnixTimeStampFromTimeToken`).
    public var date: Date {
        Date(timeIntervalSince1970: unixTimeStamp(fromTimeToken: self.timeTokenValue))
    }

    /// `PNDate (0x…) <date: …; time token: …>`, as 3.4 described it.
    public override var description: String {
        "PNDate (\(pointerDescription(self))) <date: \(self.date); time token: \(self.timeTokenValue)>"
    }

    /// Dates are equal when their tokens are; new in this package (3.4 compared identities). `==` calls this.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? PNDate)?.timeTokenValue == self.timeTokenValue
    }

    /// The hash of the token, consistent with `isEqual(_:)`.
    public override var hash: Int {
        self.timeTokenValue.hashValue
    }
}
