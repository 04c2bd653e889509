// How each PubNub scheme turns the user's cipher-key string into AES key bytes. Three different rules exist and a
// mix-up between them is the classic interop bug, so they live side by side here.

/// Cipher-key string → AES key bytes, per scheme.
enum CipherKeyDerivation {
    /// The 3.4 standard and the legacy random-IV scheme (docs/CRYPTO.md §1.1): the ASCII bytes of the first 32
    /// lowercase hex characters of SHA-256(UTF-8 key). A 32-byte key, so the cipher is AES-256 although only 128 bits
    /// of the digest are used — 3.4.2's hex formatter only printed half the digest.
    static func legacyKey(_ cipherKey: String) -> [UInt8] {
        let digest = SHA256.hash(cipherKey)
        return Array(Hex.lowercase(digest[0..<16]).utf8)
    }

    /// The `ACRH` cryptor of current SDKs (docs/CRYPTO.md §4.2): the raw 32-byte SHA-256 of the UTF-8 key (AES-256).
    static func acrhKey(_ cipherKey: String) -> [UInt8] {
        SHA256.hash(cipherKey)
    }

    /// The 3.3 backward-compatibility scheme (docs/CRYPTO.md §2): the raw 16-byte MD5 of the UTF-8 key (AES-128).
    static func compatibility33Key(_ cipherKey: String) -> [UInt8] {
        MD5.hash(cipherKey)
    }
}
