import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// Plaintext sizes in bytes: block boundaries, then pseudo-random sizes up to the 32 KiB message limit.
private let roundTripSizes: [Int] = {
    var generator = SeededGenerator(seed: 0x5eed)
    let fixed = [0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 255, 256, 1023, 1024, 1025, 4096, 32 * 1024]
    let random = (0..<24).map { _ in Int.random(in: 0...(32 * 1024), using: &generator) }
    return fixed + random
}()

/// Property tests (seeded, so reproducible) and failure handling of `MessageCryptor` in every mode.
@Suite struct MessageCryptorRoundTripTests {
    /// Text of exactly `size` UTF-8 bytes mixing 1-, 2-, 3- and 4-byte characters and JSON-special characters.
    static func text(size: Int, seed: UInt64) -> String {
        var generator = SeededGenerator(seed: seed)
        let pieces = ["a", "Z", "7", " ", "\"", "\\", "/", "\n", "é", "Ç", "漢", "語", "😀", "🔑"]
        var scalars = ""
        var length = 0
        while length < size {
            var piece = pieces.randomElement(using: &generator)!
            if length + piece.utf8.count > size { piece = "x" }
            scalars += piece
            length += piece.utf8.count
        }
        return scalars
    }

    /// encryptPayload → decryptPayload returns the exact text, for every mode and size.
    @Test(arguments: CipherMode.allCases, roundTripSizes)
    func payloadRoundTrip(mode: CipherMode, size: Int) throws {
        let cryptor = MessageCryptor(cipherKey: "round-trip key", mode: mode)
        let text = Self.text(size: size, seed: UInt64(size))
        #expect(text.utf8.count == size)
        let payload = cryptor.encryptPayload(bytes(text))
        let ciphertextLength = try Base64.decode(payload).count
        let expectedLength = (size / 16 + 1) * 16 + (mode == .randomIV ? 16 : 0)
        #expect(ciphertextLength == expectedLength)

        let decrypted = try cryptor.decryptPayload(payload).get()
        #expect(decrypted.text == text)
        let format: MessageCryptor.PayloadFormat =
            switch mode {
            case .standard: .fixedIV
            case .randomIV: .randomIV
            case .compatibility33: .compatibility33
            }
        #expect(decrypted.format == format)
    }

    /// A JSON message (a string value of about `size` bytes) survives encrypt(messageJSONText:) → wire JSON →
    /// decrypt(wireValue:) as the same JSON value, in every mode.
    @Test(arguments: CipherMode.allCases, roundTripSizes)
    func messageRoundTrip(mode: CipherMode, size: Int) throws {
        let cryptor = MessageCryptor(cipherKey: "ключ-🔑-鍵", mode: mode)
        let message = Self.text(size: size, seed: UInt64(size) &+ 77)
        let jsonText = String(
            decoding: try JSONSerialization.data(withJSONObject: message, options: .fragmentsAllowed),
            as: UTF8.self
        )
        let wire = try cryptor.encrypt(messageJSONText: jsonText).get()
        let wireValue = try JSONSerialization.jsonObject(with: Data(wire.utf8), options: .fragmentsAllowed)
        #expect(wireValue is String)
        let decrypted = try cryptor.decrypt(wireValue: wireValue).get()
        #expect(try JSONValue(foundation: decrypted) == .string(message))
    }

    /// Structured messages of every JSON kind round-trip in the JSON-text modes.
    @Test(arguments: [CipherMode.standard, .randomIV])
    func structuredMessagesRoundTrip(mode: CipherMode) throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: mode)
        let messages = [
            "42", "-7", "3.14", "true", "false", "null", "\"\"", "[]", "{}",
            "{\"text\":\"hello\",\"n\":1,\"list\":[1,\"two\",null,true,{\"deep\":[[]]}],\"u\":\"漢語 😀\"}",
            "[\"seven\",\"eight\",{\"food\":\"Cheeseburger\",\"drink\":\"Coffee\"}]",
        ]
        for message in messages {
            let wire = try cryptor.encrypt(messageJSONText: message).get()
            let wireValue = try JSONSerialization.jsonObject(with: Data(wire.utf8), options: .fragmentsAllowed)
            let decrypted = try cryptor.decrypt(wireValue: wireValue).get()
            #expect(try JSONValue(foundation: decrypted) == JSONValue(parsing: message), "\(message)")
        }
    }

    // MARK: - Failures

    static let sampleMessage = "{\"text\":\"a message long enough to span a few AES blocks\",\"n\":12345}"

    /// A wrong key turns the last block into noise, whose padding is invalid. With a fixed IV the noise is the same
    /// every run; with a random IV it differs, and about once in 256 runs its last byte is 1, which is valid padding:
    /// then the noise fails as text that is not UTF-8.
    @Test(arguments: CipherMode.allCases)
    func wrongKeyIsAnError(mode: CipherMode) throws {
        let writer = MessageCryptor(cipherKey: "enigma", mode: mode)
        let reader = MessageCryptor(cipherKey: "not-enigma", mode: mode)
        let payload = writer.encryptPayload(bytes(Self.sampleMessage))
        let expected: [CryptoError] = mode == .randomIV ? [.invalidPadding, .invalidUTF8] : [.invalidPadding]
        let failure = MessageCryptorTests.failure(of: reader.decryptPayload(payload).map { $0 as Any })
        #expect(failure.map(expected.contains) == true, "\(String(describing: failure))")
        let decoded = MessageCryptorTests.failure(of: reader.decrypt(wireValue: payload))
        #expect(decoded == failure, "\(String(describing: decoded))")
    }

    /// In CBC, flipping a bit of the block before the last flips the same bit of the last plaintext block: here the
    /// final padding byte, so the padding is wrong whatever the IV. (Flipping a bit of the last block instead
    /// scrambles it at random, and with a random IV about one run in 256 ends in valid padding.)
    @Test(arguments: CipherMode.allCases)
    func tamperedCiphertextIsAnError(mode: CipherMode) throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: mode)
        var bytes = try Base64.decode(cryptor.encryptPayload(bytes(Self.sampleMessage)))
        try #require(bytes.count >= 2 * AES.blockLength)
        bytes[bytes.count - AES.blockLength - 1] ^= 0x01
        #expect(cryptor.decryptPayload(Base64.encode(bytes)) == .failure(.invalidPadding))
    }

    /// Base64 text cut short: by a character (no longer a multiple of 4), or by a whole block of ciphertext
    /// (re-encoded, so the last block is no longer the padding block).
    @Test(arguments: CipherMode.allCases)
    func truncatedPayloadIsAnError(mode: CipherMode) throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: mode)
        let payload = cryptor.encryptPayload(bytes(Self.sampleMessage))
        #expect(cryptor.decryptPayload(String(payload.dropLast())) == .failure(.invalidBase64))
        let shortened = String(payload.dropLast(4))
        let shortenedLength = try Base64.decode(shortened).count
        #expect(shortenedLength % 16 != 0)
        #expect(cryptor.decryptPayload(shortened) == .failure(.invalidCiphertextLength(shortenedLength)))
        let bytes = try Base64.decode(payload)
        let oneBlockLess = Base64.encode(Array(bytes.dropLast(16)))
        #expect(cryptor.decryptPayload(oneBlockLess) == .failure(.invalidPadding))
    }

    @Test(arguments: CipherMode.allCases)
    func notBase64OrEmptyIsAnError(mode: CipherMode) {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: mode)
        #expect(cryptor.decryptPayload("hello world") == .failure(.invalidBase64))
        #expect(cryptor.decryptPayload("06UDjczkvAAYcqWf NwkOiQ==") == .failure(.invalidBase64))
        #expect(cryptor.decryptPayload("") == .failure(.emptyPayload))
        #expect(MessageCryptorTests.failure(of: cryptor.decrypt(wireValue: "")) == .emptyPayload)
    }

    /// Values a peer with this configuration never sends. In the 3.3 mode arrays and dictionaries are legitimate.
    @Test(arguments: CipherMode.allCases)
    func unexpectedWireValuesAreErrors(mode: CipherMode) throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: mode)
        var cases: [(String, String)] = [("42", "number or boolean"), ("true", "number or boolean"), ("null", "null")]
        if mode != .compatibility33 {
            cases += [("[\"06UDjczkvAAYcqWfNwkOiQ==\"]", "array"), ("{\"a\":\"06UDjczkvAAYcqWfNwkOiQ==\"}", "object")]
        }
        for (json, kind) in cases {
            let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
            #expect(MessageCryptorTests.failure(of: cryptor.decrypt(wireValue: value)) == .unexpectedWireValue(kind))
        }
    }

    // MARK: - IV layout fallback

    /// A random-IV reader without fallback needs at least two blocks; a one-block fixed-IV payload is refused, and
    /// accepted (as fixed IV) with the fallback.
    @Test func randomIVReaderAndOneBlockPayload() throws {
        let strict = MessageCryptor(cipherKey: "enigma", mode: .randomIV, acceptsEitherIVLayout: false)
        #expect(strict.decryptPayload("06UDjczkvAAYcqWfNwkOiQ==") == .failure(.invalidCiphertextLength(16)))
        let lenient = MessageCryptor(cipherKey: "enigma", mode: .randomIV)
        let decrypted = try lenient.decryptPayload("06UDjczkvAAYcqWfNwkOiQ==").get()
        #expect(decrypted == .init(text: "\"Hello World\"", isJSON: true, format: .fixedIV))
    }

    /// An empty message with a random IV is one IV block and one padding block; it decrypts to empty text.
    @Test func emptyPlaintextWithRandomIV() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .randomIV)
        let payload = cryptor.encryptPayload([])
        #expect(try Base64.decode(payload).count == 32)
        #expect(try cryptor.decryptPayload(payload).get() == .init(text: "", isJSON: false, format: .randomIV))
    }
}
