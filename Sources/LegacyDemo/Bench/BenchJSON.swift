import Foundation
import PubNubLegacy

/// Workload 8 of `LegacyDemo bench`: the JSON encoding every `sendMessage` does, with and without a cipher key,
/// through the package's `JSONFragmentEncoder`, beside `JSONSerialization` (what the package used before, and what
/// the encoder's output is identical to) on the same value in the same run. Two payloads: a 1 KiB `String` (its JSON
/// text is the 1,024 bytes of `BenchCrypto.message`) and a small dictionary shaped like a chat message.
enum BenchJSON {
    /// The 1 KiB payload: `BenchCrypto.message` without its quotes.
    static let string = String(BenchCrypto.message.dropFirst().dropLast())

    /// A small message: five keys, numbers and strings.
    static var dictionary: [String: Any] {
        ["text": "hello from the bench", "seq": 4_217, "t": 1_732_000_000_123_456, "userId": "user-42", "n": 3.5]
    }

    /// Microseconds per encoding, ours and `JSONSerialization`'s, for each payload: the best of `rounds` rounds of at
    /// least `roundSeconds`. Throws when the two encoders do not write the same text.
    static func measure(
        rounds: Int,
        roundSeconds: Double
    ) throws -> (string: Double, stringFoundation: Double, dictionary: Double, dictionaryFoundation: Double) {
        for payload in [Self.string as Any, Self.dictionary as Any] {
            let ours = JSONFragmentEncoder.encode(payload)
            guard let ours, ours == JSONFragmentEncoder.foundationEncoding(of: payload) else {
                throw BenchError("json: the encoder's text differs from JSONSerialization's: \(ours ?? "nil")")
            }
        }
        guard JSONFragmentEncoder.encode(Self.string) == BenchCrypto.message else {
            throw BenchError("json: the 1 KiB payload does not encode to the 1,024-byte message")
        }
        var sink = 0
        func perRun(_ encode: (Any) -> String?, _ payload: Any) -> Double {
            // Every run adds a length, so the optimizer cannot drop the work.
            BenchCrypto.secondsPerRun(rounds: rounds, roundSeconds: roundSeconds) {
                sink &+= encode(payload)?.utf8.count ?? 0
            } * 1e6
        }
        let string = perRun(JSONFragmentEncoder.encode, Self.string)
        let stringFoundation = perRun(JSONFragmentEncoder.foundationEncoding, Self.string)
        let dictionary = perRun(JSONFragmentEncoder.encode, Self.dictionary)
        let dictionaryFoundation = perRun(JSONFragmentEncoder.foundationEncoding, Self.dictionary)
        guard sink > 0 else { throw BenchError("json: no work was done") }
        return (string, stringFoundation, dictionary, dictionaryFoundation)
    }
}
