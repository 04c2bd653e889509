import Foundation
import Testing

@testable import PubNubLegacy

/// `MessageCipher`, the cipher a configuration's cipher key gives (the benchmark times it): the spec's vectors in the
/// 3.4 standard scheme, and no cipher without a key.
@Suite struct MessageCipherTests {
    private func configuration(cipherKey: String?) -> PNConfiguration {
        PNConfiguration(
            origin: "127.0.0.1",
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: nil,
            cipherKey: cipherKey
        )
    }

    @Test func noCipherKeyGivesNoCipher() {
        #expect(MessageCipher(configuration: self.configuration(cipherKey: nil)) == nil)
        #expect(MessageCipher(configuration: self.configuration(cipherKey: "")) == nil)
    }

    @Test func fixedIVVectorsEncryptToTheirWireTextAndBack() throws {
        // An empty cipher key means no encryption for a client (covered above), so its vectors do not apply.
        let vectors = try CryptoVectors.load().legacyFixedIv.vectors.filter { !$0.cipherKey.isEmpty }
        #expect(!vectors.isEmpty)
        for vector in vectors {
            let cipher = try #require(MessageCipher(configuration: self.configuration(cipherKey: vector.cipherKey)))
            #expect(cipher.encrypt(messageJSONText: vector.plaintextSerialized) == vector.wireJson, "\(vector)")
            let value = try #require(cipher.decrypt(vector.ciphertextB64), "\(vector)")
            let text = try JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
            let decoded = try JSONDecoder().decode([JSONValue].self, from: text)
            #expect(decoded == [vector.jsonValue], "\(vector)")
        }
    }

    @Test func undecryptablePayloadsGiveNil() throws {
        let cipher = try #require(MessageCipher(configuration: self.configuration(cipherKey: "enigma")))
        #expect(cipher.decrypt("not base64!") == nil)
        #expect(cipher.decrypt("") == nil)
        #expect(cipher.decrypt(42) == nil)
        // Valid base64 and block length, wrong key: the padding check fails.
        let other = try #require(MessageCipher(configuration: self.configuration(cipherKey: "another key")))
        let wire = try #require(other.encrypt(messageJSONText: "\"Hello World\""))
        #expect(cipher.decrypt(String(wire.dropFirst().dropLast())) as? String != "Hello World")
    }
}
