import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// Part 1 of the replay of the service's recorded exchanges (Tests/Recordings/README.md): every recorded request of
// an endpoint LocalOrigin serves is sent to a fresh LocalOrigin after re-creating the state its answer shows, and
// LocalOrigin's answer must agree with the recorded one — status, JSON structure, types and values (normalising
// only what must differ, `AnswerComparison`), and the headers clients use when the recording has the service's
// current header set. The exchanges LocalOrigin answers differently on purpose are `KeptDifferences`, each with
// its reason (listed in docs/PROTOCOL.md §3.1): they must still differ, so the list stays true, and where the rule
// says exactly what differs, LocalOrigin's answer must equal the recording with that applied.

@Suite struct ServiceReplayTests {
    /// The differences between the recorded answer to `exchange` and LocalOrigin's; empty when they agree.
    /// `recording` is what LocalOrigin's answer is compared with: the recording itself, or it with a kept
    /// difference applied (the request and the re-created state are always the recorded exchange's).
    static func differences(_ exchange: RecordedExchange, against recording: RecordedExchange? = nil) -> [String] {
        let recording = recording ?? exchange
        let origin = ReplayOrigin(announceMax: ReplayOrigin.announceMax(for: exchange))
        defer { origin.stop() }
        let target = origin.stage(exchange)
        guard let response = origin.answer(exchange, target: target) else { return ["no answer"] }
        var found: [String] = []
        if response.status != recording.status {
            found.append("status: recorded \(recording.status), LocalOrigin \(response.status)")
        }
        if AnswerComparison.hasCurrentHeaders(recording) {
            found += AnswerComparison.headerDifferences(recording, local: response.headers)
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard let recorded = RecordedJSON.parse(ReplayOrigin.resolved(recording.answer)) else {
            return found + ["the recorded answer is not JSON"]
        }
        guard let local = RecordedJSON.parse(text) else { return found + ["LocalOrigin's answer is not JSON: \(text)"] }
        if exchange.endpoint == "subscribe" {
            return found
                + AnswerComparison(tokens: origin.tokens).differences(
                    recorded: AnswerComparison.groupingEnvelopesByChannel(recorded),
                    local: AnswerComparison.groupingEnvelopesByChannel(local)
                )
        }
        let comparison = AnswerComparison(
            tokens: origin.tokens,
            isUnordered: ReplayOrigin.unorderedPaths(of: exchange)
        )
        return found + comparison.differences(recorded: recorded, local: local)
    }

    @Test(arguments: RecordedExchanges.shared.exchanges)
    func localOriginAnswersAsTheServiceDid(_ exchange: RecordedExchange) {
        let found = ServiceReplayTests.differences(exchange)
        guard let kept = KeptDifferences.rule(for: exchange) else {
            #expect(found.isEmpty, "\(exchange.provenance): \(found.joined(separator: "; "))")
            return
        }
        #expect(!found.isEmpty, "\(exchange.provenance) matches although kept as different (\(kept.reason))")
        if let expected = kept.expected {
            let remaining = ServiceReplayTests.differences(exchange, against: expected(exchange))
            let otherwise = remaining.joined(separator: "; ")
            #expect(
                remaining.isEmpty,
                "\(exchange.provenance), kept as different (\(kept.reason)), differs otherwise too: \(otherwise)"
            )
        }
    }
}

extension ServiceReplayTests {
    /// The endpoints LocalOrigin serves that the recordings cover.
    static let endpoints = [
        "time", "publish", "subscribe", "leave", "heartbeat", "here-now", "here-now-global", "where-now", "state-get",
        "state-set", "history-v2", "history-v3", "channel-groups", "push-v1", "push-v2",
    ]

    /// Every endpoint has recordings, and most of each endpoint's recordings are matched, not kept as different.
    /// `REPLAY_SUMMARY=1 swift test --filter ServiceReplayTests` prints the counts per endpoint (for the closing
    /// notes of docs/PROTOCOL.md §3.1).
    @Test func theRecordingsCoverEveryEndpointAndMostMatch() {
        let fixture = RecordedExchanges.shared
        var lines: [String] = []
        for endpoint in ServiceReplayTests.endpoints {
            let exchanges = fixture.exchanges(of: endpoint)
            let kept = exchanges.filter { KeptDifferences.rule(for: $0) != nil }
            let headers = exchanges.filter(AnswerComparison.hasCurrentHeaders)
            #expect(!exchanges.isEmpty, "no recording of \(endpoint)")
            #expect(kept.count * 4 < exchanges.count, "\(endpoint): \(kept.count) of \(exchanges.count) kept")
            let recordings = exchanges.map(\.alike).reduce(0, +)
            lines.append(
                "\(endpoint): \(exchanges.count) exchanges (\(recordings) recordings), matched \(exchanges.count - kept.count), "
                    + "kept different \(kept.count), headers compared \(headers.count)"
            )
        }
        let kept = fixture.exchanges.compactMap { exchange in
            KeptDifferences.rule(for: exchange).map { (reason: $0.reason, id: exchange.id) }
        }
        for (reason, list) in Dictionary(grouping: kept, by: \.reason).sorted(by: { $0.key < $1.key }) {
            lines.append("  \(list.count)× \(reason): \(list.map(\.id).joined(separator: ", "))")
        }
        if ProcessInfo.processInfo.environment["REPLAY_SUMMARY"] != nil { print(lines.joined(separator: "\n")) }
    }
}
