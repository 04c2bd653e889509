// Swift optionals, arrays and dictionaries seen through `Any`, for the two walks over an outgoing message's payload:
// the checks of `PNMessage.payloadError(_:)` and the writer of `JSONFragmentEncoder`. Each `as? any P` cast costs the
// Swift runtime a conformance look-up — about 1,400 instructions on Linux, found or not, more than writing a small
// message — so the three kinds share one protocol: a walk asks once per value which of them it is, and
// `PNMessage.jsonText(for:)` asks once for the top-level value and hands the answer to both walks (issue 29).

/// What a Swift `Optional`, `Array` or `Dictionary` seen through `Any` is, with what the walks read from it.
enum PayloadShape {
    /// An `Optional`: the value it wraps, nil when it is empty.
    case optional(Any?)
    /// An `Array`.
    case array(any PayloadArray)
    /// A `Dictionary`.
    case dictionary(any PayloadDictionary)

    /// The shape of `value`, nil when it is none of the three (Foundation's containers included). One conformance
    /// look-up.
    static func of(_ value: Any) -> PayloadShape? {
        (value as? any PayloadContainer)?.payloadShape
    }

    /// A value's shape as a walk's caller may already know it.
    enum Lookup {
        /// Not known: the walk looks it up if it needs it.
        case ask
        /// Looked up already: the shape, or nil for a value that is none of the three.
        case known(PayloadShape?)
    }
}

/// A Swift optional, array or dictionary (Foundation's `NSArray` and `NSDictionary` do not conform).
protocol PayloadContainer {
    var payloadShape: PayloadShape { get }
}

/// A Swift array, walked as it is: casting it to `[Any]` would copy it into new storage first.
protocol PayloadArray {
    /// Calls `body` with each element in order until it returns a value; returns that value, or nil.
    func firstElement<Found>(_ body: (Any) -> Found?) -> Found?
}

/// A Swift dictionary, walked as it is: casting it to `[AnyHashable: Any]` would copy it into new storage first.
protocol PayloadDictionary {
    /// Calls `body` with each key and value until it returns a value; returns that value, or nil. An `AnyHashable`
    /// key is passed as the value it wraps, as `[AnyHashable: Any]`'s `key.base` would give it.
    func firstMember<Found>(_ body: (Any, Any) -> Found?) -> Found?

    /// The entries in the dictionary's own order when its keys are `String`; nil for any other key type.
    var stringKeyedEntries: [JSONFragmentEncoder.KeyOrder.Entry]? { get }
}

extension Optional: PayloadContainer {
    var payloadShape: PayloadShape {
        .optional(self.map { $0 as Any })
    }
}

extension Array: PayloadContainer, PayloadArray {
    var payloadShape: PayloadShape {
        .array(self)
    }

    func firstElement<Found>(_ body: (Any) -> Found?) -> Found? {
        for element in self {
            if let found = body(element) { return found }
        }
        return nil
    }
}

extension Dictionary: PayloadContainer, PayloadDictionary {
    var payloadShape: PayloadShape {
        .dictionary(self)
    }

    func firstMember<Found>(_ body: (Any, Any) -> Found?) -> Found? {
        for (key, value) in self {
            // A `String` key is its own base; only other keys need the `AnyHashable` wrapping to be looked through.
            let plainKey: Any = Key.self == String.self ? key : AnyHashable(key).base
            if let found = body(plainKey, value) { return found }
        }
        return nil
    }

    var stringKeyedEntries: [JSONFragmentEncoder.KeyOrder.Entry]? {
        guard Key.self == String.self else { return nil }
        // One key needs no order, so what KeyOrder would learn about it is not worked out.
        let single = self.count == 1
        var entries: [JSONFragmentEncoder.KeyOrder.Entry] = []
        entries.reserveCapacity(self.count)
        for (key, value) in self {
            let key = unsafeBitCast(key, to: String.self)  // Key is String (checked above)
            entries.append(.init(key: key, value: value, plain: single || JSONFragmentEncoder.KeyOrder.isPlain(key)))
        }
        return entries
    }
}
