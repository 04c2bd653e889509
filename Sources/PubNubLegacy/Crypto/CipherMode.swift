// Which PubNub encryption scheme a client with a cipher key uses (docs/CRYPTO.md §1–§3). 3.4.2 chose between the 3.4
// standard and the 3.3 scheme only at compile time (`CRYPTO_BACKWARD_COMPATIBILITY_MODE`); this package keeps that
// compile condition as the default and also lets a configuration choose at run time (docs/DESIGN.md §7).

/// The message-encryption scheme.
enum CipherMode: Sendable, Equatable, CaseIterable {
    /// The 3.4 standard: AES-256-CBC, key from the SHA-256 hex of the cipher key, fixed IV `0123456789012345`,
    /// the whole JSON text encrypted and sent as a base64 JSON string (docs/CRYPTO.md §1).
    case standard
    /// The 3.3 scheme: AES-128-CBC with the MD5 of the cipher key and the fixed IV, applied to each string leaf of
    /// the message separately (docs/CRYPTO.md §2). Only 3.3 clients and 3.4.2 compat builds speak it.
    case compatibility33
    /// The standard key and cipher with a fresh random IV sent in front of the ciphertext (docs/CRYPTO.md §3), as
    /// current SDKs' legacy cryptor writes by default.
    case randomIV

    /// The mode a client uses when its configuration does not choose one: `.compatibility33` when the package is
    /// built with the `CRYPTO_BACKWARD_COMPATIBILITY_MODE` trait or `-D` condition (as 3.4.2 was), `.standard`
    /// otherwise.
    static var buildDefault: CipherMode {
        #if CRYPTO_BACKWARD_COMPATIBILITY_MODE
        return .compatibility33
        #else
        return .standard
        #endif
    }
}
