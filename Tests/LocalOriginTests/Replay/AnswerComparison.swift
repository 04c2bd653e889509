import TestSupport

// How LocalOrigin's answer is compared with the service's recorded one: the same JSON structure and types, the same
// values — except what must differ between two servers at two times, and nothing else:
// - timetokens (17-digit numbers or strings): of the same JSON type; equal to the token LocalOrigin gave the
//   re-created message or bound the recorded one stands for, when the replay made one (`tokens`);
// - `timestamp` (presence events, Unix seconds), `r` (regions) and `a` (shards): of the same type;
// - arrays the service lists in no particular order (here-now `uuids`, where-now and channel-group `channels`, push
//   channel lists): compared as multisets.

/// One comparison of a recorded answer with LocalOrigin's.
struct AnswerComparison {
    /// Recorded timetoken → the token LocalOrigin gave what stands for it.
    var tokens: [Int64: Int64] = [:]
    /// True for the paths (keys and `[]` for array elements, from the root) whose arrays are sets.
    var isUnordered: ([String]) -> Bool = { _ in false }

    /// Every difference, as `path: recorded …, LocalOrigin …`; empty when the answers agree.
    func differences(recorded: RecordedJSON, local: RecordedJSON) -> [String] {
        var found: [String] = []
        self.compare(recorded, local, path: [], into: &found)
        return found
    }

    /// True for a value that is a timetoken: a 17-digit integer, as a number or a string.
    static func isTimetoken(_ value: RecordedJSON) -> Bool {
        switch value {
        case .int(let number): return (10_000_000_000_000_000..<100_000_000_000_000_000).contains(number)
        case .string(let text): return text.count == 17 && text.allSatisfy(\.isASCII) && Int64(text) != nil
        default: return false
        }
    }

    private func compare(_ recorded: RecordedJSON, _ local: RecordedJSON, path: [String], into found: inout [String]) {
        let here = path.isEmpty ? "(answer)" : path.joined(separator: ".")
        func mismatch() { found.append("\(here): recorded \(recorded), LocalOrigin \(local)") }
        switch path.last {
        case "timestamp", "r":
            if case .int = recorded, case .int = local { return }
        case "a":
            if case .string = recorded, case .string = local { return }
        default:
            break
        }
        if AnswerComparison.isTimetoken(recorded) {
            var sameType = false
            switch (recorded, local) {
            case (.int, .int), (.string, .string): sameType = true
            default: sameType = false
            }
            guard sameType, AnswerComparison.isTimetoken(local) else { return mismatch() }
            if let value = recorded.integer, let expected = self.tokens[value], local.integer != expected { mismatch() }
            return
        }
        switch (recorded, local) {
        case (.object(let expected), .object(let actual)):
            for key in expected.keys.sorted() {
                guard let value = actual[key] else {
                    found.append("\(here): LocalOrigin has no `\(key)` (recorded \(expected[key] ?? .null))")
                    continue
                }
                self.compare(expected[key] ?? .null, value, path: path + [key], into: &found)
            }
            for key in actual.keys.sorted() where expected[key] == nil {
                found.append("\(here): LocalOrigin adds `\(key)` (\(actual[key] ?? .null))")
            }
        case (.array(let expected), .array(let actual)):
            guard expected.count == actual.count else { return mismatch() }
            if self.isUnordered(path) {
                if expected.map(\.description).sorted() != actual.map(\.description).sorted() { mismatch() }
                return
            }
            for (offset, pair) in zip(expected, actual).enumerated() {
                self.compare(pair.0, pair.1, path: path + ["[\(offset)]"], into: &found)
            }
        default:
            if recorded != local { mismatch() }
        }
    }
}

extension AnswerComparison {
    /// A subscribe answer with its envelopes grouped by channel, each channel's in timetoken order. The service
    /// concatenates what each matching subscription delivers, so its answers interleave channels, and a message
    /// delivered twice comes back after the others; LocalOrigin orders an answer by time. What a client relies on —
    /// a channel's messages in publish order — is what is compared.
    static func groupingEnvelopesByChannel(_ answer: RecordedJSON) -> RecordedJSON {
        guard var members = answer.members, let envelopes = members["m"]?.elements else { return answer }
        let keys = envelopes.enumerated().map { offset, envelope in
            (envelope["c"]?.text ?? "", envelope["p"]?["t"]?.integer ?? 0, offset)
        }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        members["m"] = .array(order.map { envelopes[$0] })
        return .object(members)
    }

    /// The headers compared: those a client reads or a browser enforces. (`Access-Control-Allow-Origin` is not: the
    /// service names the requesting page's origin, or nothing without an `Origin` header, while LocalOrigin answers
    /// `*` so that a browser app works against it — docs/PROTOCOL.md §1.2.)
    static let comparedHeaders = [
        "content-type", "cache-control", "access-control-allow-methods", "access-control-allow-credentials",
        "access-control-expose-headers",
    ]

    /// True when the recording carries the service's current header set (it added `Access-Control-Allow-Credentials`
    /// and `Access-Control-Expose-Headers` by 2024): only those recordings' headers are compared, since the service's
    /// older answers had other `Allow-Methods` and content types.
    static func hasCurrentHeaders(_ exchange: RecordedExchange) -> Bool {
        exchange.headers["access-control-allow-credentials"] != nil
    }

    /// The compared headers that differ, as `name: recorded …, LocalOrigin …`.
    static func headerDifferences(_ exchange: RecordedExchange, local: [(name: String, value: String)]) -> [String] {
        let answered = Dictionary(
            local.map { ($0.name.lowercased(), $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
        return AnswerComparison.comparedHeaders.compactMap { name in
            let recorded = exchange.headers[name]
            return recorded == answered[name]
                ? nil : "header \(name): recorded \(recorded ?? "-"), LocalOrigin \(answered[name] ?? "-")"
        }
    }
}
