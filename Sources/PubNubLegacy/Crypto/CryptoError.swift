// Why an encryption or decryption failed. The client maps every decryption failure to the 3.4 surface value
// `DECRYPTION_ERROR` (docs/CRYPTO.md §1.5); the precise case is for logs and tests.

/// A failure of the crypto layer. Never raised for valid input produced by a PubNub peer with the same key and mode.
enum CryptoError: Error, Equatable, Sendable {
    /// An AES key was not 16, 24 or 32 bytes long (a caller bug, not a wire condition).
    case invalidKeyLength(Int)
    /// A CBC initialization vector was not 16 bytes long.
    case invalidIVLength(Int)
    /// Ciphertext was empty or not a whole number of 16-byte blocks, or too short to carry its random IV.
    case invalidCiphertextLength(Int)
    /// PKCS#7 padding was missing or inconsistent: typically the wrong cipher key.
    case invalidPadding
    /// The text was not standard base64 (RFC 4648 §4 alphabet, `=` padding to a multiple of 4, nothing else).
    case invalidBase64
    /// The wire payload was an empty string.
    case emptyPayload
    /// The decrypted bytes were not UTF-8 text: wrong key, wrong IV layout, or corrupted data.
    case invalidUTF8
    /// The received message had a JSON type the configured mode never produces (e.g. a dictionary in the 3.4
    /// standard mode, a number in 3.3 mode), so it was not encrypted by a peer with this configuration.
    case unexpectedWireValue(String)
    /// A `PNED` cryptor header carried a version this client does not know (only version 1 exists).
    case unknownCryptorHeaderVersion(UInt8)
    /// A `PNED` cryptor header named a cryptor other than `ACRH`.
    case unknownCryptor(String)
    /// A `PNED` cryptor header was cut short or its cryptor data had the wrong size.
    case malformedCryptorHeader
    /// The message to encrypt in 3.3 mode was not valid JSON text, so its string leaves could not be found.
    case messageNotJSON
    /// The message to encrypt in 3.3 mode was a bare number, boolean or null (the associated value names it). The
    /// scheme encrypts string leaves only, so it would go out in clear, and every 3.3 reader — this client's
    /// included — takes such a message for `DECRYPTION_ERROR`.
    case scalarMessageIn33Scheme(String)
}
