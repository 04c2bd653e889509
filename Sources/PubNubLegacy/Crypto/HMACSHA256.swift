// HMAC-SHA256 (RFC 2104 with SHA-256), the MAC behind every PubNub request signature (docs/PROTOCOL.md §2.13.3,
// docs/CRYPTO.md §5).

/// HMAC-SHA256 message authentication.
enum HMACSHA256 {
    /// The MAC length in bytes.
    static let macLength = SHA256.digestLength

    /// The HMAC-SHA256 of `message` under `key`. Keys longer than the 64-byte block are hashed first (RFC 2104 §2).
    static func authenticate(_ message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        var blockKey = Array(key)
        if blockKey.count > SHA256.blockLength {
            blockKey = SHA256.hash(blockKey)
        }
        blockKey.append(contentsOf: repeatElement(0, count: SHA256.blockLength - blockKey.count))

        var inner = SHA256()
        inner.update(blockKey.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalize()

        var outer = SHA256()
        outer.update(blockKey.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finalize()
    }

    /// The HMAC-SHA256 of the UTF-8 bytes of `message` under the UTF-8 bytes of `key`, as PubNub signs requests.
    static func authenticate(_ message: String, key: String) -> [UInt8] {
        HMACSHA256.authenticate(message.utf8, key: key.utf8)
    }

    /// Whether `mac` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    static func verify(_ mac: [UInt8], message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> Bool {
        ConstantTime.equals(mac, HMACSHA256.authenticate(message, key: key))
    }
}
