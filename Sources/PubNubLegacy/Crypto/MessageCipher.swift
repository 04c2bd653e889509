import Foundation

/// The message cipher a client applies when its configuration has a cipher key, for the package's own tools
/// (`LegacyDemo bench` times it): the same JSON encoding, key derivation, mode choice and `MessageCryptor` calls that
/// a publish and a received message go through, without a client or a request around them.
package struct MessageCipher: Sendable {
    private let cryptor: MessageCryptor

    /// The cipher of `configuration`'s cipher key and mode (standard, random IV or 3.3, as the client would pick);
    /// nil when the configuration has no cipher key, as a client then sends and reads messages unencrypted.
    package init?(configuration: PNConfiguration) {
        let settings = ClientSettings(configuration: configuration)
        guard !settings.cipherKey.isEmpty else { return nil }
        self.cryptor = MessageCryptor(cipherKey: settings.cipherKey, mode: settings.cipherMode)
    }

    /// What a publish puts on the wire in place of a message whose JSON text is `messageJSONText` (as
    /// `sendMessage` built it): the JSON text of the encrypted message (a quoted base64 string, or the 3.3
    /// structure). Nil when encryption fails (only the 3.3 scheme can, for text that is not JSON), where the client
    /// fails the publish with 119 instead.
    package func encrypt(messageJSONText: String) -> String? {
        guard case .success(let wire) = self.cryptor.encrypt(messageJSONText: messageJSONText) else { return nil }
        return wire
    }

    /// The message a client delivers for `wireValue`, the parsed JSON value a subscribe or history answer carries
    /// (for the standard scheme, the base64 string without quotes). Nil where the client would deliver
    /// `DECRYPTION_ERROR`.
    package func decrypt(_ wireValue: Any) -> Any? {
        guard case .success(let value) = self.cryptor.decrypt(wireValue: wireValue) else { return nil }
        return value
    }
}
