// Base64 (RFC 4648) for ciphertexts and signatures. Foundation's `Data(base64Encoded:)` accepts `=` in the middle of
// the text (`"ab=c"` decodes to 2 bytes on Linux), and a payload that is not exactly base64 was not produced by a
// PubNub peer, so decoding is done here, strictly.

/// Strict base64 encoding and decoding.
enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xff
    private static let padding = UInt8(ascii: "=")

    /// Maps an ASCII byte to its 6-bit value in the standard alphabet, or `invalid`.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: Base64.invalid, count: 256)
        for (value, character) in Base64.standardAlphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    // MARK: - Encoding

    /// Standard base64 (`+`, `/`, `=` padding, no line breaks), as PubNub sends ciphertexts (docs/CRYPTO.md §1.2).
    static func encode(_ bytes: [UInt8]) -> String {
        Base64.encode(bytes, alphabet: Base64.standardAlphabet, padded: true, quoted: false)
    }

    /// Standard base64 inside double quotes: the JSON string a ciphertext travels as (docs/CRYPTO.md §1.4). Base64
    /// needs no JSON escaping, and writing the quotes here saves copying the text twice.
    static func encodeAsJSONString(_ bytes: [UInt8]) -> String {
        Base64.encode(bytes, alphabet: Base64.standardAlphabet, padded: true, quoted: true)
    }

    /// The URL-safe alphabet (`-`, `_`), with `=` padding only when `padded`, as PubNub request signatures use
    /// (docs/PROTOCOL.md §2.13.3).
    static func encodeURLSafe(_ bytes: [UInt8], padded: Bool) -> String {
        Base64.encode(bytes, alphabet: Base64.urlAlphabet, padded: padded, quoted: false)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool, quoted: Bool) -> String {
        let fullGroups = bytes.count / 3
        let remainder = bytes.count % 3
        let quotes = quoted ? 2 : 0
        let length = 4 * fullGroups + (remainder == 0 ? 0 : (padded ? 4 : remainder + 1)) + quotes
        return bytes.withUnsafeBufferPointer { input in
            alphabet.withUnsafeBufferPointer { symbols in
                String(unsafeUninitializedCapacity: length) { output in
                    var i = 0
                    var o = 0
                    if quoted {
                        output[0] = UInt8(ascii: "\"")
                        o = 1
                    }
                    for _ in 0..<fullGroups {
                        let group = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                        output[o] = symbols[Int(group >> 18)]
                        output[o + 1] = symbols[Int((group >> 12) & 0x3f)]
                        output[o + 2] = symbols[Int((group >> 6) & 0x3f)]
                        output[o + 3] = symbols[Int(group & 0x3f)]
                        i += 3
                        o += 4
                    }
                    if remainder > 0 {
                        let second = remainder == 2 ? UInt32(input[i + 1]) : 0
                        let group = UInt32(input[i]) << 16 | second << 8
                        output[o] = symbols[Int(group >> 18)]
                        output[o + 1] = symbols[Int((group >> 12) & 0x3f)]
                        o += 2
                        if remainder == 2 {
                            output[o] = symbols[Int((group >> 6) & 0x3f)]
                            o += 1
                        }
                        if padded {
                            while (o - quotes / 2) % 4 != 0 {
                                output[o] = Base64.padding
                                o += 1
                            }
                        }
                    }
                    if quoted {
                        output[o] = UInt8(ascii: "\"")
                        o += 1
                    }
                    return o
                }
            }
        }
    }

    // MARK: - Decoding

    /// Decodes standard base64. The text must use only `A–Z a–z 0–9 + /`, be padded with `=` to a multiple of 4
    /// characters and have `=` only at the end; whitespace, line breaks and the URL-safe alphabet are rejected.
    /// Unused low bits of the last character are ignored, as the peers' decoders do. An empty text decodes to no
    /// bytes.
    ///
    /// - Throws: `CryptoError.invalidBase64`.
    static func decode(_ text: String) throws(CryptoError) -> [UInt8] {
        var text = text
        // `withUTF8` only rethrows untyped errors, so the typed error travels in a `Result`.
        return try text.withUTF8 { utf8 in Result { () throws(CryptoError) in try Base64.decode(utf8) } }.get()
    }

    /// Decodes the standard base64 in `utf8` (see `decode(_:)` for the accepted form).
    ///
    /// - Throws: `CryptoError.invalidBase64`.
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> [UInt8] {
        let count = utf8.count
        guard count % 4 == 0 else { throw .invalidBase64 }
        guard count > 0 else { return [] }
        var paddingCount = 0
        if utf8[count - 1] == Base64.padding {
            paddingCount = utf8[count - 2] == Base64.padding ? 2 : 1
        }
        let length = count / 4 * 3 - paddingCount
        var valid = true
        let bytes = Base64.decodingTable.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: length) { output, written in
                var o = 0
                var i = 0
                while i < count {
                    let a = table[Int(utf8[i])]
                    let b = table[Int(utf8[i + 1])]
                    var c = table[Int(utf8[i + 2])]
                    var d = table[Int(utf8[i + 3])]
                    let isLast = i + 4 == count
                    // Padding is only legal as the last one or two characters; elsewhere `=` is an invalid byte.
                    if isLast && paddingCount >= 1 { d = 0 }
                    if isLast && paddingCount == 2 { c = 0 }
                    if (a | b | c | d) & 0xc0 != 0 {
                        valid = false
                        break
                    }
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[o] = UInt8(truncatingIfNeeded: group >> 16)
                    if o + 1 < length { output[o + 1] = UInt8(truncatingIfNeeded: group >> 8) }
                    if o + 2 < length { output[o + 2] = UInt8(truncatingIfNeeded: group) }
                    o += 3
                    i += 4
                }
                written = valid ? length : 0
            }
        }
        guard valid else { throw .invalidBase64 }
        return bytes
    }
}
