import Foundation

// What `JSONSerialization` cannot be trusted with, checked before it sees a message payload. Its encoder recurses
// through containers without a bound (a cyclic `NSMutableArray` or a few thousand nested arrays overflow the stack
// and kill the process), and a string bridged from an `NSString` holding a lone UTF-16 surrogate is silently turned
// into U+FFFD on its way to UTF-8. Found by the `client-arguments` fuzz target (Fuzz/README.md).

extension PNMessage {
    /// Containers nested deeper than this are refused: far beyond any real message, well inside what Foundation's
    /// JSON reader accepts (512) once a subscribe answer wraps the message in three more levels, and what
    /// `LocalOrigin` stores (256).
    static let maximumPayloadNesting = 256

    /// Values (containers, keys and leaves) past this many are refused with 110: separated by commas they need at
    /// least twice as many bytes, more than a message may have (`ClientEngine.maximumMessageSize`). It also bounds
    /// the walk over containers shared many times.
    static let maximumPayloadValues = ClientEngine.maximumMessageSize / 2

    /// The error for a payload that must not reach the JSON encoder, nil when it may: 121 for a container that
    /// contains itself, nesting deeper than `maximumPayloadNesting`, a NaN or infinite number, or a string with a
    /// lone UTF-16 surrogate; 110 for more than `maximumPayloadValues` values. The failure reason says which.
    /// `shape`: the value's `PayloadShape` when the caller has looked it up already (`jsonText(for:)` did).
    static func payloadError(_ value: Any, shape: PayloadShape.Lookup = .ask) -> PNError? {
        var walk = PayloadWalk()
        guard let problem = walk.check(value, depth: 0, shape: shape) else { return nil }
        let code: Int
        let reason: String
        switch problem {
        case .cycle:
            code = kPNMessageObjectError
            reason = "The message contains itself (an array or dictionary inside itself); JSON cannot express it."
        case .tooDeep:
            code = kPNMessageObjectError
            reason = "The message nests arrays and dictionaries more than \(maximumPayloadNesting) levels deep."
        case .notFinite:
            code = kPNMessageObjectError
            reason = "The message contains NaN or an infinite number; JSON has no such numbers."
        case .loneSurrogate:
            code = kPNMessageObjectError
            reason = "The message contains a string with a lone UTF-16 surrogate, which is not text (no UTF-8 form)."
        case .tooManyValues:
            code = kPNTooLongMessageError
            reason = "The message holds more than \(maximumPayloadValues) values; it cannot fit in 32 KiB."
        }
        return PNError(
            domain: nil,
            code: code,
            message: nil,
            failureReason: reason,
            category: nil,
            associatedObject: nil,
            underlyingError: nil
        )
    }
}

/// One depth-first walk over a payload. Containers that are objects (`NSArray`, `NSDictionary`) are tracked by
/// identity on the current path, so a cycle is found at its first repetition.
private struct PayloadWalk {
    enum Problem {
        case cycle, tooDeep, notFinite, loneSurrogate, tooManyValues
    }

    private var path: Set<ObjectIdentifier> = []
    private var remaining = PNMessage.maximumPayloadValues

    /// The first problem in `value`, which sits at `depth`; `shape` is the value's `PayloadShape` when the caller
    /// has looked it up already.
    mutating func check(_ value: Any, depth: Int, shape: PayloadShape.Lookup = .ask) -> Problem? {
        self.remaining -= 1
        guard self.remaining >= 0 else { return .tooManyValues }
        // The commonest leaves by their exact type, which needs no cast: nothing in them can be refused.
        let type = type(of: value)
        if type == String.self || type == Int.self || type == Bool.self { return nil }
        let container: PayloadShape?
        switch shape {
        case .ask: container = PayloadShape.of(value)
        case .known(let known): container = known
        }
        switch container {
        case .optional(let wrapped):
            // An `Optional` first (`[Any?]` elements): casting it to a Swift type casts what it wraps, and that
            // bridges.
            guard let wrapped else { return nil }
            return self.check(wrapped, depth: depth)
        case .array(let array):
            // Swift arrays and dictionaries walked as they are (Foundation's containers are checked below).
            guard depth < PNMessage.maximumPayloadNesting else { return .tooDeep }
            return array.firstElement { self.check($0, depth: depth + 1) }
        case .dictionary(let dictionary):
            guard depth < PNMessage.maximumPayloadNesting else { return .tooDeep }
            return dictionary.firstMember { key, element in
                self.check(key, depth: depth + 1) ?? self.check(element, depth: depth + 1)
            }
        case nil:
            break
        }
        // Foundation objects next: casting them to Swift types would bridge (and repair, or copy) them — deeply, so
        // an `NSArray` that contains itself would recurse until the stack overflows.
        if type is NSString.Type, let string = value as? NSString {
            return Self.hasLoneSurrogate(string) ? .loneSurrogate : nil
        }
        if type is NSNumber.Type, let number = value as? NSNumber {
            return Self.isFloatingPoint(number) && !number.doubleValue.isFinite ? .notFinite : nil
        }
        if type is NSArray.Type, let array = value as? NSArray {
            return self.enter(array, depth: depth) { walk in
                for element in StoredElements.elements(of: array) {
                    if let problem = walk.check(element, depth: depth + 1) { return problem }
                }
                return nil
            }
        }
        if type is NSDictionary.Type, let dictionary = value as? NSDictionary {
            return self.enter(dictionary, depth: depth) { walk in
                for (key, element) in StoredElements.members(of: dictionary) {
                    if let problem = walk.check(key, depth: depth + 1) ?? walk.check(element, depth: depth + 1) {
                        return problem
                    }
                }
                return nil
            }
        }
        switch value {
        case let real as Double:
            return real.isFinite ? nil : .notFinite
        case let real as Float:
            return real.isFinite ? nil : .notFinite
        case let decimal as Decimal:
            return decimal.isNaN ? .notFinite : nil
        case let array as [Any]:
            guard depth < PNMessage.maximumPayloadNesting else { return .tooDeep }
            for element in array {
                if let problem = self.check(element, depth: depth + 1) { return problem }
            }
            return nil
        case let dictionary as [AnyHashable: Any]:
            guard depth < PNMessage.maximumPayloadNesting else { return .tooDeep }
            for (key, element) in dictionary {
                if let problem = self.check(key.base, depth: depth + 1) ?? self.check(element, depth: depth + 1) {
                    return problem
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// Walks a container object: refused when already on the path (a cycle) or too deep.
    private mutating func enter(
        _ container: AnyObject,
        depth: Int,
        _ body: (inout PayloadWalk) -> Problem?
    ) -> Problem? {
        guard depth < PNMessage.maximumPayloadNesting else { return .tooDeep }
        let identity = ObjectIdentifier(container)
        guard self.path.insert(identity).inserted else { return .cycle }
        defer { self.path.remove(identity) }
        return body(&self)
    }

    /// Whether `number` holds a `float` or `double` (integers and booleans are always finite).
    private static func isFloatingPoint(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "d" || type == "f"
    }

    /// Whether the UTF-16 of `string` has a high surrogate not followed by a low one, or a low one not preceded by
    /// a high one. Read in slices, so a 10 MB string costs a few milliseconds.
    private static func hasLoneSurrogate(_ string: NSString) -> Bool {
        let length = string.length
        let sliceLength = 4_096
        let buffer = UnsafeMutablePointer<unichar>.allocate(capacity: sliceLength)
        defer { buffer.deallocate() }
        var expectingLow = false
        var start = 0
        while start < length {
            let count = min(sliceLength, length - start)
            string.getCharacters(buffer, range: NSRange(location: start, length: count))
            for unit in UnsafeBufferPointer(start: buffer, count: count) {
                let isHigh = (0xD800...0xDBFF).contains(unit)
                let isLow = (0xDC00...0xDFFF).contains(unit)
                if expectingLow != isLow { return true }
                expectingLow = isHigh
            }
            start += count
        }
        return expectingLow
    }
}
