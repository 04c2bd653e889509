import Testing

@testable import PubNubLegacy

@Suite struct CipherKeyDerivationTests {
    /// Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json → `key_derivation` (docs/CRYPTO.md §1.1, §2, §4.2).
    @Test(arguments: try CryptoVectors.load().keyDerivation)
    func sharedVectors(vector: KeyDerivationVector) {
        #expect(hex(bytes(vector.cipherKey)) == vector.cipherKeyUtf8Hex)
        #expect(hex(SHA256.hash(vector.cipherKey)) == vector.sha256Hex)

        let legacy = CipherKeyDerivation.legacyKey(vector.cipherKey)
        #expect(legacy.count == 32)
        #expect(String(decoding: legacy, as: UTF8.self) == vector.legacyAesKeyAscii)
        #expect(hex(legacy) == vector.legacyAesKeyBytesHex)

        #expect(hex(CipherKeyDerivation.acrhKey(vector.cipherKey)) == vector.acrhAesKeyBytesHex)
        #expect(hex(CipherKeyDerivation.compatibility33Key(vector.cipherKey)) == vector.md5KeyBytesHex33Compat)
    }
}
