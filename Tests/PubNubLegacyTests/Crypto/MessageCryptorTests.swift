import Foundation
import Testing

@testable import PubNubLegacy

/// The PubNub schemes against Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json (docs/CRYPTO.md §1, §3, §4, §6). The
/// 3.3 scheme is in `MessageCryptorCompatibility33Tests`, round trips and failures in `MessageCryptorRoundTripTests`.
@Suite struct MessageCryptorTests {
    /// Parses a vector's `wire_json` into the value a subscribe response would carry.
    static func wireValue(_ wireJSON: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(wireJSON.utf8), options: .fragmentsAllowed)
    }

    // MARK: - 3.4 standard, fixed IV (docs/CRYPTO.md §1)

    /// `legacy_fixed_iv`: byte-exact encryption of the serialized plaintext, the JSON-string wire form, and
    /// decryption back to the same JSON value.
    @Test(arguments: try CryptoVectors.load().legacyFixedIv.vectors)
    func legacyFixedIV(vector: LegacyFixedIVVector) throws {
        let cryptor = MessageCryptor(cipherKey: vector.cipherKey, mode: .standard)
        let plaintext = bytes(vector.plaintextSerialized)
        #expect(plaintext.count == vector.plaintextUtf8Len)
        #expect(bytes(vector.ivAscii) == MessageCryptor.fixedIV)

        #expect(cryptor.encryptPayload(plaintext) == vector.ciphertextB64)
        #expect(try cryptor.encrypt(messageJSONText: vector.plaintextSerialized).get() == vector.wireJson)

        let decrypted = try cryptor.decryptPayload(vector.ciphertextB64).get()
        #expect(decrypted == .init(text: vector.plaintextSerialized, isJSON: true, format: .fixedIV))
        let value = try cryptor.decrypt(wireValue: try Self.wireValue(vector.wireJson)).get()
        #expect(try JSONValue(foundation: value) == vector.jsonValue)

        // A 3.4.2-style reader (no IV fallback) and a random-IV reader (fallback to fixed) agree.
        let strict = MessageCryptor(cipherKey: vector.cipherKey, mode: .standard, acceptsEitherIVLayout: false)
        #expect(try strict.decryptPayload(vector.ciphertextB64).get().text == vector.plaintextSerialized)
        let randomIVReader = MessageCryptor(cipherKey: vector.cipherKey, mode: .randomIV)
        #expect(try randomIVReader.decryptPayload(vector.ciphertextB64).get() == decrypted)
    }

    /// The publish path segments of `legacy_fixed_iv`: for base64 text in JSON quotes, the 3.4 escaping
    /// (`percentEscapedString`) and the Python SDK's `url_encode` produce the same characters (docs/PROTOCOL.md §1.5).
    @Test(arguments: try CryptoVectors.load().legacyFixedIv.vectors)
    func legacyFixedIVPublishPathSegments(vector: LegacyFixedIVVector) {
        #expect(RequestSignature.legacyPercentEscape(vector.wireJson) == vector.publishPathSegment34)
        #expect(RequestSignature.legacyPercentEscape(vector.wireJson) == vector.publishPathSegmentPython)
    }

    /// The `string_1KiB` plaintext can be regenerated: `"PubNub 1KiB payload "` repeated, cut to 1022 characters,
    /// in JSON quotes; `plaintext_sha256_hex` is its digest (vector file `_meta.notes`).
    @Test func oneKiBPlaintextIsRegenerable() throws {
        let vector = try #require(
            try CryptoVectors.load().legacyFixedIv.vectors.first {
                $0.label == "string_1KiB" && $0.cipherKey == "enigma"
            }
        )
        let text = String(String(repeating: "PubNub 1KiB payload ", count: 52).prefix(1022))
        #expect(vector.jsonValue == .string(text))
        #expect("\"\(text)\"" == vector.plaintextSerialized)
        #expect(hex(SHA256.hash(vector.plaintextSerialized)) == vector.plaintextSha256Hex)
    }

    // MARK: - Random IV (docs/CRYPTO.md §3)

    /// `legacy_random_iv`: base64(IV ‖ ciphertext) with the given IV, decrypted by a random-IV reader and, through
    /// the IV fallback, by a standard reader.
    @Test(arguments: try CryptoVectors.load().legacyRandomIv.vectors)
    func legacyRandomIV(vector: LegacyRandomIVVector) throws {
        let iv = bytes(hex: vector.ivHex)
        if let ascii = vector.ivAscii {
            #expect(bytes(ascii) == iv)
        }
        let cryptor = MessageCryptor(cipherKey: vector.cipherKey, mode: .randomIV)
        let payload = cryptor.encryptRandomIVPayload(bytes(vector.plaintextSerialized), iv: iv)
        #expect(payload == vector.ivPlusCiphertextB64)
        #expect(Base64.encode(Array(try Base64.decode(payload).dropFirst(16))) == vector.ciphertextOnlyB64)
        #expect("\"\(payload)\"" == vector.wireJson)

        let expected = MessageCryptor.DecryptedPayload(
            text: vector.plaintextSerialized,
            isJSON: true,
            format: .randomIV
        )
        #expect(try cryptor.decryptPayload(vector.ivPlusCiphertextB64).get() == expected)
        let value = try cryptor.decrypt(wireValue: try Self.wireValue(vector.wireJson)).get()
        #expect(try JSONValue(foundation: value) == vector.jsonValue)

        let standardReader = MessageCryptor(cipherKey: vector.cipherKey, mode: .standard)
        #expect(try standardReader.decryptPayload(vector.ivPlusCiphertextB64).get() == expected)
    }

    /// A fixed-IV reader without fallback (what 3.4.2 was) cannot read random-IV payloads: the IV block decrypts to
    /// junk that is not UTF-8 (docs/CRYPTO.md §3, `decryption_failures`).
    @Test(arguments: try CryptoVectors.load().legacyRandomIv.vectors)
    func legacyRandomIVIsUnreadableWithoutFallback(vector: LegacyRandomIVVector) {
        let strict = MessageCryptor(cipherKey: vector.cipherKey, mode: .standard, acceptsEitherIVLayout: false)
        #expect(strict.decryptPayload(vector.ivPlusCiphertextB64) == .failure(.invalidUTF8))
    }

    /// Every random-IV encryption draws a fresh IV, and each payload still decrypts.
    @Test func randomIVsDiffer() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .randomIV)
        let payloads = (0..<50).map { _ in cryptor.encryptPayload(bytes("\"same message\"")) }
        #expect(Set(payloads).count == payloads.count)
        for payload in payloads {
            #expect(try cryptor.decryptPayload(payload).get().text == "\"same message\"")
        }
    }

    // MARK: - Cryptor header, ACRH (docs/CRYPTO.md §4)

    /// `cryptor_header_acrh`: the payload a current SDK's `AesCbcCryptoModule` writes, read in every mode.
    @Test(arguments: try CryptoVectors.load().cryptorHeaderAcrh.vectors)
    func cryptorHeaderACRH(vector: CryptorHeaderVector) throws {
        let iv = bytes(hex: vector.ivHex)
        let writer = MessageCryptor(cipherKey: vector.cipherKey, mode: .standard)
        #expect(writer.encryptCryptorHeaderPayload(bytes(vector.plaintextSerialized), iv: iv) == vector.payloadB64)
        #expect("\"\(vector.payloadB64)\"" == vector.wireJson)

        let expected = MessageCryptor.DecryptedPayload(
            text: vector.plaintextSerialized,
            isJSON: true,
            format: .cryptorHeaderACRH
        )
        for mode in CipherMode.allCases {
            for fallback in [true, false] {
                let reader = MessageCryptor(cipherKey: vector.cipherKey, mode: mode, acceptsEitherIVLayout: fallback)
                #expect(try reader.decryptPayload(vector.payloadB64).get() == expected, "mode \(mode)")
                let value = try reader.decrypt(wireValue: try Self.wireValue(vector.wireJson)).get()
                #expect(try JSONValue(foundation: value) == vector.jsonValue, "mode \(mode)")
            }
        }
    }

    @Test func cryptorHeaderWithUnknownCryptorOrVersionOrBadIV() {
        let cryptor = MessageCryptor(cipherKey: "enigma")
        let ciphertext = [UInt8](repeating: 0x42, count: 16)
        let unknownCryptor = bytes("PNED") + [1] + bytes("XXXX") + [16] + [UInt8](repeating: 0, count: 16) + ciphertext
        #expect(cryptor.decryptPayload(Base64.encode(unknownCryptor)) == .failure(.unknownCryptor("XXXX")))
        let futureVersion = bytes("PNED") + [2] + bytes("ACRH") + [16] + [UInt8](repeating: 0, count: 16) + ciphertext
        #expect(cryptor.decryptPayload(Base64.encode(futureVersion)) == .failure(.unknownCryptorHeaderVersion(2)))
        let shortIV = bytes("PNED") + [1] + bytes("ACRH") + [8] + [UInt8](repeating: 0, count: 8) + ciphertext
        #expect(cryptor.decryptPayload(Base64.encode(shortIV)) == .failure(.malformedCryptorHeader))
        // Python: "an empty payload after the header is a decryption error" (docs/CRYPTO.md §4.1).
        let noCiphertext = bytes("PNED") + [1] + bytes("ACRH") + [16] + [UInt8](repeating: 0, count: 16)
        #expect(cryptor.decryptPayload(Base64.encode(noCiphertext)) == .failure(.invalidCiphertextLength(0)))
    }

    // MARK: - Decryption failures (docs/CRYPTO.md §1.5)

    /// The error each `decryption_failures` case must produce in a fixed-IV reader without IV fallback (a 3.4.2-style
    /// client), and in the default reader. The default reader recovers the random-IV payload: docs/DESIGN.md §7 allows
    /// `DECRYPTION_ERROR` only when a payload really cannot be decrypted, and docs/CRYPTO.md §4.4 recommends the retry.
    static let expectedFailures: [String: (strict: CryptoError, default: CryptoError?)] = [
        "wrong cipher key": (.invalidPadding, .invalidPadding),
        "message is not a string": (.unexpectedWireValue("object"), .unexpectedWireValue("object")),
        "not base64": (.invalidBase64, .invalidBase64),
        "ciphertext length not a multiple of 16": (.invalidCiphertextLength(15), .invalidCiphertextLength(15)),
        "random-IV ciphertext read by a fixed-IV client": (.invalidUTF8, nil),
    ]

    @Test(arguments: try CryptoVectors.load().decryptionFailures)
    func decryptionFailures(vector: DecryptionFailureVector) throws {
        let expected = try #require(Self.expectedFailures[vector.case], "no expectation for case \(vector.case)")
        let wire = try Self.wireValue(vector.wireJson)

        let strict = MessageCryptor(
            cipherKey: vector.cipherKeyUsedToDecrypt,
            mode: .standard,
            acceptsEitherIVLayout: false
        )
        #expect(MessageCryptorTests.failure(of: strict.decrypt(wireValue: wire)) == expected.strict)

        let reader = MessageCryptor(cipherKey: vector.cipherKeyUsedToDecrypt, mode: .standard)
        if let failure = expected.default {
            #expect(MessageCryptorTests.failure(of: reader.decrypt(wireValue: wire)) == failure)
        } else {
            #expect(try JSONValue(foundation: reader.decrypt(wireValue: wire).get()) == .string("yay!"))
        }

        // With the right key the "wrong key" payload is fine: the failure is the key's, not the payload's.
        if let encryptingKey = vector.cipherKeyUsedToEncrypt {
            let owner = MessageCryptor(cipherKey: encryptingKey, mode: .standard)
            #expect((try? owner.decrypt(wireValue: wire).get()) != nil)
        }
    }

    static func failure(of result: Result<Any, CryptoError>) -> CryptoError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    // MARK: - Published known answers (docs/CRYPTO.md §6)

    static let cipherModesOfKnownAnswers = ["legacy_fixed_iv", "legacy_random_iv", "cryptor_header_acrh", "compat_3_3"]
    static let signatureModesOfKnownAnswers = ["hmac_sha256_base64url", "pam_v2_signature"]

    /// Every mode in `published_known_answers` is checked by this suite or by `RequestSignatureTests`.
    @Test func everyKnownAnswerModeIsCovered() throws {
        let modes = Set(try CryptoVectors.load().publishedKnownAnswers.map(\.mode))
        #expect(modes == Set(Self.cipherModesOfKnownAnswers + Self.signatureModesOfKnownAnswers))
    }

    /// Encryption vectors from PubNub's own test suites (ObjC 3.4.2, C#, PHP, Python), each re-encrypted byte for
    /// byte and decrypted back. Some encrypt raw text instead of JSON; those decrypt to plain text.
    @Test(
        arguments: try CryptoVectors.load().publishedKnownAnswers.filter {
            Self.cipherModesOfKnownAnswers.contains($0.mode)
        }
    )
    func publishedKnownAnswer(answer: PublishedKnownAnswer) throws {
        #expect(answer.verifiedHere)
        let key = try #require(answer.cipherKey)
        switch answer.mode {
        case "legacy_fixed_iv":
            let plaintext = try #require(answer.plaintextSerialized)
            let cryptor = MessageCryptor(cipherKey: key, mode: .standard)
            #expect(cryptor.encryptPayload(bytes(plaintext)) == answer.ciphertextB64)
            #expect(try cryptor.decryptPayload(try #require(answer.ciphertextB64)).get().text == plaintext)
        case "legacy_random_iv":
            let plaintext = try #require(answer.plaintextSerialized)
            let iv = bytes(try #require(answer.ivAscii))
            let cryptor = MessageCryptor(cipherKey: key, mode: .randomIV)
            #expect(cryptor.encryptRandomIVPayload(bytes(plaintext), iv: iv) == answer.payloadB64)
            #expect(try cryptor.decryptPayload(try #require(answer.payloadB64)).get().text == plaintext)
        case "cryptor_header_acrh":
            let plaintext = try #require(answer.plaintextSerialized)
            let iv = bytes(hex: try #require(answer.ivHex))
            let cryptor = MessageCryptor(cipherKey: key, mode: .standard)
            #expect(cryptor.encryptCryptorHeaderPayload(bytes(plaintext), iv: iv) == answer.payloadB64)
            let decrypted = try cryptor.decryptPayload(try #require(answer.payloadB64)).get()
            #expect(decrypted == .init(text: plaintext, isJSON: false, format: .cryptorHeaderACRH))
        case "compat_3_3":
            let leaf = try #require(answer.plaintextLeaf)
            let cryptor = MessageCryptor(cipherKey: key, mode: .compatibility33)
            #expect(cryptor.encryptPayload(bytes(leaf)) == answer.ciphertextB64)
            #expect(try cryptor.decryptPayload(try #require(answer.ciphertextB64)).get().text == leaf)
        default:
            Issue.record("unhandled mode \(answer.mode)")
        }
    }

    /// Plaintext that is text but not JSON (C#'s `TestYayEncryptionBasic` encrypts the bare `yay!`) is delivered as
    /// that text rather than as a decryption error.
    @Test func nonJSONPlaintextIsDeliveredAsText() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .standard)
        let decrypted = try cryptor.decryptPayload("q/xJqqN6qbiZMXYmiQC1Fw==").get()
        #expect(decrypted == .init(text: "yay!", isJSON: false, format: .fixedIV))
        let value = try cryptor.decrypt(wireValue: "q/xJqqN6qbiZMXYmiQC1Fw==").get()
        #expect(value as? String == "yay!")
    }
}
