import Foundation

/// A message sent to or received from a channel (3.4's `PNMessage`, docs/API-3.4.md §2.10).
///
/// Outgoing messages are created by `sendMessage…` and hold the JSON text that goes on the wire; incoming ones
/// are created by the client and hold the decoded JSON value. There is no public constructor, as in 3.4. An
/// `NSObject` compared by identity, as in 3.4. Immutable after creation.
public final class PNMessage: NSObject, @unchecked Sendable {
    // @unchecked: every field is a `let`; `message` holds a JSON text (outgoing) or a decoded JSON value
    // (String, NSNumber, NSNull, arrays and dictionaries of those), which nothing mutates after decoding.

    /// The target channel (outgoing) or the channel the message arrived on (incoming; the regular channel,
    /// never its `-pnpres` companion).
    public let channel: PNChannel?

    /// Outgoing: the JSON text built from the payload at creation. Incoming: the decoded JSON value, or the
    /// string `DECRYPTION_ERROR` when a cipher key is set and the payload cannot be decrypted.
    public let message: Any?

    /// Incoming live messages: the time token of the subscribe response that carried the message. Nil for
    /// outgoing and history messages.
    public let receiveDate: PNDate?

    /// The message's own time token, when the origin reported one (history with time tokens, v2 subscribe).
    let timeToken: UInt64?

    init(message: Any?, channel: PNChannel?, receiveDate: PNDate?, timeToken: UInt64?) {
        self.message = message
        self.channel = channel
        self.receiveDate = receiveDate
        self.timeToken = timeToken
    }

    /// 3.4's `+messageWithObject:forChannel:error:`: validates an outgoing payload and target, and builds the
    /// message holding the payload's JSON text.
    ///
    /// Checks in 3.4's order: the payload (`kPNMessageHasNoContentError` for nil, an empty string or JSON text
    /// that is empty once spaces are removed; `kPNMessageObjectError` for a value JSON cannot express;
    /// `kPNTooLongMessageError` for more values than fit in a message), then the
    /// channel (`kPNMessageHasNoChannelError` for nil, the channel's `validationError()` for a refused name).
    static func messageWithObject(_ object: Any?, forChannel channel: PNChannel?) -> Result<PNMessage, PNError> {
        let text: String
        switch self.jsonText(for: object) {
        case .success(let json): text = json
        case .failure(let error): return .failure(error)
        }
        guard let channel else {
            return .failure(PNError(code: kPNMessageHasNoChannelError))
        }
        if let error = channel.validationError() {
            return .failure(error)
        }
        return .success(PNMessage(message: text, channel: channel, receiveDate: nil, timeToken: nil))
    }

    // MARK: - Payload serialization

    /// The JSON text sent for `object`, built with a real JSON encoder (docs/DESIGN.md §6) where 3.4 pasted strings
    /// into quotes unescaped:
    /// - a String that already is JSON text (starts with `"`, `[` or `{`, ends with `"`, `]` or `}` and parses)
    ///   is sent as it is, so re-sending a `PNMessage`'s stored text does not encode it twice;
    /// - any other String becomes a JSON string; numbers, booleans and `NSNull` become their JSON literal (3.4
    ///   could not send a bare number); arrays and dictionaries become compact JSON with sorted keys;
    /// - what JSON cannot express, or the encoder must not see, is refused first (`payloadError(_:)`: cycles, deep
    ///   nesting, NaN and infinities, lone UTF-16 surrogates, too many values).
    static func jsonText(for object: Any?) -> Result<String, PNError> {
        guard let (value, shape) = unwrapped(object) else {
            return .failure(PNError(code: kPNMessageHasNoContentError))
        }
        // `unwrapped` took every `Optional` off and looked up what kind of Swift container the value is (if any):
        // the checks and the writer below need not ask again at the top.
        if let error = payloadError(value, shape: .known(shape)) {
            return .failure(error)
        }
        if shape == nil, let string = value as? String {
            if string.isEmpty {
                return .failure(PNError(code: kPNMessageHasNoContentError))
            }
            if isJSONText(string) {
                return .success(string)
            }
        }
        guard let text = encodeFragment(value, shape) else {
            return .failure(PNError(code: kPNMessageObjectError))
        }
        // 3.4's "nothing but spaces" test in one pass over the bytes (`replacingOccurrences` took 150 µs per KiB).
        if text.utf8.allSatisfy({ $0 == UInt8(ascii: " ") }) {
            return .failure(PNError(code: kPNMessageHasNoContentError))
        }
        return .success(text)
    }

    /// 3.4's "already JSON" test (first and last character), confirmed by actually parsing the text.
    static func isJSONText(_ string: String) -> Bool {
        guard let first = string.first, let last = string.last, "\"[{".contains(first), "\"]}".contains(last),
            let data = string.data(using: .utf8)
        else {
            return false
        }
        return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    }

    /// Compact JSON for any value JSON can express, top-level fragments included; nil otherwise. `value` is not an
    /// `Optional` (`jsonText(for:)` unwrapped it) and its `PayloadShape` is `shape`. Byte for byte what
    /// corelibs' `JSONSerialization` wrote for it, which the package used before it had its own encoder.
    private static func encodeFragment(_ value: Any, _ shape: PayloadShape?) -> String? {
        JSONFragmentEncoder.encode(value, shape: .known(shape))
    }

    /// `object` with any levels of `Optional` removed, and its `PayloadShape` (nil: not a Swift array or dictionary);
    /// nil when one of the levels is empty.
    private static func unwrapped(_ object: Any?) -> (value: Any, shape: PayloadShape?)? {
        guard let object else {
            return nil
        }
        // The commonest payloads by their exact type, which needs no conformance look-up.
        let type = type(of: object)
        if type == String.self || type == Int.self || type == Double.self || type == Bool.self {
            return (object, nil)
        }
        switch PayloadShape.of(object) {
        case .optional(let wrapped):
            return wrapped.flatMap { unwrapped($0) }
        case let shape:
            return (object, shape)
        }
    }

    /// `PNMessage (0x…): <message: …, date: …, channel: …>`, as 3.4 described messages.
    public override var description: String {
        let body = self.message.map { objectDescription($0) } ?? "(null)"
        let date = self.receiveDate.map { String(describing: $0) } ?? "(null)"
        return "PNMessage (\(pointerDescription(self))): <message: \(body), date: \(date), "
            + "channel: \(self.channel?.name ?? "(null)")>"
    }
}
