import Testing

@testable import PubNubLegacy

@Suite struct SHA256Tests {
    /// FIPS 180-4 examples (NIST "Example Algorithms", SHA256.pdf, and FIPS 180-2 Appendix B): "abc", the 448-bit
    /// and 896-bit messages. The 896-bit message is the SHA-512 example text, whose SHA-256 digest NIST also lists.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                + "nopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ])
    func fipsExamples(message: String, digest: String) {
        #expect(hex(SHA256.hash(message)) == digest)
    }

    /// FIPS 180-2 Appendix B.3: one million repetitions of "a".
    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json → `sha256`.
    @Test(arguments: try CryptoVectors.load().sha256)
    func sharedVectors(vector: SHA256Vector) {
        #expect(hex(SHA256.hash(vector.inputUtf8)) == vector.sha256Hex)
    }

    /// Feeding the message in pieces of every size from 1 to 130 bytes gives the one-shot digest: the block
    /// buffering is exercised around the 64-byte block and the 56-byte padding boundary.
    @Test func incrementalUpdatesMatchOneShot() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 300] {
            let expected = SHA256.hash(message[0..<length])
            for piece in 1...130 {
                var hasher = SHA256()
                var start = 0
                while start < length {
                    let end = min(start + piece, length)
                    hasher.update(message[start..<end])
                    start = end
                }
                #expect(hasher.finalize() == expected, "length \(length), pieces of \(piece)")
            }
        }
    }

    /// A lazily generated (non-contiguous) sequence is accepted and hashed like its array.
    @Test func nonContiguousSequence() {
        let lazy = (0..<200).lazy.map { UInt8(truncatingIfNeeded: $0) }
        #expect(SHA256.hash(lazy) == SHA256.hash(Array(lazy)))
    }
}
