import Testing

@testable import PubNubLegacy

@Suite struct MD5Tests {
    /// RFC 1321 §A.5 test suite.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            "57edf4a22be3c955ac49da2e2107b67a"
        ),
    ])
    func rfc1321Suite(message: String, digest: String) {
        #expect(hex(MD5.hash(message)) == digest)
    }

    /// Messages of 55, 56, 63, 64 and 65 bytes straddle the padding and block boundaries; digests from RFC 1321's
    /// reference implementation (`md5sum`).
    @Test(arguments: [
        (55, "ef1772b6dff9a122358552954ad0df65"),
        (56, "3b0c8ac703f828b04c6c197006d17218"),
        (63, "b06521f39153d618550606be297466d5"),
        (64, "014842d480b571495a4a0363793f7367"),
        (65, "c743a45e0d2e6a95cb859adae0248435"),
    ])
    func boundaryLengths(length: Int, digest: String) {
        #expect(hex(MD5.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))) == digest)
    }

    /// The 3.3 key of cipher key `enigma` (Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json →
    /// `compat_3_3.leaf_vectors[].md5_key_hex`).
    @Test func compatibilityKeyOfEnigma() {
        #expect(hex(MD5.hash("enigma")) == "90954349a0e42d8e4426a4672bde16b9")
    }
}
