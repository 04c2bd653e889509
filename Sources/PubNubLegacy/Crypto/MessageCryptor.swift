import Foundation

// Encrypts outgoing messages and decrypts incoming ones for a client that has a cipher key (docs/CRYPTO.md). Publish
// calls `encrypt(messageJSONText:)`; the subscribe and history parsers call `decrypt(wireValue:)` and turn a failure
// into the 3.4 surface value `DECRYPTION_ERROR` (docs/CRYPTO.md §1.5) — that mapping is theirs, not this type's.

/// The cipher of one client configuration: a cipher key and a `CipherMode`, with all AES keys expanded once.
/// Immutable, so one value can be shared by every queue of the client.
struct MessageCryptor: Sendable {
    /// The IV of the 3.4 standard and the 3.3 scheme: the 16 ASCII bytes `0123456789012345` (docs/CRYPTO.md §1.2).
    static let fixedIV: [UInt8] = Array("0123456789012345".utf8)

    /// How one successfully decrypted payload was laid out.
    enum PayloadFormat: Equatable, Sendable {
        /// Legacy payload, fixed IV (3.4 standard, docs/CRYPTO.md §1).
        case fixedIV
        /// Legacy payload, random IV in its first 16 bytes (docs/CRYPTO.md §3).
        case randomIV
        /// `PNED` header with the `ACRH` cryptor (docs/CRYPTO.md §4).
        case cryptorHeaderACRH
        /// One string leaf of the 3.3 scheme (docs/CRYPTO.md §2).
        case compatibility33
    }

    /// The plaintext of one base64 payload.
    struct DecryptedPayload: Equatable, Sendable {
        /// The decrypted text (valid UTF-8).
        var text: String
        /// Whether `text` is JSON. Peers encrypt the JSON serialization of a message, but some older SDKs encrypted
        /// raw text; such text is delivered as a string rather than treated as a failure.
        var isJSON: Bool
        /// Which layout decrypted successfully.
        var format: PayloadFormat
    }

    /// The configured scheme; it decides how messages are encrypted and which layout is tried first.
    let mode: CipherMode
    /// Whether a legacy payload that does not decrypt to text in the configured IV layout (fixed or random) is read
    /// in the other one. On by default, because the Python SDK writes random IVs unless told otherwise, and
    /// docs/DESIGN.md §7 reserves `DECRYPTION_ERROR` for payloads that really cannot be decrypted. A 3.4.2 client
    /// behaved as if this were off.
    let acceptsEitherIVLayout: Bool

    private let legacyCipher: AES
    private let acrhCipher: AES
    private let compatibilityCipher: AES
    private static let fixedChainingValue = AES.Block(loading: MessageCryptor.fixedIV)

    /// Derives and expands every key the scheme family needs from `cipherKey` (UTF-8, any length, empty allowed —
    /// whether an empty key means "no encryption" is the configuration's decision).
    init(cipherKey: String, mode: CipherMode = .buildDefault, acceptsEitherIVLayout: Bool = true) {
        self.mode = mode
        self.acceptsEitherIVLayout = acceptsEitherIVLayout
        do {
            self.legacyCipher = try AES(key: CipherKeyDerivation.legacyKey(cipherKey))
            self.acrhCipher = try AES(key: CipherKeyDerivation.acrhKey(cipherKey))
            self.compatibilityCipher = try AES(key: CipherKeyDerivation.compatibility33Key(cipherKey))
        } catch {
            preconditionFailure("derived AES keys are always 16 or 32 bytes: \(error)")
        }
    }

    // MARK: - Encryption

    /// Encrypts a message given as its JSON text and returns what goes on the wire in its place, as JSON text.
    ///
    /// - `.standard`, `.randomIV`: the JSON string `"<base64>"` of the encrypted UTF-8 text (docs/CRYPTO.md §1.3,
    ///   §1.4).
    /// - `.compatibility33`: the message's own structure with every string leaf replaced by its base64 ciphertext
    ///   (docs/CRYPTO.md §2); numbers, booleans, null and dictionary keys stay as they are.
    ///
    /// - Returns: `.messageNotJSON` in `.compatibility33` mode when `messageJSONText` is not JSON.
    func encrypt(messageJSONText: String) -> Result<String, CryptoError> {
        switch self.mode {
        case .standard, .randomIV:
            var text = messageJSONText
            let ciphertext = text.withUTF8 { self.ciphertext(UnsafeRawBufferPointer($0)) }
            return .success(Base64.encodeAsJSONString(ciphertext))
        case .compatibility33:
            return self.compatibility33WireJSON(messageJSONText: messageJSONText)
        }
    }

    /// Encrypts `plaintext` as one payload of the configured mode and returns its base64: fixed IV, random IV
    /// prepended, or (3.3) one leaf under the MD5 key.
    func encryptPayload(_ plaintext: [UInt8]) -> String {
        Base64.encode(plaintext.withUnsafeBytes { self.ciphertext($0) })
    }

    /// The payload bytes (before base64) of the configured mode.
    private func ciphertext(_ plaintext: UnsafeRawBufferPointer) -> [UInt8] {
        switch self.mode {
        case .standard:
            return AESCBC.encrypt(plaintext, cipher: self.legacyCipher, iv: MessageCryptor.fixedChainingValue)
        case .compatibility33:
            return AESCBC.encrypt(plaintext, cipher: self.compatibilityCipher, iv: MessageCryptor.fixedChainingValue)
        case .randomIV:
            let iv = MessageCryptor.randomIV()
            return AESCBC.encrypt(plaintext, cipher: self.legacyCipher, iv: AES.Block(loading: iv), prefix: iv)
        }
    }

    /// The random-IV layout with a chosen IV: base64(iv ‖ AES-256-CBC(plaintext)). Tests use it for byte-exact
    /// vectors; `encryptPayload` draws the IV from the system CSPRNG.
    ///
    /// - Precondition: `iv` has 16 bytes.
    func encryptRandomIVPayload(_ plaintext: [UInt8], iv: [UInt8]) -> String {
        precondition(iv.count == AES.blockLength, "a CBC IV is 16 bytes")
        let ciphertext = plaintext.withUnsafeBytes {
            AESCBC.encrypt($0, cipher: self.legacyCipher, iv: AES.Block(loading: iv), prefix: iv)
        }
        return Base64.encode(ciphertext)
    }

    /// What a current SDK's `AesCbcCryptoModule` writes: base64(`PNED` header with `ACRH` and `iv` ‖ ciphertext under
    /// the raw SHA-256 key). The client never publishes this; tests use it to produce header payloads.
    ///
    /// - Precondition: `iv` has 16 bytes.
    func encryptCryptorHeaderPayload(_ plaintext: [UInt8], iv: [UInt8]) -> String {
        precondition(iv.count == AES.blockLength, "a CBC IV is 16 bytes")
        let header = CryptorHeader(
            version: CryptorHeader.currentVersion,
            cryptorIdentifier: CryptorHeader.acrhIdentifier,
            cryptorData: iv
        )
        let payload = plaintext.withUnsafeBytes {
            AESCBC.encrypt($0, cipher: self.acrhCipher, iv: AES.Block(loading: iv), prefix: header.encoded())
        }
        return Base64.encode(payload)
    }

    /// 16 bytes from the system's cryptographically secure generator (`getrandom` on Linux).
    private static func randomIV() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var iv = [UInt8]()
        iv.reserveCapacity(AES.blockLength)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                iv.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return iv
    }

    // MARK: - Decryption

    /// Decrypts a received message, given as the JSON value the subscribe or history response carried in its place
    /// (as `JSONSerialization` produces it).
    ///
    /// - `.standard`, `.randomIV`: the value must be a string; its plaintext is parsed as JSON (fragments allowed).
    ///   Plaintext that is text but not JSON is returned as a `String`.
    /// - `.compatibility33`: a string, array or dictionary; every string leaf is decrypted and returned as text
    ///   (3.3 never JSON-encoded leaves); other leaves are kept. A string carrying a `PNED` header is decoded and
    ///   parsed like in the standard mode.
    ///
    /// - Returns: the decrypted JSON value, or the precise reason it could not be decrypted.
    func decrypt(wireValue: Any) -> Result<Any, CryptoError> {
        switch self.mode {
        case .standard, .randomIV:
            guard let payload = wireValue as? String else {
                return .failure(.unexpectedWireValue(MessageCryptor.jsonKind(of: wireValue)))
            }
            return self.decryptPayload(payload).map(MessageCryptor.value(of:))
        case .compatibility33:
            return self.compatibility33Value(wireValue: wireValue)
        }
    }

    /// Decrypts one base64 payload: a `PNED`/`ACRH` payload whatever the mode, otherwise the legacy layout of the
    /// mode (with the other IV layout as fallback when `acceptsEitherIVLayout`), or a 3.3 leaf.
    ///
    /// - Returns: `.emptyPayload`, `.invalidBase64`, `.invalidCiphertextLength`, `.invalidPadding`, `.invalidUTF8`,
    ///   or a cryptor-header error when the payload cannot be decrypted.
    func decryptPayload(_ base64: String) -> Result<DecryptedPayload, CryptoError> {
        do throws(CryptoError) {
            guard !base64.isEmpty else { throw .emptyPayload }
            let bytes = try Base64.decode(base64)
            if CryptorHeader.isPresent(in: bytes) {
                return .success(try self.decryptCryptorHeaderPayload(bytes))
            }
            switch self.mode {
            case .compatibility33:
                let plaintext = try MessageCryptor.decrypt(
                    bytes[...],
                    cipher: self.compatibilityCipher,
                    iv: MessageCryptor.fixedChainingValue
                )
                return .success(try MessageCryptor.payload(plaintext[...], format: .compatibility33))
            case .standard, .randomIV:
                return .success(try self.decryptLegacyPayload(bytes))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Both legacy layouts from one decryption: CBC-decrypting `iv ‖ C` with the fixed IV yields 16 junk bytes followed
    /// by the random-IV plaintext (block i only depends on ciphertext blocks i−1 and i), so the random-IV reading is
    /// the fixed-IV plaintext minus its first block.
    private func decryptLegacyPayload(_ bytes: [UInt8]) throws(CryptoError) -> DecryptedPayload {
        let prefersRandomIV = self.mode == .randomIV
        let randomIVPossible = bytes.count >= 2 * AES.blockLength
        if prefersRandomIV && !randomIVPossible && !self.acceptsEitherIVLayout {
            throw .invalidCiphertextLength(bytes.count)
        }
        let plaintext = try MessageCryptor.decrypt(
            bytes[...],
            cipher: self.legacyCipher,
            iv: MessageCryptor.fixedChainingValue
        )
        let fixed: (ArraySlice<UInt8>, PayloadFormat) = (plaintext[...], .fixedIV)
        let random: (ArraySlice<UInt8>, PayloadFormat) = (plaintext.dropFirst(AES.blockLength), .randomIV)

        var candidates: [(ArraySlice<UInt8>, PayloadFormat)] = []
        if prefersRandomIV {
            if randomIVPossible { candidates.append(random) }
            if self.acceptsEitherIVLayout || !randomIVPossible { candidates.append(fixed) }
        } else {
            candidates.append(fixed)
            if self.acceptsEitherIVLayout && randomIVPossible { candidates.append(random) }
        }

        // JSON in any layout wins; then text in any layout; the configured layout first each time.
        var firstText: DecryptedPayload?
        for (bytes, format) in candidates {
            guard let payload = try? MessageCryptor.payload(bytes, format: format) else { continue }
            if payload.isJSON { return payload }
            if firstText == nil { firstText = payload }
        }
        guard let text = firstText else { throw .invalidUTF8 }
        return text
    }

    private func decryptCryptorHeaderPayload(_ bytes: [UInt8]) throws(CryptoError) -> DecryptedPayload {
        let (header, offset) = try CryptorHeader.parse(bytes)
        guard header.cryptorIdentifier == CryptorHeader.acrhIdentifier else {
            throw .unknownCryptor(header.cryptorIdentifier)
        }
        guard header.cryptorData.count == AES.blockLength else { throw .malformedCryptorHeader }
        let plaintext = try MessageCryptor.decrypt(
            bytes[offset...],
            cipher: self.acrhCipher,
            iv: AES.Block(loading: header.cryptorData)
        )
        return try MessageCryptor.payload(plaintext[...], format: .cryptorHeaderACRH)
    }

    private static func decrypt(
        _ ciphertext: ArraySlice<UInt8>,
        cipher: AES,
        iv: AES.Block
    ) throws(CryptoError)
        -> [UInt8]
    {
        // `withUnsafeBytes` only rethrows untyped errors, so the typed error travels in a `Result`.
        try ciphertext.withUnsafeBytes { buffer in
            Result { () throws(CryptoError) in try AESCBC.decrypt(buffer, cipher: cipher, iv: iv) }
        }.get()
    }

    private static func payload(
        _ plaintext: ArraySlice<UInt8>,
        format: PayloadFormat
    ) throws(CryptoError)
        -> DecryptedPayload
    {
        guard let text = String(validating: plaintext, as: UTF8.self) else { throw .invalidUTF8 }
        return DecryptedPayload(text: text, isJSON: JSONSyntax.isValid(plaintext), format: format)
    }

    /// The message value of a decrypted payload: parsed JSON, or the text itself when it is not JSON (or is JSON
    /// that Foundation refuses, such as a lone surrogate escape).
    static func value(of payload: DecryptedPayload) -> Any {
        guard payload.isJSON,
            let value = try? JSONSerialization.jsonObject(with: Data(payload.text.utf8), options: .fragmentsAllowed)
        else {
            return payload.text
        }
        return value
    }

    /// A JSON type name for error messages.
    static func jsonKind(of value: Any) -> String {
        switch value {
        case is String: return "string"
        case is [Any]: return "array"
        case is [String: Any]: return "object"
        case is NSNull: return "null"
        case is NSNumber: return "number or boolean"
        default: return String(describing: type(of: value))
        }
    }
}
