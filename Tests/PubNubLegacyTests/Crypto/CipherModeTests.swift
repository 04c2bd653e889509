import Testing

@testable import PubNubLegacy

@Suite struct CipherModeTests {
    /// 3.4.2 selected the 3.3 scheme with the `CRYPTO_BACKWARD_COMPATIBILITY_MODE` compile flag (docs/CRYPTO.md §2);
    /// the same condition picks the default here. Run the suite with `-Xswiftc -DCRYPTO_BACKWARD_COMPATIBILITY_MODE` to
    /// check the other branch.
    @Test func buildDefaultFollowsTheCompileCondition() {
        #if CRYPTO_BACKWARD_COMPATIBILITY_MODE
        #expect(CipherMode.buildDefault == .compatibility33)
        #expect(MessageCryptor(cipherKey: "enigma").mode == .compatibility33)
        #else
        #expect(CipherMode.buildDefault == .standard)
        #expect(MessageCryptor(cipherKey: "enigma").mode == .standard)
        #endif
    }
}
