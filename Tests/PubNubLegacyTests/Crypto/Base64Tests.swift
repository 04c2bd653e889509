import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct Base64Tests {
    /// RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(text: String, encoded: String) throws {
        #expect(Base64.encode(bytes(text)) == encoded)
        #expect(try Base64.decode(encoded) == bytes(text))
    }

    /// Every byte value and every length 0…70 round-trips and agrees with Foundation's encoder.
    @Test func roundTripsAndAgreesWithFoundation() throws {
        for length in 0...70 {
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            let encoded = Base64.encode(data)
            #expect(encoded == Data(data).base64EncodedString())
            #expect(try Base64.decode(encoded) == data)
        }
        let all = (0...255).map { UInt8($0) }
        #expect(try Base64.decode(Base64.encode(all)) == all)
    }

    /// The JSON-string wire form (docs/CRYPTO.md §1.4) is the base64 text in quotes, for every padding length.
    @Test(arguments: ["", "f", "fo", "foo", "foob"])
    func jsonStringForm(text: String) {
        #expect(Base64.encodeAsJSONString(bytes(text)) == "\"" + Base64.encode(bytes(text)) + "\"")
    }

    /// RFC 4648 §5 alphabet for signatures, with and without padding (docs/PROTOCOL.md §2.13.3).
    @Test func urlSafeAlphabet() {
        let data: [UInt8] = [0xfb, 0xff, 0xbf, 0xfe]
        #expect(Base64.encode(data) == "+/+//g==")
        #expect(Base64.encodeURLSafe(data, padded: true) == "-_-__g==")
        #expect(Base64.encodeURLSafe(data, padded: false) == "-_-__g")
        #expect(Base64.encodeURLSafe([0x66, 0x6f], padded: false) == "Zm8")
    }

    /// Not exactly standard padded base64 → rejected. Foundation on Linux accepts `"ab=c"` (padding mid-text);
    /// this decoder does not.
    @Test(arguments: [
        "ab=c", "a===", "====", "=abc", "Zg=", "Zg", "Zm9vY", "Zm9v YmFy", "Zm9v\nYmFy", " Zm9v", "Zm9v ", "Zm9v\r\n",
        "-_-__g==", "Zm9v!A==", "hello world", "PlRlaTxp9hblheBWRksgnA=", "PlRlaTxp9hblheBWRksgnA", "Zg==Zg==", "é===",
        "Zm9vYmFy=", "Zm=v",
    ])
    func malformedTextIsRejected(text: String) {
        #expect(throws: CryptoError.invalidBase64) { try Base64.decode(text) }
    }

    /// Unused low bits in the last character are ignored, as Python's and Foundation's decoders do.
    @Test func nonCanonicalTrailingBitsAreAccepted() throws {
        #expect(try Base64.decode("Zh==") == bytes("f"))
        #expect(try Base64.decode("Zm9=") == bytes("fo"))
    }
}
