import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// `PNMessage.jsonText(for:)` looks up once what kind of Swift container a payload is (`PayloadShape`) and hands the
/// answer to the payload checks and to the writer, which otherwise look it up themselves. Handing it over must change
/// nothing: on the random values of `MessageValueGenerator` (optionals at every level, empty ones inside full ones,
/// arrays and dictionaries of every kind, invalid values), the checks and the writer decide with the shape handed over
/// exactly what they decide when they look it up — which JSONFragmentEncoderTests compare with `JSONSerialization`.
@Suite struct PayloadShapeTests {
    @Test func aShapeHandedOverChangesNeitherTheChecksNorTheText() {
        for seed in randomTestSeeds(overriddenBy: "JSON_ENCODER_SEED") {
            var generator = MessageValueGenerator(seed: seed, exotic: true)
            var containers = 0
            var failures = 0
            for index in 0..<2_500 where failures < 3 {
                let value = generator.value()
                let shape = PayloadShape.of(value)
                if case .optional = shape {
                    continue  // a message's value never is one: `jsonText(for:)` unwraps it first
                }
                if shape != nil {
                    containers += 1
                }
                let context = "seed \(seed) case \(index) (rerun with JSON_ENCODER_SEED=\(seed))"
                let asked = PNMessage.payloadError(value)
                let handed = PNMessage.payloadError(value, shape: .known(shape))
                if asked?.code != handed?.code || asked?.localizedFailureReason != handed?.localizedFailureReason {
                    failures += 1
                    Issue.record("\(context): checks \(String(describing: asked)) vs \(String(describing: handed))")
                }
                let written = JSONFragmentEncoder.ownEncoding(of: value, shape: .known(shape))
                if written != JSONFragmentEncoder.ownEncoding(of: value) {
                    failures += 1
                    Issue.record("\(context): writer \(written) vs \(JSONFragmentEncoder.ownEncoding(of: value))")
                }
            }
            #expect(containers > 500, "seed \(seed)")
        }
    }

    /// The message path end to end: a payload wrapped in optionals is sent as the same text as the bare payload, and
    /// containers of every kind keep their JSONSerialization text.
    @Test func messagesOfEveryContainerKindKeepTheirText() throws {
        let cases: [(Any?, String)] = [
            (["n": 1], #"{"n":1}"#),
            (["b": "x", "a": [1, 2]] as [String: Any], #"{"a":[1,2],"b":"x"}"#),
            (Optional(Optional(["n": 1])) as Any, #"{"n":1}"#),
            ([1, nil, 3] as [Int?], "[1,null,3]"),
            ([["k": true]], #"[{"k":true}]"#),
            (["k": "v"] as [AnyHashable: Any], #"{"k":"v"}"#),
            (NSDictionary(dictionary: ["k": NSNumber(value: true)]), #"{"k":true}"#),
            (NSArray(array: [NSNumber(value: 1.5), "s"]), #"[1.5,"s"]"#),
            ("plain", #""plain""#),
            (7, "7"),
        ]
        for (payload, text) in cases {
            #expect(try PNMessage.jsonText(for: payload).get() == text, "\(String(describing: payload))")
        }
        #expect(throws: PNError.self) { try PNMessage.jsonText(for: [1: "integer key"] as [Int: String]).get() }
        #expect(throws: PNError.self) { try PNMessage.jsonText(for: ["n": Double.nan]).get() }
        #expect(throws: PNError.self) { try PNMessage.jsonText(for: [Int??.some(nil)]).get() }
    }
}
