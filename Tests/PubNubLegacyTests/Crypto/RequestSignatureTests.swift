import Testing

@testable import PubNubLegacy

/// Request signing (docs/PROTOCOL.md §2.13.3, docs/CRYPTO.md §5) against
/// Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json → `request_signatures` and the signature entries of
/// `published_known_answers`.
@Suite struct RequestSignatureTests {
    // MARK: - Vectors

    /// Every `request_signatures` entry, by scheme: the string to sign is rebuilt from the parts and signed.
    @Test(arguments: try CryptoVectors.load().requestSignatures)
    func requestSignatures(vector: RequestSignatureVector) throws {
        switch vector.scheme {
        case "v2":
            let parameters = try #require(vector.paramsUnencoded)
            #expect(RequestSignature.canonicalQuery(parameters) == vector.canonicalQuery)
            let method = try #require(vector.method)
            let publishKey = try #require(vector.publishKey)
            let path = try #require(vector.path)
            let text = RequestSignature.v2StringToSign(
                method: method,
                publishKey: publishKey,
                path: path,
                parameters: parameters,
                body: vector.body ?? ""
            )
            #expect(text == vector.stringToSign)
            let signature = RequestSignature.v2Signature(
                secretKey: vector.secretKey,
                method: method,
                publishKey: publishKey,
                path: path,
                parameters: parameters,
                body: vector.body ?? ""
            )
            #expect(signature == vector.signature)
        case "v1 (POST publish only in current SDKs)":
            let parameters = try #require(vector.paramsUnencoded)
            #expect(RequestSignature.canonicalQuery(parameters) == vector.canonicalQuery)
            let subscribeKey = try #require(vector.subscribeKey)
            let publishKey = try #require(vector.publishKey)
            let path = try #require(vector.path)
            let text = RequestSignature.v1StringToSign(
                subscribeKey: subscribeKey,
                publishKey: publishKey,
                path: path,
                parameters: parameters
            )
            #expect(text == vector.stringToSign)
            let signature = RequestSignature.v1Signature(
                secretKey: vector.secretKey,
                subscribeKey: subscribeKey,
                publishKey: publishKey,
                path: path,
                parameters: parameters
            )
            #expect(signature == vector.signature)
        case "legacy objective-c 3.5.x (/v1/auth/grant)":
            // The vector gives only the string to sign; its lines are the parts the request builder starts from.
            let lines = vector.stringToSign.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            try #require(lines.count == 4)
            var parameters: [String: String] = [:]
            for pair in lines[3].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                parameters[parts[0]] = parts[1]
            }
            let text = RequestSignature.legacyAccessManagerStringToSign(
                subscribeKey: lines[0],
                publishKey: lines[1],
                operation: lines[2],
                parameters: parameters
            )
            #expect(text == vector.stringToSign)
            let signature = RequestSignature.legacyAccessManagerSignature(
                secretKey: vector.secretKey,
                subscribeKey: lines[0],
                publishKey: lines[1],
                operation: lines[2],
                parameters: parameters
            )
            #expect(signature == vector.signature)
            #expect(signature.replacingOccurrences(of: "=", with: "%3D") == vector.signatureInUrl)
        case "3.4.2 publish signature (computed but never sent)":
            // `pub-c-x/sub-c-x/my-secret/demo/"hi"`: keys, secret, escaped channel and the message JSON.
            let parts = vector.stringToSign.split(separator: "/", maxSplits: 4).map(String.init)
            try #require(parts.count == 5)
            let computed = RequestSignature.legacyPublishSignatureComputed(
                secretKey: vector.secretKey,
                publishKey: parts[0],
                subscribeKey: parts[1],
                escapedChannel: parts[3],
                messageJSONText: parts[4]
            )
            #expect(parts[2] == vector.secretKey)
            #expect(computed == vector.computedValue)
            #expect(RequestSignature.legacyPublishSignatureSent == vector.valueActuallySentInPath)
        default:
            Issue.record("unhandled scheme \(vector.scheme)")
        }
    }

    /// The signature entries of `published_known_answers` (Python and JavaScript SDK test expectations).
    @Test(
        arguments: try CryptoVectors.load().publishedKnownAnswers.filter {
            MessageCryptorTests.signatureModesOfKnownAnswers.contains($0.mode)
        }
    )
    func publishedKnownAnswer(answer: PublishedKnownAnswer) throws {
        #expect(answer.verifiedHere)
        switch answer.mode {
        case "hmac_sha256_base64url":
            let mac = HMACSHA256.authenticate(try #require(answer.message), key: try #require(answer.key))
            #expect(Base64.encodeURLSafe(mac, padded: true) == answer.signature)
        case "pam_v2_signature":
            let parameters = try #require(answer.paramsUnencoded)
            let method = try #require(answer.method)
            let publishKey = try #require(answer.publishKey)
            let path = try #require(answer.path)
            let text = RequestSignature.v2StringToSign(
                method: method,
                publishKey: publishKey,
                path: path,
                parameters: parameters
            )
            #expect(text == answer.stringToSign)
            let signature = RequestSignature.v2Signature(
                secretKey: try #require(answer.secretKey),
                method: method,
                publishKey: publishKey,
                path: path,
                parameters: parameters
            )
            #expect(signature == answer.signature)
        default:
            Issue.record("unhandled mode \(answer.mode)")
        }
    }

    // MARK: - Encoding and ordering

    /// PAM encoding keeps only `A–Z a–z 0–9 - _ .` (docs/PROTOCOL.md §2.13.3); the 3.4 escaping also keeps `~` and `'`
    /// (docs/PROTOCOL.md §1.5).
    @Test(arguments: [
        ("abcXYZ019-_.", "abcXYZ019-_.", "abcXYZ019-_."),
        ("a b,c~d", "a%20b%2Cc%7Ed", "a%20b%2Cc~d"),
        ("ch/1'*!()", "ch%2F1%27%2A%21%28%29", "ch%2F1'%2A%21%28%29"),
        ("ü+=&?#%", "%C3%BC%2B%3D%26%3F%23%25", "%C3%BC%2B%3D%26%3F%23%25"),
        ("\"06UDjczkvAAYcqWfNwkOiQ==\"", "%2206UDjczkvAAYcqWfNwkOiQ%3D%3D%22", "%2206UDjczkvAAYcqWfNwkOiQ%3D%3D%22"),
    ])
    func percentEncodings(raw: String, pam: String, legacy: String) {
        #expect(RequestSignature.pamEncode(raw) == pam)
        #expect(RequestSignature.legacyPercentEscape(raw) == legacy)
    }

    /// Keys sort in byte order: uppercase before lowercase, `-` before letters, a prefix before its extensions.
    @Test func canonicalQuerySortsKeysByBytes() {
        let query = RequestSignature.canonicalQuery(["b": "2", "B": "1", "channel-group": "g", "channel": "c", "a": ""])
        #expect(query == "B=1&a=&b=2&channel=c&channel-group=g")
        #expect(RequestSignature.canonicalQuery([:]) == "")
    }

    /// 3.4.2 appends `?auth=…` to the signed publish path when an auth key is set (PNMessagePostRequest.m).
    @Test func legacyPublishSignatureWithAuthKey() {
        let withAuth = RequestSignature.legacyPublishSignatureComputed(
            secretKey: "my-secret",
            publishKey: "pub-c-x",
            subscribeKey: "sub-c-x",
            escapedChannel: "demo",
            messageJSONText: "\"hi\"",
            authKey: "user-key"
        )
        let mac = HMACSHA256.authenticate("pub-c-x/sub-c-x/my-secret/demo/\"hi\"?auth=user-key", key: "my-secret")
        #expect(withAuth == Hex.uppercase(mac.prefix(16)))
        #expect(withAuth.count == 32)
    }
}
