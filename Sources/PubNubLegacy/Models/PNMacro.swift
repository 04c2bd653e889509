// The public helper functions of 3.4's `PNMacro.h` (docs/API-3.4.md §2.15), under their 3.4 names, plus the
// `UInt64` forms the package uses internally. Time tokens are unsigned 64-bit counts of 100 ns since 1970 and
// never pass through `Double` (docs/DESIGN.md §6); only the conversion to a `Date` does.

import Foundation

/// Tokens above this are 100 ns units; at or below it they are plain Unix seconds (presence timestamps).
private let secondsTokenLimit = UInt64(Int32.max)

/// Time-token units per second.
let timeTokenUnitsPerSecond: UInt64 = 10_000_000

/// A new random identifier in the lower-case canonical UUID form 3.4 generated client identifiers in.
public func PNUniqueIdentifier() -> String {
    UUID().uuidString.lowercased()
}

/// The Unix time, in whole seconds, of a time token: tokens above `Int32.max` are 100 ns units, smaller ones are
/// taken as seconds already (3.4's rule, which drops the sub-second part).
public func PNUnixTimeStampFromTimeToken(_ timeToken: NSNumber) -> TimeInterval {
    unixTimeStamp(fromTimeToken: timeToken.uint64Value)
}

/// The time token of a date: seconds since 1970 × 10 000 000, truncated. Dates before 1970 give 0 and dates too
/// far in the future for 64 bits give `UInt64.max` (3.4 left both undefined).
public func PNTimeTokenFromDate(_ date: Date) -> NSNumber {
    NSNumber(value: timeTokenFromDate(date))
}

/// 3.4's string-to-token helper: a decimal string becomes an `NSNumber` holding the exact unsigned 64-bit value,
/// an `NSNumber` is returned as it is. Anything else — including a string that is not a decimal `UInt64` — gives
/// nil (3.4's `strtoull` silently read such strings as 0 or as a prefix).
public func PNNumberFromUnsignedLongLongString(_ timeToken: Any?) -> NSNumber? {
    if let number = timeToken as? NSNumber, !(timeToken is String) {
        return number
    }
    if let string = timeToken as? String, let value = UInt64(string) {
        return NSNumber(value: value)
    }
    return nil
}

/// 3.4's token-to-string helper: an `NSNumber` becomes its unsigned 64-bit decimal text, a `String` is returned as
/// it is, anything else gives nil.
public func PNStringFromUnsignedLongLongNumber(_ timeToken: Any?) -> String? {
    if let string = timeToken as? String {
        return string
    }
    if let number = timeToken as? NSNumber {
        return String(number.uint64Value)
    }
    return nil
}

/// True when `uuid` was chosen by the application, i.e. it is not exactly a lower-case canonical UUID such as
/// `PNUniqueIdentifier()` generates.
public func PNIsUserGeneratedUUID(_ uuid: String) -> Bool {
    let groups = uuid.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else {
        return true
    }
    let lowerHex = Set("0123456789abcdef")
    return !groups.allSatisfy { $0.allSatisfy { lowerHex.contains($0) } }
}

// MARK: - UInt64 forms

/// `PNUnixTimeStampFromTimeToken` on a `UInt64` token.
func unixTimeStamp(fromTimeToken token: UInt64) -> TimeInterval {
    token > secondsTokenLimit ? TimeInterval(token / timeTokenUnitsPerSecond) : TimeInterval(token)
}

/// `PNTimeTokenFromDate` as a `UInt64`.
func timeTokenFromDate(_ date: Date) -> UInt64 {
    let units = date.timeIntervalSince1970 * Double(timeTokenUnitsPerSecond)
    guard units.isFinite, units > 0 else {
        return units == .infinity ? UInt64.max : 0
    }
    return units >= 18_446_744_073_709_551_615.0 ? UInt64.max : UInt64(units)
}

/// Reads an unsigned integer out of a decoded JSON value (a number or a decimal string); nil when it holds none.
/// Negative and non-finite numbers give nil; fractions are truncated; integers keep all 64 bits. A boolean is not a
/// number (a presence event's `"occupancy": true` is not 1): nil, as is any `NSNumber` typed as a C `char`.
func unsignedValue(of value: Any?) -> UInt64? {
    switch value {
    case let number as NSNumber where JSONNumberKind(number) == .boolean:
        return nil
    case let string as String:
        return UInt64(string)
    case let integer as UInt64:
        return integer
    case let integer as Int:
        return UInt64(exactly: integer)
    case let integer as Int64:
        return UInt64(exactly: integer)
    case let integer as UInt:
        return UInt64(integer)
    case let real as Double:
        return truncatedUnsigned(real)
    case let number as NSNumber:
        let real = number.doubleValue
        // Whole numbers are read as integers so 17-digit tokens keep every digit; Double only decides the sign
        // and whether there is a fraction (every Double above 2^53 is whole).
        return real.rounded(.towardZero) == real && real >= 0 ? number.uint64Value : truncatedUnsigned(real)
    default:
        return nil
    }
}

private func truncatedUnsigned(_ real: Double) -> UInt64? {
    guard real.isFinite, real >= 0, real < 18_446_744_073_709_551_616.0 else {
        return nil
    }
    return UInt64(real.rounded(.towardZero))
}

/// `%p` of an object as 3.4's descriptions printed it: `0x` and the address in lower-case hex, no padding.
func pointerDescription(_ object: AnyObject) -> String {
    "0x" + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
}
