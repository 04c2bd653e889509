import Foundation
import Testing

@testable import PubNubLegacy

/// The 3.3 backward-compatibility scheme (docs/CRYPTO.md §2): MD5 key, AES-128, fixed IV, string leaves encrypted one
/// by one.
@Suite struct MessageCryptorCompatibility33Tests {
    /// `compat_3_3.leaf_vectors`: each leaf is encrypted as its raw text (no JSON quotes).
    @Test(arguments: try CryptoVectors.load().compat33.leafVectors)
    func leafVectors(vector: Compatibility33LeafVector) throws {
        #expect(hex(CipherKeyDerivation.compatibility33Key(vector.cipherKey)) == vector.md5KeyHex)
        #expect(bytes(vector.ivAscii) == MessageCryptor.fixedIV)
        let cryptor = MessageCryptor(cipherKey: vector.cipherKey, mode: .compatibility33)
        #expect(cryptor.encryptPayload(bytes(vector.plaintextLeaf)) == vector.ciphertextB64)
        // A string message goes on the wire as one encrypted leaf in JSON quotes.
        let messageText = String(
            decoding: try JSONSerialization.data(withJSONObject: vector.plaintextLeaf, options: .fragmentsAllowed),
            as: UTF8.self
        )
        #expect(try cryptor.encrypt(messageJSONText: messageText).get() == "\"\(vector.ciphertextB64)\"")
        // Decrypted leaves are not JSON-parsed: the raw string comes back.
        let value = try cryptor.decrypt(wireValue: vector.ciphertextB64).get()
        #expect(value as? String == vector.plaintextLeaf)
    }

    /// `compat_3_3.object_vector`: arrays and dictionaries keep their structure and keys.
    @Test func objectVector() throws {
        let vector = try CryptoVectors.load().compat33.objectVector
        let cryptor = MessageCryptor(cipherKey: vector.cipherKey, mode: .compatibility33)
        let messageText = vector.jsonValue.description
        let wire = try cryptor.encrypt(messageJSONText: messageText).get()
        #expect(try JSONValue(parsing: wire) == vector.encryptedJsonValue)

        let decrypted = try cryptor.decrypt(wireValue: try vector.encryptedJsonValue.foundation).get()
        #expect(try JSONValue(foundation: decrypted) == vector.jsonValue)
    }

    /// Numbers, booleans and null stay in place unencrypted, and the elements after them are kept (3.4.2 dropped
    /// them, docs/CRYPTO.md §2 [INF]); nested strings are encrypted and decrypted.
    @Test func nonStringLeavesAreKept() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .compatibility33)
        let message = "[1,\"seven\",true,null,{\"n\":2.5,\"drink\":\"Coffee\",\"list\":[\"eight\",false]}]"
        let wire = try JSONValue(parsing: try cryptor.encrypt(messageJSONText: message).get())
        #expect(
            wire
                == .array([
                    .number(1), .string("0ZRaiDryY0rdklgVVU80pQ=="), .bool(true), .null,
                    .object([
                        "n": .number(2.5), "drink": .string("vJYgOIZdbL4rRqdigAcujA=="),
                        "list": .array([.string("Ti5YyHCCUEjg/op0Zm393w=="), .bool(false)]),
                    ]),
                ])
        )
        let decrypted = try cryptor.decrypt(wireValue: try wire.foundation).get()
        #expect(try JSONValue(foundation: decrypted) == JSONValue(parsing: message))
    }

    /// A bare number, boolean or null has no string leaf: sent in clear it would reach every 3.3 reader (this one
    /// included) as `DECRYPTION_ERROR`, so it is refused before sending. Found by the `client-decrypt` fuzz target.
    /// Inside a container such values stay in clear and come back as they were.
    @Test func scalarMessagesAreRefusedAndNestedOnesKept() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .compatibility33)
        #expect(cryptor.encrypt(messageJSONText: "42") == .failure(.scalarMessageIn33Scheme("number or boolean")))
        #expect(cryptor.encrypt(messageJSONText: "false") == .failure(.scalarMessageIn33Scheme("number or boolean")))
        #expect(cryptor.encrypt(messageJSONText: "null") == .failure(.scalarMessageIn33Scheme("null")))
        let wire = try cryptor.encrypt(messageJSONText: "[42,false,null,\"seven\"]").get()
        #expect(wire.hasPrefix("[42,false,null,\""))
        let value = try JSONSerialization.jsonObject(with: Data(wire.utf8), options: .fragmentsAllowed)
        let decrypted = try cryptor.decrypt(wireValue: value).get()
        #expect(try JSONValue(foundation: decrypted) == JSONValue(parsing: "[42,false,null,\"seven\"]"))
    }

    @Test func invalidMessageTextIsAnError() {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .compatibility33)
        #expect(cryptor.encrypt(messageJSONText: "{not json") == .failure(.messageNotJSON))
    }

    /// One undecryptable leaf fails the whole message (3.4.2 replaced it with `DECRYPTION_ERROR`).
    @Test func oneBadLeafFailsTheMessage() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .compatibility33)
        let wire = try JSONValue(parsing: "[\"0ZRaiDryY0rdklgVVU80pQ==\",\"not base64!\"]").foundation
        #expect(MessageCryptorTests.failure(of: cryptor.decrypt(wireValue: wire)) == .invalidBase64)
        let wrongKey = MessageCryptor(cipherKey: "other", mode: .compatibility33)
        let good = try JSONValue(parsing: "{\"a\":\"0ZRaiDryY0rdklgVVU80pQ==\"}").foundation
        #expect(MessageCryptorTests.failure(of: wrongKey.decrypt(wireValue: good)) != nil)
    }

    /// The 3.3 and 3.4 schemes are not interchangeable: a 3.4 payload is not a 3.3 payload.
    @Test func standardPayloadIsNotACompatibilityPayload() {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .compatibility33)
        // `"Hello World"` under the 3.4 standard (docs/CRYPTO.md §1.3).
        #expect(cryptor.decryptPayload("06UDjczkvAAYcqWfNwkOiQ==") == .failure(.invalidPadding))
    }
}
