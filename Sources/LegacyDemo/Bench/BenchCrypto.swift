import Foundation
import PubNubLegacy

/// Workload 6 of `LegacyDemo bench`: encrypting and decrypting one 1 KiB message with the cipher a client gets
/// from `PNConfiguration.cipherKey` (the 3.4 standard scheme, key `enigma`), through the package's `MessageCipher`:
/// the `MessageCryptor` calls a publish and a received message go through when a cipher key is set, without the
/// request around them. Encrypt = the message's JSON text → the quoted base64 text sent; decrypt = the base64 value
/// received → the message value delivered (base64, AES-256-CBC, padding and UTF-8 checks, JSON parse). The JSON
/// encoding `sendMessage` does with or without a cipher key is not part of it.
enum BenchCrypto {
    /// The JSON text of the 1 KiB message of Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json (`string_1KiB`):
    /// 1,024 bytes, a JSON string.
    static let message = "\"" + String(String(repeating: "PubNub 1KiB payload ", count: 52).prefix(1022)) + "\""

    /// Microseconds per encryption and per decryption: the best of `rounds` rounds of at least `roundSeconds`.
    /// Throws when the message does not come back intact.
    static func measure(rounds: Int, roundSeconds: Double) throws -> (encrypt: Double, decrypt: Double) {
        let configuration = PNConfiguration(
            origin: "127.0.0.1",
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: nil,
            cipherKey: "enigma"
        )
        guard let cipher = MessageCipher(configuration: configuration),
            let wire = cipher.encrypt(messageJSONText: Self.message)
        else { throw BenchError("crypto: the 1 KiB message could not be encrypted") }
        // The standard scheme sends a JSON string; a subscriber decrypts its value, the base64 text.
        let payload = String(wire.dropFirst().dropLast())
        guard wire.hasPrefix("\""), cipher.decrypt(payload) as? String == String(Self.message.dropFirst().dropLast())
        else {
            throw BenchError("crypto: the 1 KiB message did not decrypt back to itself")
        }
        var sink = 0
        let encrypt = Self.secondsPerRun(rounds: rounds, roundSeconds: roundSeconds) {
            sink &+= cipher.encrypt(messageJSONText: Self.message)?.utf8.count ?? 0
        }
        let decrypt = Self.secondsPerRun(rounds: rounds, roundSeconds: roundSeconds) {
            sink &+= (cipher.decrypt(payload) as? String)?.utf8.count ?? 0
        }
        // Every run adds a length, so the optimizer cannot drop the work.
        guard sink > 0 else { throw BenchError("crypto: no work was done") }
        return (encrypt * 1e6, decrypt * 1e6)
    }

    /// Seconds per run of `body`: the best of `rounds` rounds, each running it for at least `roundSeconds`.
    static func secondsPerRun(rounds: Int, roundSeconds: Double, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<max(rounds, 1) {
            let started = nowNanos()
            var runs = 0
            var elapsed = 0.0
            repeat {
                body()
                runs += 1
                elapsed = Double(nowNanos() - started) / 1e9
            } while elapsed < roundSeconds
            best = min(best, elapsed / Double(runs))
        }
        return best
    }
}
