import Foundation

// The JSON text of an outgoing message, written by the package itself. Before this encoder the package called
// corelibs Foundation's `JSONSerialization.data(withJSONObject:options: [.sortedKeys, .withoutEscapingSlashes])` on
// the value wrapped in an array, which on Linux writes one `String` per Unicode scalar (BENCHMARKS.md has the
// figures). The wire must not change, so this encoder writes exactly the bytes that call wrote, its surprises
// included, and refuses exactly what it refused; JSONFragmentEncoderTests check both on random values against
// `JSONSerialization` itself. What corelibs does, and so what this file copies:
// - strings: `"` and `\` escaped, `/` not; U+0008, U+0009, U+000A, U+000C and U+000D as `\b \t \n \f \r`, the other
//   C0 controls as `\u00xx` with lower-case hex digits; everything else (U+007F, U+2028, non-ASCII) as raw UTF-8;
// - integers of every width in decimal; `Double` and `Float` in Swift's shortest round-trip `description` with a
//   trailing `.0` removed (`1`, `-0`, `0.1`, `1e+16`, `1e-05`, `1.2345678901234568e+17`); a `Float` is written as
//   a `Float` (`Float(0.1)` is `0.1`, not widened to `0.10000000149011612`); NaN and infinities are refused;
// - `NSNumber` by its storage type: the two Boolean singletons as `true`/`false`, integer types in decimal, `f`
//   and `d` like `Float` and `Double` (so `NSNumber(value: 1)` is `1` and `NSNumber(value: true)` is `true`);
// - keys sorted as `String.compare(_:options: [.numeric, .caseInsensitive, .forcedOrdering], range:,
//   locale: NSLocale.system)` orders them — a localized, numeric comparison, not code-point order (KeyOrder);
// - optionals inside containers: an empty optional is `null`, but an optional holding an empty optional
//   (`Int??.some(nil)`) makes the whole value invalid — corelibs' validity check refuses it;
// - nesting: the value sits at level 1 of the wrapping array; anything at level 512 or deeper is refused.
// Values outside the kinds above (`Decimal`, `NSDecimalNumber`, other `NSNumber` subclasses) are rare enough to be
// left to `JSONSerialization`, which then decides as it always did.

/// Compact JSON text for the values a message can hold: `String`/`NSString`, integers of every width, `Double`,
/// `Float`, `Bool`, `NSNumber`, `NSNull`, empty optionals, and arrays and dictionaries (`NSArray`, `NSDictionary`
/// included) of those, at any level including the top one. Pure functions, callable from any thread.
package enum JSONFragmentEncoder {
    /// The JSON text of `value` — byte for byte what corelibs Foundation's `JSONSerialization` writes for `[value]`
    /// with `.sortedKeys` and `.withoutEscapingSlashes`, without the enclosing brackets — or nil when JSON cannot
    /// express it (NaN or an infinity, a type JSON has no form for, a key that is not a string, nesting 511 levels
    /// deep or more).
    package static func encode(_ value: Any) -> String? {
        self.encode(value, shape: .ask)
    }

    /// `encode(_:)`; `shape` is the value's `PayloadShape` when the caller has looked it up already (a message's
    /// value, which `PNMessage` unwrapped), so the writer does not ask again at the top.
    static func encode(_ value: Any, shape: PayloadShape.Lookup) -> String? {
        switch self.ownEncoding(of: value, shape: shape) {
        case .text(let text):
            return text
        case .refused:
            return nil
        case .unsupported:
            return self.foundationEncoding(of: value)
        }
    }

    /// What the package's own writer made of a value.
    enum Outcome: Equatable {
        /// The JSON text.
        case text(String)
        /// JSON cannot express the value (`JSONSerialization` refuses it too).
        case refused
        /// The value holds a kind the writer leaves to `JSONSerialization` (`Decimal`, `NSDecimalNumber`, …).
        case unsupported
    }

    /// The package's own writer alone, without the `JSONSerialization` fallback of `encode(_:)`.
    static func ownEncoding(of value: Any, shape: PayloadShape.Lookup = .ask) -> Outcome {
        var writer = Writer()
        do throws(Stop) {
            try writer.element(value, level: 1, unwrapping: false, shape: shape)
        } catch {
            switch error {
            case .refused: return .refused
            case .unsupported: return .unsupported
            }
        }
        return .text(writer.text)
    }

    /// `JSONSerialization`'s text for `value`, or nil when it refuses the value: the package's encoding before it had
    /// its own writer, still used for the kinds the writer leaves to it (and by `LegacyDemo bench` to compare). The
    /// value is wrapped in an array because `isValidJSONObject` refuses fragments, and the serializer must never see
    /// an invalid object (it traps instead of throwing). Callable from any thread.
    package static func foundationEncoding(of value: Any) -> String? {
        let wrapped: [Any] = [value]
        guard JSONSerialization.isValidJSONObject(wrapped),
            let data = try? JSONSerialization.data(
                withJSONObject: wrapped,
                options: [.sortedKeys, .withoutEscapingSlashes]
            ),
            let text = String(data: data, encoding: .utf8), text.hasPrefix("["), text.hasSuffix("]")
        else {
            return nil
        }
        return String(text.dropFirst().dropLast())
    }
}

// MARK: - Writer

extension JSONFragmentEncoder {
    /// Why the writer stopped before the end of a value.
    enum Stop: Error {
        case refused
        case unsupported
    }

    /// Appends the JSON text of values to a byte buffer.
    struct Writer {
        /// corelibs' validity check refuses a value whose nesting reaches 512 levels, counting the array the value
        /// is wrapped in as level 0; a scalar counts as a level too.
        static let deepestLevel = 511

        /// Room for a small message from the start, so the first bytes do not grow the buffer several times.
        private var bytes: [UInt8] = {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(64)
            return bytes
        }()

        /// The text written so far.
        var text: String {
            String(decoding: self.bytes, as: UTF8.self)
        }

        /// Writes `value`, which sits at nesting `level`. `unwrapping` is true when `value` was taken out of an
        /// optional: an empty optional is then refused instead of written as `null`, as corelibs does.
        /// `shape` is the value's `PayloadShape` when the caller has looked it up already: a container goes straight
        /// to its kind (it is never a `String` or an `NSNumber`), any other value skips the look-up.
        mutating func element(
            _ value: Any,
            level: Int,
            unwrapping: Bool,
            shape: PayloadShape.Lookup = .ask
        ) throws(Stop) {
            guard level <= Self.deepestLevel else {
                throw .refused
            }
            if case .known(.some(let known)) = shape {
                try self.shaped(value, known, level: level, unwrapping: unwrapping)
                return
            }
            // The commonest kinds by their exact type: no cast has to fail before the right one (each of these is
            // what the casts below would find it to be).
            let kind = type(of: value)
            if kind == Int.self {
                self.integer(Int64(value as! Int))
                return
            }
            if kind == Double.self {
                try self.floatingPoint(value as! Double)
                return
            }
            if kind == Bool.self {
                self.append((value as! Bool) ? "true" : "false")
                return
            }
            // Strings first: the commonest payload, and `as? String` also takes `NSString` and a non-empty
            // `String?`, as corelibs' cast does.
            if let string = value as? String {
                self.string(string)
                return
            }
            // Before any numeric cast: `NSNumber(value: true) as? Int` would succeed and write `1`.
            if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
                try self.number(number)
                return
            }
            // Before the other casts, which look through optionals and would bridge an `NSNumber?` to Swift.
            let container: PayloadShape?
            switch shape {
            case .ask: container = PayloadShape.of(value)
            case .known(let known): container = known
            }
            try self.shaped(value, container, level: level, unwrapping: unwrapping)
        }

        /// Writes `value`, whose `PayloadShape` is `shape` (nil: none).
        private mutating func shaped(
            _ value: Any,
            _ shape: PayloadShape?,
            level: Int,
            unwrapping: Bool
        ) throws(Stop) {
            switch shape {
            case .optional(let wrapped):
                guard let wrapped else {
                    if unwrapping {
                        throw .refused
                    }
                    self.append("null")
                    return
                }
                try self.element(wrapped, level: level, unwrapping: true)
            case .array(let array):
                // A Swift array is read as it is, not converted to `[Any]` first.
                try self.array(array, level: level)
            case .dictionary(let dictionary):
                // A Swift dictionary with `String` keys is read as it is, not converted to `[String: Any]` first;
                // other keys are left to the casts (an `[AnyHashable: Any]` with `String` keys is still an object).
                if let entries = dictionary.stringKeyedEntries {
                    try self.object(entries, level: level)
                } else {
                    try self.nonOptional(value, level: level)
                }
            case nil:
                try self.nonOptional(value, level: level)
            }
        }

        private mutating func nonOptional(_ value: Any, level: Int) throws(Stop) {
            switch value {
            case let int as Int: self.integer(Int64(int))
            case let double as Double: try self.floatingPoint(double)
            case let bool as Bool: self.append(bool ? "true" : "false")
            case let dictionary as [String: Any]: try self.object(dictionary, level: level)
            case let array as [Any]: try self.array(array, level: level)
            case is [AnyHashable: Any]: throw .refused  // a dictionary with a key that is not a string
            case is NSNull: self.append("null")
            case let int as Int8: self.integer(Int64(int))
            case let int as Int16: self.integer(Int64(int))
            case let int as Int32: self.integer(Int64(int))
            case let int as Int64: self.integer(int)
            case let uint as UInt: self.unsigned(UInt64(uint))
            case let uint as UInt8: self.unsigned(UInt64(uint))
            case let uint as UInt16: self.unsigned(UInt64(uint))
            case let uint as UInt32: self.unsigned(UInt64(uint))
            case let uint as UInt64: self.unsigned(uint)
            case let float as Float: try self.floatingPoint(float)
            default: throw .unsupported
            }
        }

        // MARK: Containers

        private mutating func array(_ array: [Any], level: Int) throws(Stop) {
            self.bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 {
                    self.bytes.append(UInt8(ascii: ","))
                }
                try self.element(element, level: level + 1, unwrapping: false)
            }
            self.bytes.append(UInt8(ascii: "]"))
        }

        private mutating func array(_ array: any PayloadArray, level: Int) throws(Stop) {
            self.bytes.append(UInt8(ascii: "["))
            var first = true
            let stop: Stop? = array.firstElement { element in
                if !first {
                    self.bytes.append(UInt8(ascii: ","))
                }
                first = false
                do throws(Stop) {
                    try self.element(element, level: level + 1, unwrapping: false)
                } catch {
                    return error
                }
                return nil
            }
            if let stop {
                throw stop
            }
            self.bytes.append(UInt8(ascii: "]"))
        }

        private mutating func object(_ dictionary: [String: Any], level: Int) throws(Stop) {
            try self.object(
                dictionary.map { KeyOrder.Entry(key: $0.key, value: $0.value, plain: KeyOrder.isPlain($0.key)) },
                level: level
            )
        }

        private mutating func object(_ entries: [KeyOrder.Entry], level: Int) throws(Stop) {
            self.bytes.append(UInt8(ascii: "{"))
            var first = true
            for entry in KeyOrder.sorted(entries: entries) {
                if !first {
                    self.bytes.append(UInt8(ascii: ","))
                }
                first = false
                self.string(entry.key)
                self.bytes.append(UInt8(ascii: ":"))
                try self.element(entry.value, level: level + 1, unwrapping: false)
            }
            self.bytes.append(UInt8(ascii: "}"))
        }

        // MARK: Scalars

        private mutating func append(_ ascii: StaticString) {
            ascii.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        }

        private mutating func string(_ string: String) {
            var string = string
            self.bytes.reserveCapacity(self.bytes.count + string.utf8.count + 2)
            self.bytes.append(UInt8(ascii: "\""))
            string.withUTF8 { utf8 in
                var pending = 0  // start of the bytes not yet copied
                for index in utf8.indices {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                        continue
                    }
                    self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[pending..<index]))
                    self.escape(byte)
                    pending = index + 1
                }
                self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[pending...]))
            }
            self.bytes.append(UInt8(ascii: "\""))
        }

        /// `byte` (a quote, a backslash or a C0 control) as corelibs escapes it.
        private mutating func escape(_ byte: UInt8) {
            self.bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): self.bytes.append(byte)
            case 0x08: self.bytes.append(UInt8(ascii: "b"))
            case 0x09: self.bytes.append(UInt8(ascii: "t"))
            case 0x0A: self.bytes.append(UInt8(ascii: "n"))
            case 0x0C: self.bytes.append(UInt8(ascii: "f"))
            case 0x0D: self.bytes.append(UInt8(ascii: "r"))
            default:
                let low = byte & 0x0F
                self.append("u00")
                self.bytes.append(UInt8(ascii: "0") + byte >> 4)  // 0 or 1: the byte is below 0x20
                self.bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            }
        }

        private mutating func integer(_ value: Int64) {
            if value < 0 {
                self.bytes.append(UInt8(ascii: "-"))
            }
            self.unsigned(value.magnitude)
        }

        private mutating func unsigned(_ value: UInt64) {
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of UInt64.max
            withUnsafeMutableBytes(of: &digits) { buffer in
                var rest = value
                var start = buffer.count
                repeat {
                    start -= 1
                    buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while rest > 0
                self.bytes.append(contentsOf: buffer[start...])
            }
        }

        /// Swift's shortest round-trip form without a trailing `.0`, as corelibs writes `Double` and `Float`.
        private mutating func floatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(
            _ value: Number
        ) throws(Stop) {
            guard value.isFinite else {
                throw .refused
            }
            var text = value.description
            if text.hasSuffix(".0") {
                text.removeLast(2)
            }
            self.bytes.append(contentsOf: text.utf8)
        }

        /// An `NSNumber` by the Swift value corelibs turns it into before writing (its storage type decides).
        private mutating func number(_ number: NSNumber) throws(Stop) {
            if number === JSONFragmentEncoder.booleans.true {
                self.append("true")
                return
            }
            if number === JSONFragmentEncoder.booleans.false {
                self.append("false")
                return
            }
            // `NSDecimalNumber` and other subclasses are written differently: left to JSONSerialization.
            guard type(of: number) == NSNumber.self else {
                throw .unsupported
            }
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "q"):
                self.integer(number.int64Value)
            case UInt8(ascii: "Q"):
                self.unsigned(number.uint64Value)
            case UInt8(ascii: "f"):
                try self.floatingPoint(number.floatValue)
            case UInt8(ascii: "d"):
                try self.floatingPoint(number.doubleValue)
            default:
                throw .unsupported
            }
        }
    }

    /// corelibs' Boolean `NSNumber`s are two singletons (`kCFBooleanTrue`/`kCFBooleanFalse`); every `true` and
    /// `false` number — `NSNumber(value:)`, a bridged `Bool`, a parsed `true` — is one of them.
    static let booleans = (true: NSNumber(value: true), false: NSNumber(value: false))
}
