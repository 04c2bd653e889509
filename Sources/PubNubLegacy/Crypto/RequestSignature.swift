// Request signatures with the secret key (docs/PROTOCOL.md §2.13.3, docs/CRYPTO.md §5): the PAM v2 scheme current
// servers check, the v1 scheme of POST publish, the Objective-C 3.5 `/v1/auth` scheme, and the 3.4.2 publish signature
// that was computed but never sent.

/// Builds the strings PubNub signs and the signatures themselves.
enum RequestSignature {
    // MARK: - Canonical query

    /// The canonical query of docs/PROTOCOL.md §2.13.3: parameters (decoded values, `signature` excluded) sorted by key
    /// in byte order, each value percent-encoded so that only `A–Z a–z 0–9 - _ .` stay literal, joined as
    /// `key=value` with `&`. Keys are used as given.
    static func canonicalQuery(_ parameters: [String: String]) -> String {
        RequestSignature.sortedPairs(parameters)
            .map { "\($0.key)=\(RequestSignature.pamEncode($0.value))" }
            .joined(separator: "&")
    }

    /// Percent-encodes `value` (UTF-8, uppercase hex) leaving only `A–Z a–z 0–9 - _ .` literal: space is `%20`,
    /// `~` is `%7E`, `,` is `%2C` (the Python SDK's `pam_encode`).
    static func pamEncode(_ value: String) -> String {
        RequestSignature.percentEncode(value) { RequestSignature.isUnreserved($0) && $0 != UInt8(ascii: "~") }
    }

    /// 3.4's `percentEscapedString` (docs/PROTOCOL.md §1.5): only `A–Z a–z 0–9 - _ . ~ '` stay literal. The Objective-C
    /// 3.5 PAM signature signs values escaped this way.
    static func legacyPercentEscape(_ value: String) -> String {
        RequestSignature.percentEncode(value) { RequestSignature.isUnreserved($0) || $0 == UInt8(ascii: "'") }
    }

    // MARK: - Schemes

    /// The PAM v2 string to sign: `METHOD\npublishKey\npath\ncanonicalQuery\nbody`. `path` is exactly as sent
    /// (already percent-encoded); `body` is empty for GET.
    static func v2StringToSign(
        method: String,
        publishKey: String,
        path: String,
        parameters: [String: String],
        body: String = ""
    ) -> String {
        "\(method)\n\(publishKey)\n\(path)\n\(RequestSignature.canonicalQuery(parameters))\n\(body)"
    }

    /// The PAM v2 `signature` parameter: `v2.` + base64url(HMAC-SHA256) without `=` padding.
    static func v2Signature(
        secretKey: String,
        method: String,
        publishKey: String,
        path: String,
        parameters: [String: String],
        body: String = ""
    ) -> String {
        let text = RequestSignature.v2StringToSign(
            method: method,
            publishKey: publishKey,
            path: path,
            parameters: parameters,
            body: body
        )
        return "v2." + Base64.encodeURLSafe(HMACSHA256.authenticate(text, key: secretKey), padded: false)
    }

    /// The v1 string to sign that current SDKs still use for POST publish: `subscribeKey\npublishKey\npath\nquery`.
    /// The body is not signed.
    static func v1StringToSign(
        subscribeKey: String,
        publishKey: String,
        path: String,
        parameters: [String: String]
    ) -> String {
        "\(subscribeKey)\n\(publishKey)\n\(path)\n\(RequestSignature.canonicalQuery(parameters))"
    }

    /// The v1 `signature` parameter: base64url(HMAC-SHA256) with its `=` padding and no prefix.
    static func v1Signature(
        secretKey: String,
        subscribeKey: String,
        publishKey: String,
        path: String,
        parameters: [String: String]
    ) -> String {
        let text = RequestSignature.v1StringToSign(
            subscribeKey: subscribeKey,
            publishKey: publishKey,
            path: path,
            parameters: parameters
        )
        return Base64.encodeURLSafe(HMACSHA256.authenticate(text, key: secretKey), padded: true)
    }

    /// The Objective-C 3.5 `/v1/auth/{operation}` string to sign: `subscribeKey\npublishKey\n{operation}\nquery`,
    /// where `operation` is the literal word `grant` or `audit` and the query (with `callback`) is sorted and
    /// escaped the 3.4 way.
    static func legacyAccessManagerStringToSign(
        subscribeKey: String,
        publishKey: String,
        operation: String,
        parameters: [String: String]
    ) -> String {
        let query = RequestSignature.sortedPairs(parameters)
            .map { "\($0.key)=\(RequestSignature.legacyPercentEscape($0.value))" }
            .joined(separator: "&")
        return "\(subscribeKey)\n\(publishKey)\n\(operation)\n\(query)"
    }

    /// The Objective-C 3.5 PAM signature: base64 with `+`→`-`, `/`→`_`, `=` kept. In the URL the `=` are sent as `%3D`.
    static func legacyAccessManagerSignature(
        secretKey: String,
        subscribeKey: String,
        publishKey: String,
        operation: String,
        parameters: [String: String]
    ) -> String {
        let text = RequestSignature.legacyAccessManagerStringToSign(
            subscribeKey: subscribeKey,
            publishKey: publishKey,
            operation: operation,
            parameters: parameters
        )
        return Base64.encodeURLSafe(HMACSHA256.authenticate(text, key: secretKey), padded: true)
    }

    /// What 3.4.2's publish request puts in its signature path segment: always `0`, even with a secret key
    /// (docs/CRYPTO.md §5).
    static let legacyPublishSignatureSent = "0"

    /// The value 3.4.2 computed for a publish with a secret key before discarding it: HMAC-SHA256 over
    /// `publishKey/subscribeKey/secretKey/escapedChannel/messageJSONText[?auth=authKey]`, as uppercase hex of only
    /// the first 16 bytes (its hex formatter's half-length loop). Kept for fidelity tests; never sent.
    static func legacyPublishSignatureComputed(
        secretKey: String,
        publishKey: String,
        subscribeKey: String,
        escapedChannel: String,
        messageJSONText: String,
        authKey: String? = nil
    ) -> String {
        var text = "\(publishKey)/\(subscribeKey)/\(secretKey)/\(escapedChannel)/\(messageJSONText)"
        if let authKey {
            text += "?auth=\(authKey)"
        }
        return Hex.uppercase(HMACSHA256.authenticate(text, key: secretKey).prefix(16))
    }

    // MARK: - Helpers

    private static func sortedPairs(_ parameters: [String: String]) -> [(key: String, value: String)] {
        // Byte order of the UTF-8 keys, as the Python SDK's `sorted` (code-point order) gives.
        parameters.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func percentEncode(_ value: String, keeping isLiteral: (UInt8) -> Bool) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded = [UInt8]()
        encoded.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isLiteral(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(digits[Int(byte >> 4)])
                encoded.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
