import Foundation
import Testing

@testable import PubNubLegacy

/// Prints encryption speed figures (docs/DESIGN.md §10: benchmarks print, tests never assert on time). The figures mean
/// something in an optimized build:
/// `swift test -c release -Xswiftc -enable-testing --filter MessageCryptorThroughputTests`.
/// What the test does check is that the measured outputs decrypt back to their inputs. Scripts/bench-crypto.sh runs
/// it and reads its `BENCH` lines: encrypt = JSON text → `"base64"` (AES-256-CBC, PKCS#7, base64), decrypt =
/// base64 → JSON text (base64 decode, AES-256-CBC, padding check, UTF-8 check).
@Suite struct MessageCryptorThroughputTests {
    /// Seconds per run of `body`: the best of several timing rounds, each running `body` for at least
    /// `roundSeconds` (and at least once), because other processes share the machine and only ever slow a round
    /// down. Debug builds do one round: their figures mean nothing anyway.
    static func secondsPerRun(roundSeconds: Double = 0.05, _ body: () -> Void) -> Double {
        #if DEBUG
        let rounds = 1
        #else
        let rounds = 9
        #endif
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = clock.now
            var runs = 0
            var elapsed = Duration.zero
            repeat {
                body()
                runs += 1
                elapsed = clock.now - start
            } while elapsed < .seconds(roundSeconds)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds / Double(runs))
        }
        return best
    }

    static func report(_ name: String, bytes: Int, seconds: Double) {
        let line = String(
            format: "%@: %.2f µs per message, %.1f MB/s",
            name,
            seconds * 1e6,
            Double(bytes) / seconds / 1e6
        )
        print("[crypto throughput] \(line)")
    }

    /// A machine-readable figure for Scripts/bench-crypto.sh: `BENCH <name> <value> <unit>`.
    static func bench(_ name: String, _ value: Double, _ unit: String) {
        print(String(format: "BENCH %@ %.3f %@", name, value, unit))
    }

    @Test func throughputFigures() throws {
        let cryptor = MessageCryptor(cipherKey: "enigma", mode: .standard)
        // The 1 KiB message of Tests/PubNubLegacyTests/Fixtures/crypto-vectors.json (`string_1KiB`): 1024 bytes of JSON
        // text.
        let kibMessage = "\"" + String(String(repeating: "PubNub 1KiB payload ", count: 52).prefix(1022)) + "\""
        let mibMessage =
            "\"" + String(String(repeating: "PubNub 1MiB payload ", count: 52_429).prefix(1_048_574)) + "\""
        #expect(kibMessage.utf8.count == 1024)
        #expect(mibMessage.utf8.count == 1_048_576)

        for (name, message) in [("1 KiB", kibMessage), ("1 MiB", mibMessage)] {
            var wire = ""
            let encrypt = Self.secondsPerRun { wire = try! cryptor.encrypt(messageJSONText: message).get() }
            let payload = String(wire.dropFirst().dropLast())
            var decrypted: MessageCryptor.DecryptedPayload?
            let decrypt = Self.secondsPerRun { decrypted = try? cryptor.decryptPayload(payload).get() }
            #expect(decrypted?.text == message)
            var value: Any?
            let decryptValue = Self.secondsPerRun { value = try? cryptor.decrypt(wireValue: payload).get() }
            #expect(value as? String == String(message.dropFirst().dropLast()))
            Self.report("encrypt \(name) (JSON text → wire JSON)", bytes: message.utf8.count, seconds: encrypt)
            Self.report("decrypt \(name) (base64 → JSON text)", bytes: message.utf8.count, seconds: decrypt)
            Self.report("decrypt \(name) (wire value → parsed value)", bytes: message.utf8.count, seconds: decryptValue)
            if message.utf8.count == 1024 {
                Self.bench("swift_encrypt_1KiB", encrypt * 1e6, "us")
                Self.bench("swift_decrypt_1KiB", decrypt * 1e6, "us")
            } else {
                Self.bench("swift_encrypt_1MiB", Double(message.utf8.count) / encrypt / 1e6, "MB/s")
                Self.bench("swift_decrypt_1MiB", Double(message.utf8.count) / decrypt / 1e6, "MB/s")
            }
        }
    }
}
