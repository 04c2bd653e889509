// Hex formatting for digests: the 3.4 key derivation and the 3.4.2 publish signature are hex strings.

/// Hexadecimal text for digests.
enum Hex {
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// `bytes` as lowercase hex, two characters per byte.
    static func lowercase(_ bytes: some Collection<UInt8>) -> String {
        Hex.format(bytes, digits: Hex.lowerDigits)
    }

    /// `bytes` as uppercase hex, two characters per byte.
    static func uppercase(_ bytes: some Collection<UInt8>) -> String {
        Hex.format(bytes, digits: Hex.upperDigits)
    }

    private static func format(_ bytes: some Collection<UInt8>, digits: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(2 * bytes.count)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
