import Testing

@testable import PubNubLegacy

@Suite struct CryptorHeaderTests {
    /// Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json → `cryptor_header_acrh[].header_hex`: `PNED` 01 `ACRH` 10 +
    /// IV (docs/CRYPTO.md §4.1).
    @Test(arguments: try CryptoVectors.load().cryptorHeaderAcrh.vectors)
    func sharedVectorHeaders(vector: CryptorHeaderVector) throws {
        let header = CryptorHeader(version: 1, cryptorIdentifier: "ACRH", cryptorData: bytes(hex: vector.ivHex))
        #expect(hex(header.encoded()) == vector.headerHex)
        #expect(header.encoded().count == vector.headerLen)

        let payload = try Base64.decode(vector.payloadB64)
        #expect(CryptorHeader.isPresent(in: payload))
        let (parsed, offset) = try CryptorHeader.parse(payload)
        #expect(parsed == header)
        #expect(offset == vector.headerLen)
        #expect(Base64.encode(Array(payload[offset...])) == vector.ciphertextOnlyB64)
    }

    /// Cryptor data of 255 bytes or more uses the 3-byte length form: 0xFF then a big-endian UInt16.
    @Test(arguments: [254, 255, 256, 1000])
    func longCryptorDataUsesThreeByteLength(length: Int) throws {
        let data = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let header = CryptorHeader(version: 1, cryptorIdentifier: "XYZW", cryptorData: data)
        let encoded = header.encoded()
        if length < 255 {
            #expect(encoded[9] == UInt8(length))
        } else {
            #expect(Array(encoded[9..<12]) == [0xff, UInt8(length >> 8), UInt8(length & 0xff)])
        }
        let (parsed, offset) = try CryptorHeader.parse(encoded + [1, 2, 3])
        #expect(parsed == header)
        #expect(offset == encoded.count)
    }

    @Test func legacyPayloadsHaveNoHeader() throws {
        #expect(!CryptorHeader.isPresent(in: try Base64.decode("06UDjczkvAAYcqWfNwkOiQ==")))
        #expect(!CryptorHeader.isPresent(in: bytes("PNE")))
        #expect(CryptorHeader.isPresent(in: bytes("PNED")))
    }

    @Test(arguments: [0, 2, 0xff])
    func otherVersionsAreUnknown(version: UInt8) {
        #expect(throws: CryptoError.unknownCryptorHeaderVersion(version)) {
            try CryptorHeader.parse(bytes("PNED") + [version] + bytes("ACRH") + [0])
        }
    }

    /// Payloads that end inside the header.
    @Test(arguments: [
        bytes("PNED"),
        bytes("PNED") + [1],
        bytes("PNED") + [1] + bytes("ACR"),
        bytes("PNED") + [1] + bytes("ACRH"),
        bytes("PNED") + [1] + bytes("ACRH") + [16] + [UInt8](repeating: 0, count: 15),
        bytes("PNED") + [1] + bytes("ACRH") + [0xff, 0x01],
        bytes("PNED") + [1] + bytes("ACRH") + [0xff, 0x01, 0x00] + [UInt8](repeating: 0, count: 255),
        bytes("PNED") + [1] + [0x00, 0x41, 0x42, 0x43] + [0],
    ])
    func truncatedHeadersAreMalformed(payload: [UInt8]) {
        #expect(throws: CryptoError.malformedCryptorHeader) { try CryptorHeader.parse(payload) }
    }
}
