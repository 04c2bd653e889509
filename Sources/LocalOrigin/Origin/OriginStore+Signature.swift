import Foundation

// Request signatures (docs/PROTOCOL.md §2.13.3, docs/CRYPTO.md §5), checked when the origin has a secret key. Current
// SDKs sign every request with `timestamp` (Unix seconds) and `signature`:
// - v2: `"v2." + base64url(HMAC-SHA256(secret, "METHOD\npublishKey\npath\ncanonicalQuery\nbody"))`, `=` removed;
// - v1, which the Python SDK still sends for POST publish only: `base64url(HMAC-SHA256(secret,
//   "subscribeKey\npublishKey\npath\ncanonicalQuery"))`, `=` kept, body not signed.
// The canonical query is every parameter but `signature`, decoded, sorted by name (byte order), each value
// percent-encoded so that only `A–Z a–z 0–9 - _ .` stay literal, joined as `name=value` with `&`; `path` is the path
// exactly as received. The values are decoded with `+` read as a plus, unlike everywhere else in the query: current
// SDKs sign the value they mean and the pinned Python SDK sends a `+` of a uuid raw (`uuid=py%20user+1`).

extension OriginStore {
    /// Seconds a signed request's `timestamp` may lie before or after the origin's clock (a replay window, and
    /// room for clocks that disagree a little).
    static let signatureTimestampWindow: Double = 300

    /// 403 when a request is not signed with `secretKey` as the service expects, nil when it is. The publish key
    /// signed over is the one in a publish path, else each of the configured publish keys in turn (a secret key
    /// belongs to a key set: without configured publish keys only publishes can be checked).
    func signatureRefusal(_ request: HTTPRequest, _ target: RequestTarget, secretKey: String) -> OriginReply? {
        guard let signature = target.parameter("signature"), !signature.isEmpty else { return .signatureMismatch }
        guard let text = target.parameter("timestamp"), let timestamp = UInt64(text),
            abs(Double(timestamp) - self.now) <= OriginStore.signatureTimestampWindow
        else { return .invalidTimestamp }
        let isPublish = target.segments.first == "publish"
        let publishKeys: [String]
        if isPublish, let key = target.segment(1) {
            publishKeys = [key]
        } else {
            publishKeys = self.settings.publishKeys.map { $0.sorted() } ?? []
        }
        let query = OriginStore.canonicalQuery(RequestTarget.parameters(of: target.rawQuery, plusIsSpace: false).pairs)
        let key = Array(secretKey.utf8)
        let given = Array(signature.utf8)
        for publishKey in publishKeys {
            let expected: String
            if signature.hasPrefix("v2.") {
                let body = String(decoding: request.body, as: UTF8.self)
                let text = "\(request.method)\n\(publishKey)\n\(target.rawPath)\n\(query)\n\(body)"
                expected =
                    "v2." + OriginStore.base64URL(SHA256Digest.hmac(key: key, message: Array(text.utf8)), padded: false)
            } else if isPublish, request.method == "POST", let subscribeKey = target.segment(2) {
                let text = "\(subscribeKey)\n\(publishKey)\n\(target.rawPath)\n\(query)"
                expected = OriginStore.base64URL(SHA256Digest.hmac(key: key, message: Array(text.utf8)), padded: true)
            } else {
                continue
            }
            if OriginStore.constantTimeEqual(Array(expected.utf8), given) { return nil }
        }
        return .signatureMismatch
    }

    /// The canonical query of `parameters` (decoded pairs): `signature` left out, sorted by name in byte order
    /// (stable for repeated names), values encoded leaving only `A–Z a–z 0–9 - _ .` literal.
    static func canonicalQuery(_ parameters: [(name: String, value: String)]) -> String {
        parameters.enumerated()
            .filter { $0.element.name != "signature" }
            .sorted { lhs, rhs in
                lhs.element.name == rhs.element.name
                    ? lhs.offset < rhs.offset
                    : lhs.element.name.utf8.lexicographicallyPrecedes(rhs.element.name.utf8)
            }
            .map { "\($0.element.name)=\(OriginStore.signatureEncoded($0.element.value))" }
            .joined(separator: "&")
    }

    /// `value` percent-encoded (UTF-8, uppercase hex) leaving only `A–Z a–z 0–9 - _ .` literal.
    static func signatureEncoded(_ value: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64 with `-` and `_` for `+` and `/`; `=` padding kept or removed.
    static func base64URL(_ bytes: [UInt8], padded: Bool) -> String {
        var text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        if !padded {
            while text.hasSuffix("=") { text.removeLast() }
        }
        return text
    }

    /// Compares in time that depends only on the lengths, so a mismatch does not tell where it is.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
