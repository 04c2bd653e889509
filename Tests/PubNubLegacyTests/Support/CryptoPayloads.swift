import Foundation

@testable import PubNubLegacy

/// The payloads the end-to-end crypto tests send, and how they compare what arrives.
enum CryptoPayloads {
    /// The origin's and the client's publish limit: escaped channel plus message bytes (docs/PROTOCOL.md §2.2).
    static let publishLimit = 32 * 1024

    /// Bytes added in front of the ciphertext before base64: none for the 3.4 standard, the IV for random-IV, the
    /// PNED header (sentinel 4, version 1, cryptor id 4, length 1) and the IV for the ACRH crypto module.
    static func overhead(_ mode: PythonPeer.Mode) -> Int {
        switch mode {
        case .fixed: return 0
        case .random: return 16
        case .module: return 10 + 16
        }
    }

    /// The length of the longest ASCII string (no escapes) whose encrypted publish still fits the limit on
    /// `channel` (a name that needs no percent-escaping), sent as a POST body `"base64"`: the largest ciphertext
    /// (a multiple of 16) whose base64, with `overhead` and the two quotes, fits; PKCS#7 adds at least one byte to
    /// the JSON text, whose two quotes are not part of the string.
    static func largestFittingStringLength(channel: String, overhead: Int) -> Int {
        let budget = Self.publishLimit - channel.utf8.count - 2
        let base64Length = { (bytes: Int) in 4 * ((bytes + 2) / 3) }
        var ciphertext = 16
        while base64Length(overhead + ciphertext + 16) <= budget {
            ciphertext += 16
        }
        return ciphertext - 1 - 2
    }

    /// JSON texts of the small payloads: unicode (with a non-BMP emoji, escapes and a slash), nested JSON, numbers
    /// and the empty string.
    static let small: [String] = [
        #""héllo wörld ✓ 日本語 🎉 \"quoted\" back\\slash a/b""#,
        #"{"deep":{"a":{"b":[[],{}]}},"list":[1,2.5,null,true,false,"ü"],"n":-3}"#,
        "42",
        "-7.25",
        "12345678901234",
        "0",
        #""""#,
    ]

    /// The JSON texts of the small payloads followed by the largest string that fits for `mode` on `channel`.
    static func all(channel: String, mode: PythonPeer.Mode) -> [String] {
        let length = Self.largestFittingStringLength(channel: channel, overhead: Self.overhead(mode))
        return Self.small + ["\"" + Self.bigString(length) + "\""]
    }

    /// A deterministic ASCII string of `length` characters.
    static func bigString(_ length: Int) -> String {
        String(String(repeating: "0123456789abcdefghijklmnopqrstuvwxyz-", count: length / 37 + 1).prefix(length))
    }

    /// The value of a JSON text, as the client's decoder produces values.
    static func value(_ json: String) -> Any {
        try! JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
    }

    /// A value's canonical JSON text (sorted keys), so values from different decoders compare as text.
    static func canonical(_ value: Any?) -> String {
        guard let value, JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        else {
            return "<not JSON: \(String(describing: value))>"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The JSON array of `texts`, for the peer's stdin.
    static func jsonArray(_ texts: [String]) -> Data {
        Data(("[" + texts.joined(separator: ",") + "]").utf8)
    }
}
