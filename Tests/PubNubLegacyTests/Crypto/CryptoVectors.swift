import Foundation
import Testing

// Loads the crypto test vectors, `Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json`, a resource of this test
// target (docs/CRYPTO.md §6 says what produced each section; every section names its source in a `source` field).

/// The decoded vector file; every section of it is fed to a test.
struct CryptoVectorFile: Decodable, Sendable {
    var keyDerivation: [KeyDerivationVector]
    var legacyFixedIv: Section<LegacyFixedIVVector>
    var legacyRandomIv: Section<LegacyRandomIVVector>
    var cryptorHeaderAcrh: Section<CryptorHeaderVector>
    var compat33: Compatibility33Section
    var decryptionFailures: [DecryptionFailureVector]
    var sha256: [SHA256Vector]
    var hmacSha256: [HMACVector]
    var requestSignatures: [RequestSignatureVector]
    var publishedKnownAnswers: [PublishedKnownAnswer]

    struct Section<Vector: Decodable & Sendable>: Decodable, Sendable {
        /// Which SDK or tool produced the section (required, so the fixture cannot lose its provenance).
        var source: String
        var algorithm: String
        var vectors: [Vector]
    }
}

struct KeyDerivationVector: Decodable, Sendable, CustomTestStringConvertible {
    var source: String
    var cipherKey: String
    var cipherKeyUtf8Hex: String
    var sha256Hex: String
    var legacyAesKeyAscii: String
    var legacyAesKeyBytesHex: String
    var acrhAesKeyBytesHex: String
    var md5KeyBytesHex33Compat: String
    var testDescription: String { "key \(String(reflecting: self.cipherKey))" }
}

struct LegacyFixedIVVector: Decodable, Sendable, CustomTestStringConvertible {
    var cipherKey: String
    var label: String
    var jsonValue: JSONValue
    var plaintextSerialized: String
    var plaintextUtf8Len: Int
    var ivAscii: String
    var ciphertextB64: String
    var wireJson: String
    var publishPathSegmentPython: String
    var publishPathSegment34: String
    var plaintextSha256Hex: String?
    var testDescription: String { "\(self.label) / key \(String(reflecting: self.cipherKey))" }
}

struct LegacyRandomIVVector: Decodable, Sendable, CustomTestStringConvertible {
    var cipherKey: String
    var label: String
    var jsonValue: JSONValue
    var plaintextSerialized: String
    var ivHex: String
    var ivAscii: String?
    var ciphertextOnlyB64: String
    var ivPlusCiphertextB64: String
    var wireJson: String
    var testDescription: String { "\(self.label) / IV \(self.ivHex) / key \(String(reflecting: self.cipherKey))" }
}

struct CryptorHeaderVector: Decodable, Sendable, CustomTestStringConvertible {
    var cipherKey: String
    var label: String
    var jsonValue: JSONValue
    var plaintextSerialized: String
    var ivHex: String
    var headerHex: String
    var headerLen: Int
    var ciphertextOnlyB64: String
    var payloadB64: String
    var wireJson: String
    var testDescription: String { "\(self.label) / IV \(self.ivHex) / key \(String(reflecting: self.cipherKey))" }
}

struct Compatibility33Section: Decodable, Sendable {
    var source: String
    var leafVectors: [Compatibility33LeafVector]
    var objectVector: Compatibility33ObjectVector
}

struct Compatibility33LeafVector: Decodable, Sendable, CustomTestStringConvertible {
    var cipherKey: String
    var plaintextLeaf: String
    var md5KeyHex: String
    var ivAscii: String
    var ciphertextB64: String
    var testDescription: String { "leaf \(String(reflecting: self.plaintextLeaf))" }
}

struct Compatibility33ObjectVector: Decodable, Sendable {
    var cipherKey: String
    var jsonValue: JSONValue
    var encryptedJsonValue: JSONValue
}

struct DecryptionFailureVector: Decodable, Sendable, CustomTestStringConvertible {
    var source: String
    var `case`: String
    var cipherKeyUsedToEncrypt: String?
    var cipherKeyUsedToDecrypt: String
    var wireJson: String
    var expected: String
    var testDescription: String { self.case }
}

struct SHA256Vector: Decodable, Sendable, CustomTestStringConvertible {
    var source: String
    var inputUtf8: String
    var sha256Hex: String
    var testDescription: String { String(reflecting: self.inputUtf8) }
}

struct HMACVector: Decodable, Sendable, CustomTestStringConvertible {
    var source: String
    var key: String
    var message: String
    var hex: String
    var base64: String
    var base64url: String
    var testDescription: String { "key \(String(reflecting: self.key))" }
}

struct RequestSignatureVector: Decodable, Sendable, CustomTestStringConvertible {
    var source: String
    var scheme: String
    var label: String?
    var secretKey: String
    var method: String?
    var publishKey: String?
    var subscribeKey: String?
    var path: String?
    var paramsUnencoded: [String: String]?
    var canonicalQuery: String?
    var body: String?
    var stringToSign: String
    var signature: String?
    var signatureInUrl: String?
    var computedValue: String?
    var valueActuallySentInPath: String?
    var testDescription: String { "\(self.scheme): \(self.label ?? "")" }
}

struct PublishedKnownAnswer: Decodable, Sendable, CustomTestStringConvertible {
    var source: String
    var mode: String
    var verifiedHere: Bool
    var cipherKey: String?
    var plaintextSerialized: String?
    var ciphertextB64: String?
    var ivAscii: String?
    var ivHex: String?
    var payloadB64: String?
    var plaintextLeaf: String?
    var key: String?
    var message: String?
    var signature: String?
    var secretKey: String?
    var publishKey: String?
    var subscribeKey: String?
    var method: String?
    var path: String?
    var paramsUnencoded: [String: String]?
    var stringToSign: String?
    var testDescription: String { "\(self.mode): \(self.source)" }
}

// MARK: - Loading

enum CryptoVectors {
    struct MissingFile: Error, CustomStringConvertible {
        var path: String
        var underlying: String
        var description: String {
            "cannot read the crypto vectors at \(self.path) (\(self.underlying)). They are the test resource "
                + "Fixtures/crypto-vectors.json of PubNubLegacyTests (declared in Package.swift)."
        }
    }

    /// The fixture inside this test target's resource bundle, or nil when the bundle does not hold it.
    static func fileURL() -> URL? {
        Bundle.module.url(forResource: "crypto-vectors", withExtension: "json")
    }

    private static let loaded: Result<CryptoVectorFile, MissingFile> = {
        guard let url = CryptoVectors.fileURL() else {
            return .failure(
                MissingFile(path: Bundle.module.bundlePath, underlying: "no crypto-vectors.json in the bundle")
            )
        }
        do {
            let data = try Data(contentsOf: url)
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return .success(try decoder.decode(CryptoVectorFile.self, from: data))
        } catch {
            return .failure(MissingFile(path: url.path, underlying: String(describing: error)))
        }
    }()

    /// The vector file, or an error that says where it was looked for.
    static func load() throws -> CryptoVectorFile {
        try CryptoVectors.loaded.get()
    }
}

// MARK: - JSON values

/// A JSON value for comparing decrypted messages with the vectors' `json_value` (values, not texts: serializers
/// differ in spacing and escaping, docs/CRYPTO.md §1.3).
enum JSONValue: Decodable, Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON text (any value at top level).
    init(parsing text: String) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Converts a `JSONSerialization` value (what `MessageCryptor.decrypt(wireValue:)` returns).
    init(foundation value: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as a `JSONSerialization` object, to hand to `decrypt(wireValue:)`.
    var foundation: Any {
        get throws {
            let data = try JSONEncoder().encode(self)
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        }
    }

    var description: String {
        (try? String(decoding: JSONEncoder().encode(self), as: UTF8.self)) ?? "<unencodable>"
    }
}

extension JSONValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// MARK: - Byte helpers

/// Bytes from hex text; traps on malformed hex (test data only).
func bytes(hex: String) -> [UInt8] {
    precondition(hex.count % 2 == 0, "hex text has an even length")
    var result = [UInt8]()
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        result.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return result
}

/// Bytes of the UTF-8 encoding of `text`.
func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// Lowercase hex of `bytes`.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
