import Foundation

// Strict reading of the fields of PubNub answers (issue 14): a field of the wrong JSON type is a malformed answer
// (127), never a value. `JSONSerialization` gives `NSNumber` for numbers and booleans alike — on Linux a JSON 0 or 1
// even answers `is Bool`, and `true as? UInt64` is 1 — so a time token of `true` used to be read as the token 1. The
// kind of a number comes from its Objective-C type code and class, which corelibs Foundation and Darwin both set.

/// What a decoded JSON number is.
enum JSONNumberKind: Equatable {
    /// `true` or `false` (type code `c` or `B`; JSON has no other numbers of that type).
    case boolean
    /// A whole number written without fraction or exponent, within `Int64`/`UInt64`.
    case integer
    /// Written with a fraction or an exponent (`1.0`, `1e3`): a floating-point value.
    case fraction
    /// An integer past `UInt64.max` (or below `Int64.min`), which Foundation keeps as an `NSDecimalNumber`.
    case outOfRange

    /// The kind of `number`, as `JSONSerialization` produced it.
    init(_ number: NSNumber) {
        if number is NSDecimalNumber {
            self = .outOfRange
            return
        }
        switch String(cString: number.objCType) {
        case "c", "B": self = .boolean
        case "d", "f": self = .fraction
        default: self = .integer
        }
    }
}

extension ResponseParser {
    /// A time token field: a JSON integer or a string of decimal digits, within 0…`UInt64.max`. Booleans, fractions,
    /// exponents, signs, negative values and values past `UInt64.max` are refused with `field` named.
    static func timetoken(_ value: Any?, field: String) -> Result<UInt64, ResponseFailure> {
        switch value {
        case let text as String:
            if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let token = UInt64(text) {
                return .success(token)
            }
        case let number as NSNumber:
            if JSONNumberKind(number) == .integer, let token = UInt64(number.stringValue) {
                return .success(token)
            }
        default:
            break
        }
        return .failure(Self.wrongType(field, value, expected: "a time token (an integer or a string of digits)"))
    }

    /// An optional time token field: nil when absent or null.
    static func optionalTimetoken(_ value: Any?, field: String) -> Result<UInt64?, ResponseFailure> {
        guard let value, !(value is NSNull) else { return .success(nil) }
        return Self.timetoken(value, field: field).map { $0 }
    }

    /// An integer field within `range`; booleans, fractions and strings are refused.
    static func integer(_ value: Any?, field: String, in range: ClosedRange<Int>) -> Result<Int, ResponseFailure> {
        if let number = value as? NSNumber, JSONNumberKind(number) == .integer, let integer = Int(number.stringValue),
            range.contains(integer)
        {
            return .success(integer)
        }
        let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range)"
        return .failure(Self.wrongType(field, value, expected: "an integer, \(bounds)"))
    }

    /// An optional integer field: nil when absent or null.
    static func optionalInteger(
        _ value: Any?,
        field: String,
        in range: ClosedRange<Int>
    ) -> Result<Int?, ResponseFailure> {
        guard let value, !(value is NSNull) else { return .success(nil) }
        return Self.integer(value, field: field, in: range).map { $0 }
    }

    /// An optional string field: nil when absent or null; any other type is refused.
    static func optionalString(_ value: Any?, field: String) -> Result<String?, ResponseFailure> {
        guard let value, !(value is NSNull) else { return .success(nil) }
        guard let text = value as? String else { return .failure(Self.wrongType(field, value, expected: "a string")) }
        return .success(text)
    }

    /// The success flag of a `[flag, "text", …]` answer: 1 is success, 0 an error; anything else is refused.
    static func flag(_ value: Any, field: String) -> Result<Bool, ResponseFailure> {
        Self.integer(value, field: field, in: 0...1).map { $0 == 1 }
    }

    /// Whether `value` is the integer 0 (and not `false` or `0.0`): the error flag of `[0, "reason"]` answers.
    static func isZero(_ value: Any) -> Bool {
        (try? Self.integer(value, field: "", in: 0...0).get()) != nil
    }

    /// The failure for `field` holding `value` where `expected` belongs.
    static func wrongType(_ field: String, _ value: Any?, expected: String) -> ResponseFailure {
        .malformedField("\(field) is \(Self.describe(value)), expected \(expected)")
    }

    /// A short description of a decoded JSON value for error texts: its type, and its text when short.
    static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "missing"
        case is NSNull: return "null"
        case let text as String:
            return text.count <= 24 ? "the string \"\(text)\"" : "a string of \(text.count) characters"
        case let number as NSNumber:
            switch JSONNumberKind(number) {
            case .boolean: return "the boolean \(number.boolValue)"
            case .integer: return "the integer \(number.stringValue)"
            case .fraction: return "the number \(number.stringValue)"
            case .outOfRange: return "the integer \(number.stringValue.prefix(24)), out of range"
            }
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "a \(type(of: value))"
        }
    }
}
