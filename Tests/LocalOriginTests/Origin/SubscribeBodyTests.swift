import TestSupport
import Testing

@testable import LocalOrigin

/// The v2 subscribe answer written straight into bytes (`OriginStore.v2Body`) against the `JSONValue` tree it once
/// built per envelope: the bytes must be the same for any deliveries (random ones; the seed is printed on failure).
@Suite struct SubscribeBodyTests {
    /// The answer as the origin built it before it wrote envelopes as bytes: one `JSONValue` tree, serialized.
    static func treeBody(_ items: [Delivery], cursor: UInt64, subscribeKey: String, namesSeveral: Bool) -> [UInt8] {
        let envelopes: [JSONValue] = items.map { item in
            let message = item.message
            var members: [JSONMember] = [
                JSONMember(key: "a", value: .string("1")),
                JSONMember(key: "f", value: .int(0)),
            ]
            if let publisher = message.publisher { members.append(JSONMember(key: "i", value: .string(publisher))) }
            if let type = message.extras.customType { members.append(JSONMember(key: "cmt", value: .string(type))) }
            if let sequence = message.extras.sequence { members.append(JSONMember(key: "s", value: .int(sequence))) }
            if let originator = message.extras.originator { members.append(JSONMember(key: "o", value: originator)) }
            members += [
                JSONMember(
                    key: "p",
                    value: .object(["t": .string(String(message.timetoken)), "r": .int(OriginStore.region)])
                ),
                JSONMember(key: "k", value: .string(subscribeKey)),
                JSONMember(key: "c", value: .string(message.channel)),
                JSONMember(key: "d", value: .raw(message.payload)),
            ]
            if namesSeveral || !item.direct {
                members.append(JSONMember(key: "b", value: .string(item.match)))
            }
            if let meta = message.meta { members.append(JSONMember(key: "u", value: .raw(meta))) }
            return .object(members)
        }
        let body: JSONValue = .object([
            "t": .object(["t": .string(String(cursor)), "r": .int(OriginStore.region)]),
            "m": .array(envelopes),
        ])
        return body.serializedBytes
    }

    static let names = ["", "ch", "a b", "é中😀", "q\"uote", "back\\slash", "line\nbreak", "\u{2028}\u{2029}", "\u{1}"]

    @Test func writesTheBytesTheTreeWrote() {
        for seed in randomTestSeeds(overriddenBy: "SUBSCRIBE_BODY_SEED") {
            var random = SeededGenerator(seed: seed)
            var texts = RandomJSONText(seed: seed)
            func name() -> String {
                Self.names.randomElement(using: &random)! + String(Int.random(in: 0...9, using: &random))
            }
            func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
            func json() -> String {
                let bytes = texts.valid()
                return bytes.withUnsafeBufferPointer { OriginStore.jsonText($0)! }
            }
            let tokens: [UInt64] = [0, 9, 10, UInt64.max, 14_818_963_579_052_943]
            for index in 0..<300 {
                let items: [Delivery] = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    var extras = PublishExtras()
                    extras.sequence = maybe(Int.random(in: Int.min...Int.max, using: &random))
                    extras.customType = maybe(name())
                    extras.originator = maybe(
                        .object(["t": .string(name()), "r": .int(Int.random(in: -9...9, using: &random))])
                    )
                    let message = StoredMessage(
                        timetoken: Bool.random(using: &random)
                            ? tokens.randomElement(using: &random)! : UInt64.random(in: 0...UInt64.max, using: &random),
                        channel: name(),
                        payload: json(),
                        publisher: maybe(name()),
                        meta: maybe(json()),
                        extras: extras
                    )
                    return Delivery(message: message, match: name(), direct: Bool.random(using: &random))
                }
                let cursor = UInt64.random(in: 0...UInt64.max, using: &random)
                let key = name()
                let several = Bool.random(using: &random)
                let written = OriginStore.v2Body(items, cursor: cursor, subscribeKey: key, namesSeveral: several)
                #expect(
                    written.serializedBytes
                        == Self.treeBody(items, cursor: cursor, subscribeKey: key, namesSeveral: several),
                    "seed \(seed) case \(index) (rerun with SUBSCRIBE_BODY_SEED=\(seed))"
                )
            }
        }
    }

    @Test(arguments: [0, 1, 9, 10, 99, 100, 14_818_963_579_052_943, UInt64.max] as [UInt64])
    func writesTimetokenDigitsAsStringDoes(_ value: UInt64) {
        var out: [UInt8] = []
        HTTPResponse.appendDecimal(value, to: &out)
        #expect(out == Array(String(value).utf8))
    }
}
