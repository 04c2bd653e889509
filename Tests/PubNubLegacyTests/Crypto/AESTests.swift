import TestSupport
import Testing

@testable import PubNubLegacy

@Suite struct AESTests {
    /// FIPS 197 Appendix C.1–C.3: plaintext 00112233…eeff under keys 000102…, one block each way.
    @Test(arguments: [
        ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
        ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
        ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"),
    ])
    func fips197AppendixC(key: String, ciphertext: String) throws {
        let cipher = try AES(key: bytes(hex: key))
        let plaintext = bytes(hex: "00112233445566778899aabbccddeeff")
        #expect(hex(cipher.encryptBlock(plaintext)) == ciphertext)
        #expect(cipher.decryptBlock(bytes(hex: ciphertext)) == plaintext)
    }

    /// FIPS 197 Appendix A.1–A.3: key schedule length, and the first derived and the last word of each expansion.
    @Test(arguments: [
        ("2b7e151628aed2a6abf7158809cf4f3c", 10, UInt32(0xa0fa_fe17), UInt32(0xb663_0ca6)),
        ("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", 12, UInt32(0xfe0c_91f7), UInt32(0x0100_2202)),
        (
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", 14, UInt32(0x9ba3_5411),
            UInt32(0x706c_631e)
        ),
    ])
    func fips197KeyExpansion(key: String, rounds: Int, firstDerived: UInt32, last: UInt32) throws {
        let keyBytes = bytes(hex: key)
        let cipher = try AES(key: keyBytes)
        #expect(cipher.rounds == rounds)
        #expect(cipher.encryptionKeys.count == 4 * (rounds + 1))
        #expect(cipher.encryptionKeys[keyBytes.count / 4] == firstDerived)
        #expect(cipher.encryptionKeys.last == last)
        // The inverse schedule starts with the last round key and ends with the cipher key.
        #expect(Array(cipher.decryptionKeys.prefix(4)) == Array(cipher.encryptionKeys.suffix(4)))
        #expect(Array(cipher.decryptionKeys.suffix(4)) == Array(cipher.encryptionKeys.prefix(4)))
    }

    @Test(arguments: [0, 1, 15, 17, 23, 25, 31, 33, 64])
    func rejectsKeysOfOtherLengths(length: Int) {
        #expect(throws: CryptoError.invalidKeyLength(length)) {
            try AES(key: [UInt8](repeating: 1, count: length))
        }
    }

    /// Decryption inverts encryption on pseudo-random blocks for every key size.
    @Test(arguments: [16, 24, 32])
    func decryptInvertsEncrypt(keyLength: Int) throws {
        var generator = SeededGenerator(seed: UInt64(keyLength))
        let cipher = try AES(key: generator.bytes(keyLength))
        for _ in 0..<200 {
            let block = generator.bytes(16)
            let encrypted = cipher.encryptBlock(block)
            #expect(encrypted != block)
            #expect(cipher.decryptBlock(encrypted) == block)
        }
    }
}
