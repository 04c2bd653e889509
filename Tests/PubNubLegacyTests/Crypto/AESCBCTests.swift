import TestSupport
import Testing

@testable import PubNubLegacy

struct CBCKnownAnswer: Sendable, CustomTestStringConvertible {
    var name: String
    var key: String
    var ciphertext: String
    var testDescription: String { self.name }
}

/// F.2.1/F.2.2 (AES-128), F.2.3/F.2.4 (AES-192), F.2.5/F.2.6 (AES-256): each encrypt vector is also the decrypt
/// vector of the following section.
private let sp80038aCases: [CBCKnownAnswer] = [
    CBCKnownAnswer(
        name: "F.2.1/F.2.2 CBC-AES128",
        key: "2b7e151628aed2a6abf7158809cf4f3c",
        ciphertext: "7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e22229516" + "3ff1caa1681fac09120eca307586e1a7"
    ),
    CBCKnownAnswer(
        name: "F.2.3/F.2.4 CBC-AES192",
        key: "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        ciphertext: "4f021db243bc633d7178183a9fa071e8" + "b4d9ada9ad7dedf4e5e738763f69145a"
            + "571b242012fb7ae07fa9baac3df102e0" + "08b0e27988598881d920a9e64f5615cd"
    ),
    CBCKnownAnswer(
        name: "F.2.5/F.2.6 CBC-AES256",
        key: "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
        ciphertext: "f58c4c04d6e5f1ba779eabfb5f7bfbd6" + "9cfc4e967edb808d679f777bc6702c7d"
            + "39f23369a9d9bacfa530e26304231461" + "b2eb05e2c39be9fcda6c19078c6a9d1b"
    ),
]

@Suite struct AESCBCTests {
    /// NIST SP 800-38A Appendix F.2 (CBC), shared IV and plaintext.
    static let iv = "000102030405060708090a0b0c0d0e0f"
    static let plaintext =
        "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51" + "30c81c46a35ce411e5fbc1191a0a52ef"
        + "f69f2445df4f9b17ad2b417be66c3710"

    // MARK: - SP 800-38A known answers

    @Test(arguments: sp80038aCases)
    func sp80038aEncrypt(vector: CBCKnownAnswer) throws {
        let ciphertext = try AESCBC.encryptWithoutPadding(
            bytes(hex: AESCBCTests.plaintext),
            key: bytes(hex: vector.key),
            iv: bytes(hex: AESCBCTests.iv)
        )
        #expect(hex(ciphertext) == vector.ciphertext)
    }

    @Test(arguments: sp80038aCases)
    func sp80038aDecrypt(vector: CBCKnownAnswer) throws {
        let plaintext = try AESCBC.decryptWithoutPadding(
            bytes(hex: vector.ciphertext),
            key: bytes(hex: vector.key),
            iv: bytes(hex: AESCBCTests.iv)
        )
        #expect(hex(plaintext) == AESCBCTests.plaintext)
    }

    // MARK: - PKCS#7 padding

    /// The padded encryption equals the raw encryption of the plaintext with PKCS#7 padding appended by hand
    /// (RFC 5652 §6.3: 1…16 bytes, each equal to the padding length), and decryption strips it again.
    @Test(arguments: Array(0...48))
    func pkcs7PaddingAddsOneToSixteenBytes(length: Int) throws {
        var generator = SeededGenerator(seed: UInt64(length) &+ 1000)
        let key = generator.bytes(32)
        let iv = generator.bytes(16)
        let plaintext = generator.bytes(length)
        let padding = 16 - length % 16
        let padded = plaintext + [UInt8](repeating: UInt8(padding), count: padding)

        let ciphertext = try AESCBC.encrypt(plaintext, key: key, iv: iv)
        #expect(ciphertext.count == padded.count)
        #expect(ciphertext == (try AESCBC.encryptWithoutPadding(padded, key: key, iv: iv)))
        #expect(try AESCBC.decrypt(ciphertext, key: key, iv: iv) == plaintext)
    }

    /// Last blocks whose padding is malformed: zero, longer than a block, longer than the message, or with a byte
    /// that disagrees with the length. Each is built by encrypting the bad block without padding.
    @Test(arguments: [
        [UInt8](repeating: 0x41, count: 15) + [0x00],
        [UInt8](repeating: 0x41, count: 15) + [0x11],
        [UInt8](repeating: 0x41, count: 15) + [0xff],
        [UInt8](repeating: 0x41, count: 14) + [0x03, 0x02],
        [UInt8](repeating: 0x41, count: 13) + [0x02, 0x03, 0x03],
        [0x0f] + [UInt8](repeating: 0x10, count: 15),
        [UInt8](repeating: 0x10, count: 15) + [0x0f],
    ])
    func malformedPaddingIsRejected(lastBlock: [UInt8]) throws {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 9, count: 16)
        let ciphertext = try AESCBC.encryptWithoutPadding(lastBlock, key: key, iv: iv)
        #expect(throws: CryptoError.invalidPadding) {
            try AESCBC.decrypt(ciphertext, key: key, iv: iv)
        }
    }

    /// The extreme valid paddings: one `0x01` byte, and a whole block of `0x10` (empty plaintext).
    @Test func extremeValidPaddings() throws {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 9, count: 16)
        let one = try AESCBC.encryptWithoutPadding([UInt8](repeating: 0x41, count: 15) + [0x01], key: key, iv: iv)
        #expect(try AESCBC.decrypt(one, key: key, iv: iv) == [UInt8](repeating: 0x41, count: 15))
        let whole = try AESCBC.encryptWithoutPadding([UInt8](repeating: 0x10, count: 16), key: key, iv: iv)
        #expect(try AESCBC.decrypt(whole, key: key, iv: iv) == [])
    }

    // MARK: - Argument errors

    @Test(arguments: [0, 1, 15, 17, 31, 33])
    func ciphertextMustBeWholeNonEmptyBlocks(length: Int) {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 9, count: 16)
        #expect(throws: CryptoError.invalidCiphertextLength(length)) {
            try AESCBC.decrypt([UInt8](repeating: 0, count: length), key: key, iv: iv)
        }
    }

    @Test(arguments: [0, 15, 17, 32])
    func ivMustHaveSixteenBytes(length: Int) {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 9, count: length)
        #expect(throws: CryptoError.invalidIVLength(length)) { try AESCBC.encrypt([1, 2, 3], key: key, iv: iv) }
        #expect(throws: CryptoError.invalidIVLength(length)) {
            try AESCBC.decrypt([UInt8](repeating: 0, count: 16), key: key, iv: iv)
        }
    }

    @Test func rawModeRejectsPartialBlocks() {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 9, count: 16)
        #expect(throws: CryptoError.invalidCiphertextLength(17)) {
            try AESCBC.encryptWithoutPadding([UInt8](repeating: 0, count: 17), key: key, iv: iv)
        }
        #expect(throws: CryptoError.invalidCiphertextLength(5)) {
            try AESCBC.decryptWithoutPadding([UInt8](repeating: 0, count: 5), key: key, iv: iv)
        }
    }

    /// The expanded-key entry point writes the prefix (random IV or cryptor header) in front of the ciphertext, and
    /// decrypts from an unaligned position inside a larger buffer.
    @Test func prefixAndUnalignedInput() throws {
        let key = [UInt8](repeating: 3, count: 32)
        let iv = [UInt8](repeating: 5, count: 16)
        let cipher = try AES(key: key)
        let plaintext = bytes("an unaligned message of some length")
        let prefix: [UInt8] = [0xaa, 0xbb, 0xcc]
        let combined = plaintext.withUnsafeBytes {
            AESCBC.encrypt($0, cipher: cipher, iv: try! AESCBC.chainingValue(iv), prefix: prefix)
        }
        #expect(Array(combined.prefix(3)) == prefix)
        #expect(Array(combined.dropFirst(3)) == (try AESCBC.encrypt(plaintext, key: key, iv: iv)))
        let decrypted = try combined.withUnsafeBytes {
            try AESCBC.decrypt(
                UnsafeRawBufferPointer(rebasing: $0[3...]),
                cipher: cipher,
                iv: try AESCBC.chainingValue(iv)
            )
        }
        #expect(decrypted == plaintext)
    }
}
