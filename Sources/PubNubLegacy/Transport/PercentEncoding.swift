// Escaping for every value the client puts into a URL: channel names, messages, uuid, auth key, query values.
// docs/PROTOCOL.md §1.5 / §4: only `A-Z a-z 0-9 - _ . ~` stay literal; everything else becomes `%XX` of its UTF-8
// bytes with uppercase hex. That is stricter than 3.4.2 (which left `'` literal and did not escape uuid/auth),
// so `,` `/` `?` `&` `+` `%` and spaces always round-trip through the origin's split-then-decode rule.

enum PercentEncoding {
    /// Returns `value` with every byte outside the unreserved set written as `%XX`.
    static func escape(_ value: String) -> String {
        var text = value
        // Read in place as UTF-8; keys, identifiers and most channel names need no escape and are returned as they
        // are, without a copy.
        let escaped = text.withUTF8 { bytes -> String? in
            guard let first = bytes.firstIndex(where: { !Self.isUnreserved($0) }) else { return nil }
            // At most three bytes out per byte in, written straight into the new string's storage.
            return String(unsafeUninitializedCapacity: bytes.count * 3) {
                (out: UnsafeMutableBufferPointer<UInt8>) -> Int in
                var count = 0
                for byte in bytes[..<first] {
                    out[count] = byte
                    count += 1
                }
                for byte in bytes[first...] {
                    if Self.isUnreserved(byte) {
                        out[count] = byte
                        count += 1
                    } else {
                        out[count] = UInt8(ascii: "%")
                        out[count + 1] = Self.hexDigit(byte >> 4)
                        out[count + 2] = Self.hexDigit(byte & 0x0F)
                        count += 3
                    }
                }
                return count
            }
        }
        return escaped ?? value
    }

    /// Escapes each element and joins them with a raw `,`, the list separator of PubNub paths and queries.
    static func escapeList(_ values: [String]) -> String {
        values.map(Self.escape).joined(separator: ",")
    }

    /// The inverse of `escape`: every `%XX` turned back into its byte (request signing signs decoded values).
    static func unescape(_ value: String) -> String {
        let bytes = Array(value.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = Self.hexValue(bytes[index + 1]), let low = Self.hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of the hex digit `byte` (either case), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The uppercase hex digit of `nibble` (0…15).
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
