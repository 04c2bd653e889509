import Foundation

// A publisher's payload is decoded once per delivered message, and corelibs' `JSONSerialization` spent about a
// sixth of a delivered message's instructions on payloads as small as `{"n":17}` (issue 29). This decoder builds
// the same values for the payloads it is sure about and says "not mine" (nil) for every other text, which
// `ResponseParser.decodePayload` then hands to `JSONSerialization` as before. A wrong value would corrupt a message;
// a nil only costs time, so every rule below is narrower than `JSONSerialization`'s.
//
// What `JSONSerialization.jsonObject(with:options: [.fragmentsAllowed])` returns on Linux (swift-corelibs-foundation,
// Swift 6.3.1), found by experiment and pinned by `JSONPayloadDecoderTests` (one test per line):
// - An object is a `Dictionary<String, Any>`, an array an `Array<Any>`, a string a `String` whose Unicode scalars are
//   exactly the text's (no normalization: `"e\u0301"` stays two scalars), `null` the `NSNull`.
// - `true` and `false` are the shared `NSNumber(value: true)` and `NSNumber(value: false)` objects (`__NSCFBoolean`,
//   identical by `===`).
// - An integer (no fraction, no exponent) is `NSNumber(value: Int64)`: objCType "i" for -1...12 (corelibs' cached
//   small numbers) and "q" otherwise; "-0" is the integer 0. Positive integers past `Int64.max` are "Q" (`UInt64`)
//   up to `UInt64.max`, then `NSDecimalNumber`. Negative ones with 19 digits or more are `NSDecimalNumber` although
//   most of them fit `Int64` (-1000000000000000000, -9223372036854775807). Here: at most 18 digits, either sign.
// - A number with a fraction or an exponent is `NSNumber(value: Double)` (objCType "d", even for "1.0"), with the
//   bits of `Double(text)` ("-0.0" keeps its sign, "1e-400" is 0.0) — when its text is at most 17 bytes long. From
//   18 bytes on corelibs may return `NSDecimalNumber` instead ("1.2345678901234567", "0.0000000000000001"), and a
//   number out of `Double`'s range ("1e400") is an error. Here: at most 17 bytes, and a finite result.
// - A repeated key keeps the last value under the first spelling, and keys are compared as Swift strings, so the
//   canonically equivalent "é" and "e\u0301" are one key. Here: any repeated key is nil.
// - It accepts more than RFC 8259: trailing commas (`[1,]`, `{"a":1,}`) and a UTF-8 byte order mark before the
//   value. Here: RFC 8259 only (whitespace is space, tab, LF, CR).
// - It accepts 512 nested containers and refuses 513. Here: at most 64.
// - A raw U+FEFF (byte order mark) at the start of a string, or right after an escape sequence in it, is dropped
//   from the string (`"\u00e9<U+FEFF>"` decodes to "é"): each run of text between escapes seems to be read as data
//   that may start with a byte order mark. Here: any raw U+FEFF is nil (escaped `\uFEFF` is kept by both).
// - It refuses lone surrogate escapes (`"\ud800"`), text that is not UTF-8 (overlong forms, encoded surrogates),
//   raw control characters in strings and leading zeros; so does this decoder (through `JSONScanner`).

/// Decodes a payload's JSON text into the value `JSONSerialization` would return for it, for a subset of JSON that
/// covers what publishers usually send; nil for any text outside that subset, valid or not, and for every text where
/// `JSONSerialization` builds other values than this decoder (`isEnabled`: Apple's Foundation, say).
///
/// Pure: no I/O, no state; safe from any thread.
enum JSONPayloadDecoder {
    /// The deepest nesting of containers decoded here (corelibs accepts 512).
    static let maximumDepth = 64
    /// The most digits of an integer decoded here: corelibs makes 19-digit negatives `NSDecimalNumber`.
    static let maximumIntegerDigits = 18
    /// The longest text of a number with a fraction or exponent decoded here: from 18 bytes on, corelibs may make it
    /// an `NSDecimalNumber`.
    static let maximumRealLength = 17

    /// The value of the JSON text `bytes` (one value, whitespace around it allowed), or nil when the text is not in
    /// the subset this decoder is sure about — including every text that is not JSON.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Any? {
        guard Self.isEnabled else { return nil }
        return Self.decodeSubset(bytes)
    }

    /// `decode(_:)` whether or not the decoder is enabled (the probe of `isEnabled` uses it).
    static func decodeSubset(_ bytes: UnsafeRawBufferPointer) -> Any? {
        guard !Self.containsByteOrderMark(bytes) else { return nil }
        var scanner = JSONScanner(bytes)
        guard let value = Self.value(&scanner, bytes, depth: 0), scanner.isAtEnd() else { return nil }
        return value
    }

    private static func value(_ scanner: inout JSONScanner, _ bytes: UnsafeRawBufferPointer, depth: Int) -> Any? {
        guard let byte = scanner.peek() else { return nil }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { return nil }
            var object: [String: Any] = [:]
            let read = scanner.readObject { key, scanner in
                guard let member = Self.value(&scanner, bytes, depth: depth + 1) else { return false }
                return object.updateValue(member, forKey: key) == nil  // a repeated key: leave it to corelibs
            }
            return read ? object : nil
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { return nil }
            var array: [Any] = []
            let read = scanner.readArray { scanner in
                guard let element = Self.value(&scanner, bytes, depth: depth + 1) else { return false }
                array.append(element)
                return true
            }
            return read ? array : nil
        case UInt8(ascii: "\""):
            return scanner.readString()
        case UInt8(ascii: "t"):
            return scanner.skipValue() != nil ? NSNumber(value: true) : nil
        case UInt8(ascii: "f"):
            return scanner.skipValue() != nil ? NSNumber(value: false) : nil
        case UInt8(ascii: "n"):
            return scanner.skipValue() != nil ? NSNull() : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let range = scanner.skipValue() else { return nil }
            return Self.number(UnsafeRawBufferPointer(rebasing: bytes[range]))
        default:
            return nil
        }
    }

    /// True when U+FEFF appears unescaped anywhere in `bytes` (as UTF-8: EF BB BF).
    private static func containsByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while let offset = bytes[index...].firstIndex(of: 0xEF) {
            if offset + 2 < bytes.count, bytes[offset + 1] == 0xBB, bytes[offset + 2] == 0xBF { return true }
            index = offset + 1
        }
        return false
    }

    /// The number whose text (already checked against the JSON grammar) is `text`, when it is in the subset.
    private static func number(_ text: UnsafeRawBufferPointer) -> NSNumber? {
        let isReal = text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if isReal {
            guard text.count <= Self.maximumRealLength,
                let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite
            else { return nil }
            return NSNumber(value: value)
        }
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? text.count - 1 : text.count
        guard digits <= Self.maximumIntegerDigits else { return nil }
        var magnitude: Int64 = 0
        for byte in text.dropFirst(negative ? 1 : 0) {
            magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0"))  // 18 digits cannot overflow
        }
        return NSNumber(value: negative ? -magnitude : magnitude)
    }
}
