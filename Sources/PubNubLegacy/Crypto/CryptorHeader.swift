// The `PNED` header that current PubNub SDKs' crypto modules put in front of a ciphertext (docs/CRYPTO.md §4.1). The
// 3.4 client only reads it (so a current peer using `AesCbcCryptoModule` is understood); it never writes one on the
// wire.

/// A version-1 cryptor header: `PNED` | version | 4-character cryptor id | data length (1 or 3 bytes) | data.
struct CryptorHeader: Equatable, Sendable {
    /// The four bytes that mark a payload as carrying a header.
    static let sentinel: [UInt8] = Array("PNED".utf8)
    /// The only header version that exists.
    static let currentVersion: UInt8 = 1
    /// The AES-CBC random-IV cryptor; its data is the 16-byte IV (docs/CRYPTO.md §4.2).
    static let acrhIdentifier = "ACRH"

    /// The header version (always 1 for a parsed header).
    var version: UInt8
    /// The cryptor id, four ASCII characters such as `ACRH`.
    var cryptorIdentifier: String
    /// The cryptor's data; for `ACRH` the IV.
    var cryptorData: [UInt8]

    /// Whether `payload` starts with the `PNED` sentinel (otherwise it is a legacy payload without header).
    static func isPresent(in payload: [UInt8]) -> Bool {
        payload.starts(with: CryptorHeader.sentinel)
    }

    /// Reads the header at the start of `payload`, which must start with the sentinel, and returns it with the
    /// offset where the ciphertext starts.
    ///
    /// - Throws: `.unknownCryptorHeaderVersion` for a version other than 1, `.malformedCryptorHeader` when the
    ///   payload ends inside the header or the identifier is not ASCII.
    static func parse(_ payload: [UInt8]) throws(CryptoError) -> (header: CryptorHeader, ciphertextOffset: Int) {
        precondition(CryptorHeader.isPresent(in: payload), "parse(_:) is only called on payloads with the sentinel")
        var index = CryptorHeader.sentinel.count
        guard index < payload.count else { throw .malformedCryptorHeader }
        let version = payload[index]
        guard version == CryptorHeader.currentVersion else { throw .unknownCryptorHeaderVersion(version) }
        index += 1
        guard payload.count >= index + 4 + 1 else { throw .malformedCryptorHeader }
        let identifierBytes = payload[index..<index + 4]
        guard identifierBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { throw .malformedCryptorHeader }
        let identifier = String(decoding: identifierBytes, as: UTF8.self)
        index += 4
        var dataLength = Int(payload[index])
        index += 1
        if dataLength == 255 {
            guard payload.count >= index + 2 else { throw .malformedCryptorHeader }
            dataLength = Int(payload[index]) << 8 | Int(payload[index + 1])
            index += 2
        }
        guard payload.count >= index + dataLength else { throw .malformedCryptorHeader }
        let header = CryptorHeader(
            version: version,
            cryptorIdentifier: identifier,
            cryptorData: Array(payload[index..<index + dataLength])
        )
        return (header, index + dataLength)
    }

    /// The header's bytes, as a current SDK writes them.
    func encoded() -> [UInt8] {
        var bytes = CryptorHeader.sentinel
        bytes.append(self.version)
        bytes.append(contentsOf: self.cryptorIdentifier.utf8)
        if self.cryptorData.count < 255 {
            bytes.append(UInt8(self.cryptorData.count))
        } else {
            bytes.append(255)
            bytes.append(UInt8(truncatingIfNeeded: self.cryptorData.count >> 8))
            bytes.append(UInt8(truncatingIfNeeded: self.cryptorData.count))
        }
        bytes.append(contentsOf: self.cryptorData)
        return bytes
    }
}
