import Foundation
import TestSupport

// The recorded exchanges LocalOrigin answers differently on purpose (docs/PROTOCOL.md §3.1 lists them with these
// reasons). Each difference is a rule decided from the recording alone. Most say exactly what differs: the replay
// then checks that LocalOrigin's answer differs from the recording and equals the recording with that difference
// applied, so nothing else may differ. The others (an Access Manager refusal, an App Context event) need a state
// LocalOrigin cannot have; their answers are only checked to differ.

/// One difference LocalOrigin keeps on purpose.
struct KeptDifference: Sendable {
    /// Why it is kept, as docs/PROTOCOL.md §3.1 says it.
    let reason: String
    /// True for the recordings it concerns.
    let applies: @Sendable (RecordedExchange) -> Bool
    /// The recording as LocalOrigin answers it; nil when LocalOrigin cannot be in the recorded state at all.
    let expected: (@Sendable (RecordedExchange) -> RecordedExchange)?
}

enum KeptDifferences {
    /// The rules that apply to `exchange`, combined into one: their reasons, and the recording with each difference
    /// applied in turn (nil when one of them cannot be compared). Nil when none applies.
    static func rule(for exchange: RecordedExchange) -> KeptDifference? {
        let applying = KeptDifferences.rules.filter { $0.applies(exchange) }
        guard !applying.isEmpty else { return nil }
        let steps = applying.map(\.expected)
        let combined: (@Sendable (RecordedExchange) -> RecordedExchange)? =
            steps.contains { $0 == nil }
            ? nil : { @Sendable exchange in steps.reduce(exchange) { partial, step in step?(partial) ?? partial } }
        return KeptDifference(
            reason: applying.map(\.reason).joined(separator: "; "),
            applies: { _ in true },
            expected: combined
        )
    }

    static let rules: [KeptDifference] = [
        KeptDifference(
            reason: "Access Manager: the recorded key had grants or add-ons LocalOrigin does not model (a 403)",
            applies: { $0.status == 403 },
            expected: nil
        ),
        KeptDifference(
            reason: "App Context: an objects event (`e` 2), which only the service's App Context publishes",
            applies: { exchange in
                KeptDifferences.envelopes(exchange).contains { $0["e"] != nil }
            },
            expected: nil
        ),
        KeptDifference(
            reason: "a repeated envelope: the answer holds one message more often than its request names "
                + "subscriptions (pubnub/ruby's message-count test repeats one envelope past the count threshold)",
            applies: { exchange in
                let keys = KeptDifferences.envelopes(exchange).map(KeptDifferences.deliveryKey)
                return Dictionary(grouping: keys) { $0 }.values.contains { $0.count > 2 }
            },
            expected: { exchange in
                var seen: Set<String> = []
                let once = KeptDifferences.envelopes(exchange).filter {
                    seen.insert(KeptDifferences.deliveryKey($0)).inserted
                }
                return KeptDifferences.withEnvelopes(once, of: exchange)
            }
        ),
        KeptDifference(
            reason: "repeated join: the service announced a uuid joining a channel it had joined and not left (two "
                + "presence nodes answering its subscribe and heartbeat, 2016); LocalOrigin announces a join once",
            applies: { exchange in
                KeptDifferences.withoutRepeatedJoins(KeptDifferences.envelopes(exchange)).count
                    < KeptDifferences.envelopes(exchange).count
            },
            expected: { exchange in
                KeptDifferences.withEnvelopes(
                    KeptDifferences.withoutRepeatedJoins(KeptDifferences.envelopes(exchange)),
                    of: exchange
                )
            }
        ),
        KeptDifference(
            reason: "flags: `f` set by a publisher the recording does not show; no publish parameter sets it, so "
                + "LocalOrigin always sends 0",
            applies: { exchange in
                KeptDifferences.envelopes(exchange).contains { $0["f"] != .int(0) }
            },
            expected: { exchange in
                let cleared = KeptDifferences.envelopes(exchange).map { envelope -> RecordedJSON in
                    var members = envelope.members ?? [:]
                    members["f"] = .int(0)
                    return .object(members)
                }
                return KeptDifferences.withEnvelopes(cleared, of: exchange)
            }
        ),
        KeptDifference(
            reason: "charset spelling: the service's publish answers name the charset quoted or not (both seen in "
                + "2025); LocalOrigin always quotes it",
            applies: { $0.status == 200 && $0.headers["content-type"] == "text/javascript; charset=UTF-8" },
            expected: { exchange in
                var headers = exchange.headers
                headers["content-type"] = "text/javascript; charset=\"UTF-8\""
                return exchange.replacing(headers: headers)
            }
        ),
        KeptDifference(
            reason: "include_meta alone: the service's 2020–2021 answers added each message's timetoken, its 2023 "
                + "answers do not; LocalOrigin follows the newer",
            applies: { exchange in
                exchange.endpoint == "history-v2" && exchange.parameter("include_meta") == "true"
                    && exchange.parameter("include_token") != "true"
                    && (exchange.answerJSON?.elements?.first?.elements ?? []).contains { $0["timetoken"] != nil }
            },
            expected: { exchange in
                guard var elements = exchange.answerJSON?.elements, let items = elements.first?.elements else {
                    return exchange
                }
                elements[0] = .array(
                    items.map { item in
                        var members = item.members ?? [:]
                        members["timetoken"] = nil
                        return .object(members)
                    }
                )
                return exchange.replacing(answer: RecordedJSON.array(elements).description)
            }
        ),
        KeptDifference(
            reason: "escaped channel names: a v3 fetch answer named a channel percent-encoded once more "
                + "(`channel%7Cencoded%3A%3A1`); LocalOrigin names it as decoded, as every other answer does",
            applies: { exchange in
                exchange.endpoint == "history-v3"
                    && (exchange.answerJSON?["channels"]?.members ?? [:]).keys.contains {
                        $0.contains("%")
                    }
            },
            expected: { exchange in
                guard var answer = exchange.answerJSON?.members, let channels = answer["channels"]?.members else {
                    return exchange
                }
                answer["channels"] = .object(
                    Dictionary(
                        uniqueKeysWithValues: channels.map { ($0.key.removingPercentEncoding ?? $0.key, $0.value) }
                    )
                )
                return exchange.replacing(answer: RecordedJSON.object(answer).description)
            }
        ),
    ]

    /// The envelopes of a subscribe answer (none for other endpoints).
    static func envelopes(_ exchange: RecordedExchange) -> [RecordedJSON] {
        guard exchange.endpoint == "subscribe" else { return [] }
        return exchange.answerJSON?["m"]?.elements ?? []
    }

    /// A delivered message's identity: its channel and publish timetoken.
    static func deliveryKey(_ envelope: RecordedJSON) -> String {
        "\(envelope["c"]?.text ?? "")|\(envelope["p"]?["t"]?.integer ?? 0)"
    }

    /// `envelopes` without the joins of a uuid to a channel it had joined since its last leave or timeout, deciding
    /// in timetoken order (the order things happened); every copy of a dropped join goes.
    static func withoutRepeatedJoins(_ envelopes: [RecordedJSON]) -> [RecordedJSON] {
        var present: Set<String> = []
        var dropped: Set<String> = []
        var decided: Set<String> = []
        for envelope in KeptDifferences.inTimeOrder(envelopes) {
            let key = KeptDifferences.deliveryKey(envelope)
            guard let channel = envelope["c"]?.text, let action = envelope["d"]?["action"]?.text,
                let uuid = envelope["d"]?["uuid"]?.text, decided.insert(key).inserted
            else { continue }
            let member = "\(channel)|\(uuid)"
            switch action {
            case "join": if !present.insert(member).inserted { dropped.insert(key) }
            case "leave", "timeout": present.remove(member)
            default: break
            }
        }
        return envelopes.filter { !dropped.contains(KeptDifferences.deliveryKey($0)) }
    }

    /// `envelopes` sorted by publish timetoken, ties in the order given.
    static func inTimeOrder(_ envelopes: [RecordedJSON]) -> [RecordedJSON] {
        envelopes.enumerated()
            .sorted {
                ($0.element["p"]?["t"]?.integer ?? 0, $0.offset) < ($1.element["p"]?["t"]?.integer ?? 0, $1.offset)
            }
            .map(\.element)
    }

    /// `exchange` with its subscribe answer's envelopes replaced.
    static func withEnvelopes(_ envelopes: [RecordedJSON], of exchange: RecordedExchange) -> RecordedExchange {
        var answer = exchange.answerJSON?.members ?? [:]
        answer["m"] = .array(envelopes)
        return exchange.replacing(answer: RecordedJSON.object(answer).description)
    }
}
