import Testing

@testable import PubNubLegacy

struct RFC4231Case: Sendable, CustomTestStringConvertible {
    var number: Int
    var key: [UInt8]
    var data: [UInt8]
    /// Expected MAC in hex; case 5 lists only the first 128 bits.
    var mac: String
    var testDescription: String { "RFC 4231 test case \(self.number)" }
}

/// RFC 4231 §4.2–§4.8, HMAC-SHA-256 results.
private let rfc4231Cases: [RFC4231Case] = [
    RFC4231Case(
        number: 1,
        key: [UInt8](repeating: 0x0b, count: 20),
        data: bytes("Hi There"),
        mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    RFC4231Case(
        number: 2,
        key: bytes("Jefe"),
        data: bytes("what do ya want for nothing?"),
        mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    RFC4231Case(
        number: 3,
        key: [UInt8](repeating: 0xaa, count: 20),
        data: [UInt8](repeating: 0xdd, count: 50),
        mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    RFC4231Case(
        number: 4,
        key: Array(1...25),
        data: [UInt8](repeating: 0xcd, count: 50),
        mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    RFC4231Case(
        number: 5,
        key: [UInt8](repeating: 0x0c, count: 20),
        data: bytes("Test With Truncation"),
        mac: "a3b6167473100ee06e0c796c2955552b"
    ),
    RFC4231Case(
        number: 6,
        key: [UInt8](repeating: 0xaa, count: 131),
        data: bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
        mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    RFC4231Case(
        number: 7,
        key: [UInt8](repeating: 0xaa, count: 131),
        data: bytes(
            "This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                + "to be hashed before being used by the HMAC algorithm."
        ),
        mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
]

@Suite struct HMACSHA256Tests {

    @Test(arguments: rfc4231Cases)
    func rfc4231(testCase: RFC4231Case) {
        let mac = HMACSHA256.authenticate(testCase.data, key: testCase.key)
        #expect(mac.count == HMACSHA256.macLength)
        // Case 5 checks truncation: compare the listed prefix only.
        #expect(hex(mac).hasPrefix(testCase.mac))
        #expect(testCase.number == 5 || hex(mac) == testCase.mac)
    }

    /// Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json → `hmac_sha256`: hex, standard base64 and base64url of the
    /// same MAC.
    @Test(arguments: try CryptoVectors.load().hmacSha256)
    func sharedVectors(vector: HMACVector) {
        let mac = HMACSHA256.authenticate(vector.message, key: vector.key)
        #expect(hex(mac) == vector.hex)
        #expect(Base64.encode(mac) == vector.base64)
        #expect(Base64.encodeURLSafe(mac, padded: true) == vector.base64url)
    }

    /// A 64-byte key is used as is, a 65-byte key is hashed first (RFC 2104 §2): both sides of the boundary agree
    /// with the definition computed by hand.
    @Test(arguments: [63, 64, 65])
    func keyLengthAroundBlockSize(length: Int) {
        let key = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let message = bytes("boundary")
        var blockKey = length > 64 ? SHA256.hash(key) : key
        blockKey += [UInt8](repeating: 0, count: 64 - blockKey.count)
        let inner = SHA256.hash(blockKey.map { $0 ^ 0x36 } + message)
        let expected = SHA256.hash(blockKey.map { $0 ^ 0x5c } + inner)
        #expect(HMACSHA256.authenticate(message, key: key) == expected)
    }

    @Test func verifyAcceptsTheMacAndRejectsAnyChange() {
        let key = bytes("sec-c-local")
        let message = bytes("hello")
        let mac = HMACSHA256.authenticate(message, key: key)
        #expect(HMACSHA256.verify(mac, message: message, key: key))
        for index in mac.indices {
            var forged = mac
            forged[index] ^= 0x01
            #expect(!HMACSHA256.verify(forged, message: message, key: key))
        }
        #expect(!HMACSHA256.verify(Array(mac.dropLast()), message: message, key: key))
        #expect(!HMACSHA256.verify(mac, message: bytes("hellO"), key: key))
    }
}
