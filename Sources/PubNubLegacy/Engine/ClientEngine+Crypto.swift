// Where the cipher key applies (docs/BEHAVIOR.md §3.10, docs/CRYPTO.md): outgoing messages are encrypted once, when the
// publish is built; received messages (subscribe and history, never presence events) are decrypted, and a
// payload that cannot be decrypted becomes the string `DECRYPTION_ERROR`. Without a cipher key nothing changes.

extension ClientEngine {
    /// The 3.4 surface value of a message that cannot be decrypted.
    static let decryptionErrorValue = "DECRYPTION_ERROR"

    /// The cipher of the current settings, nil without a cipher key.
    var cryptor: MessageCryptor? {
        guard let settings = self.settings, !settings.cipherKey.isEmpty else { return nil }
        if let cache = self.cryptorCache, cache.key == settings.cipherKey, cache.mode == settings.cipherMode {
            return cache.cryptor
        }
        let cryptor = MessageCryptor(cipherKey: settings.cipherKey, mode: settings.cipherMode)
        self.cryptorCache = (settings.cipherKey, settings.cipherMode, cryptor)
        return cryptor
    }

    /// The text to publish for a message's JSON text: encrypted (a quoted base64 string, or the 3.3 structure) when
    /// a cipher key is set. An encryption failure fails the publish with 119 rather than sending a placeholder.
    func encodeOutgoingPayload(_ json: String) -> Result<String, PNError> {
        guard let cryptor = self.cryptor else { return .success(json) }
        switch cryptor.encrypt(messageJSONText: json) {
        case .success(let wire):
            return .success(wire)
        case .failure(let failure):
            return .failure(
                PNError(
                    message: "Message encryption failed: \(failure)",
                    code: kPNCryptoInputDataProcessingError,
                    category: .unknown,
                    associatedObject: nil
                )
            )
        }
    }

    /// A received payload (subscribe or history), decrypted when a cipher key is set. A payload that cannot be
    /// decrypted becomes `DECRYPTION_ERROR` (docs/BEHAVIOR.md §3.10), and the reason comes back to be reported beside
    /// it.
    func decodeReceivedPayload(_ payload: Any) -> (value: Any, failure: CryptoError?) {
        guard let cryptor = self.cryptor else { return (payload, nil) }
        switch cryptor.decrypt(wireValue: payload) {
        case .success(let value):
            return (value, nil)
        case .failure(let failure):
            return (Self.decryptionErrorValue, failure)
        }
    }

    /// The error that follows a message delivered as `DECRYPTION_ERROR`: code 119 (the code 3.4 used for a failed
    /// decryption), category `decryptionError`, the message as associated object.
    static func decryptionError(_ failure: CryptoError, of message: PNMessage) -> PNError {
        PNError(
            message: "Message decryption failed: \(failure)",
            code: kPNCryptoInputDataProcessingError,
            category: .decryptionError,
            associatedObject: message
        )
    }

    /// The error that reports a received payload this client cannot decode — valid JSON the platform's decoder
    /// refuses (a lone surrogate escape, a number out of range), bytes that are not UTF-8, or an envelope without a
    /// channel — through `pubnubClient(_:error:)`, the way a `DECRYPTION_ERROR` is reported: code 127
    /// (`kPNResponseMalformedJSONError`; 126 for bytes that are not UTF-8), category `malformedResponse`, and as
    /// associated object the `PNMessage` whose `message` is the payload's raw JSON text.
    static func undecodableMessageError(_ reason: UndecodableReason, of message: PNMessage) -> PNError {
        let why: String
        let code: Int
        switch reason {
        case .notUTF8:
            why = "its bytes are not UTF-8"
            code = kPNResponseEncodingError
        case .notRepresentable:
            why = "its JSON holds a value this platform cannot represent"
            code = kPNResponseMalformedJSONError
        case .unreadableEnvelope:
            why = "its envelope names no channel"
            code = kPNResponseMalformedJSONError
        }
        return PNError(
            message: "Received message could not be decoded: \(why); it is delivered as its raw JSON text",
            code: code,
            category: .malformedResponse,
            associatedObject: message
        )
    }
}
