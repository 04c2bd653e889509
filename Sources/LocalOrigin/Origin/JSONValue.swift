// A JSON tree that the origin both parses (messages, `meta`, presence state) and writes (every answer).
// Numbers keep their source text so 17-digit timetokens and client numbers pass through unchanged, never through
// `Double`; `raw` embeds JSON text that was validated earlier (stored message payloads) without re-serializing it, and
// `written` the bytes of an answer written directly (subscribe envelopes, publish statuses).

/// A JSON value with object members in insertion order (answers are written in a fixed key order).
indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as its JSON text, e.g. `14818963579052943` or `-1.5e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
    /// JSON text known to be valid, written as is.
    case raw(String)
    /// JSON text known to be valid, as UTF-8 bytes written as is (answers the origin writes straight into bytes).
    case written([UInt8])

    /// A number from an integer.
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number from a timetoken (JSON number, docs/PROTOCOL.md §1.7: time, history).
    static func timetoken(_ value: UInt64) -> JSONValue { .number(String(value)) }

    /// The members when this is an object.
    var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value of the last member named `key` when this is an object (later duplicates win, as in most parsers).
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// An object built from `pairs`, keeping their order.
    static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key, value: $0.value) })
    }
}

/// One member of a JSON object.
struct JSONMember: Equatable, Sendable {
    var key: String
    var value: JSONValue
}

// MARK: - Writing

extension JSONValue {
    /// The compact JSON text of this value as UTF-8 bytes.
    var serializedBytes: [UInt8] {
        if case .written(let bytes) = self { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(64)
        self.write(into: &out)
        return out
    }

    /// The compact JSON text of this value.
    var serialized: String { String(decoding: self.serializedBytes, as: UTF8.self) }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text), .raw(let text):
            out.append(contentsOf: text.utf8)
        case .written(let bytes):
            out.append(contentsOf: bytes)
        case .string(let text):
            JSONValue.writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `text` as a JSON string. U+2028 and U+2029 are escaped too, because answers may be JSONP (JavaScript
    /// before ES2019 rejects them raw inside string literals).
    static func writeString(_ text: String, into out: inout [UInt8]) {
        // Read as UTF-8 and copied in runs: every key and channel name of every answer comes through here.
        var text = text
        out.append(UInt8(ascii: "\""))
        text.withUTF8 { bytes in
            var pending = 0  // start of the bytes not yet copied
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
                let isSeparator =
                    byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || isSeparator else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending..<index]))
                let scalar = isSeparator ? UInt32(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029) : UInt32(byte)
                JSONValue.writeEscape(scalar, into: &out)
                index += isSeparator ? 3 : 1
                pending = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of `scalar`: a quote, a backslash, a C0 control, U+2028 or U+2029.
    private static func writeEscape(_ scalar: UInt32, into out: inout [UInt8]) {
        switch scalar {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        default:
            out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
            for shift in stride(from: 12, through: 0, by: -4) {
                out.append(JSONValue.hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
            }
        }
    }
}
