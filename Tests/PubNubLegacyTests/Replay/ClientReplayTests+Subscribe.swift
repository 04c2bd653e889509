import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

// The subscribe answers of the replay: the client subscribes to the channels the recorded request names (presence
// observed where it names `-pnpres` companions), its first long-poll after the handshake gets the recorded answer,
// and every envelope must reach the delegate in order as what 3.4 code expects of it: a presence event for an object
// with `action`, `timestamp`, `uuid` and `occupancy` on a `-pnpres` channel (3.4's test: `leave` and `timeout` map to
// their types, anything else to join), one presence event per listed uuid of an `interval` event and nothing for an
// interval without a list (MIGRATION.md §5), and a message with the envelope's channel and payload otherwise.

extension ClientReplayTests {
    /// What the client must report for one envelope.
    enum Expected: Equatable, CustomStringConvertible {
        case message(channel: String, payload: RecordedJSON)
        case presence(type: PNPresenceEventType, uuid: String, occupancy: Int64, channel: String)

        var description: String {
            switch self {
            case .message(let channel, let payload): return "message \(channel) \(payload)"
            case .presence(let type, let uuid, let occupancy, let channel):
                return "presence \(type.rawValue) \(uuid) \(occupancy) \(channel)"
            }
        }
    }

    /// The reports an answer's envelopes call for, in order, read from the recording.
    static func expectedReports(_ answer: RecordedJSON) -> [Expected] {
        var reports: [Expected] = []
        for envelope in answer["m"]?.elements ?? [] {
            guard let channel = envelope["c"]?.text else { continue }
            let payload = envelope["d"] ?? .null
            let base = String(channel.dropLast("-pnpres".count))
            if channel.hasSuffix("-pnpres"), let action = payload["action"]?.text {
                let occupancy = payload["occupancy"]?.integer ?? 0
                if let uuid = payload["uuid"]?.text, payload["timestamp"] != nil, payload["occupancy"] != nil {
                    let type: PNPresenceEventType =
                        action == "leave"
                        ? .PNPresenceEventLeave
                        : action == "timeout" ? .PNPresenceEventTimeout : .PNPresenceEventJoin
                    reports.append(.presence(type: type, uuid: uuid, occupancy: occupancy, channel: base))
                    continue
                }
                if action == "interval" {
                    let lists: [(String, PNPresenceEventType)] = [
                        ("join", .PNPresenceEventJoin), ("leave", .PNPresenceEventLeave),
                        ("timeout", .PNPresenceEventTimeout),
                    ]
                    for (key, type) in lists {
                        for uuid in payload[key]?.elements?.compactMap(\.text) ?? [] {
                            reports.append(.presence(type: type, uuid: uuid, occupancy: occupancy, channel: base))
                        }
                    }
                    continue
                }
            }
            reports.append(.message(channel: channel, payload: payload))
        }
        return reports
    }

    /// What the client reported, in the same terms.
    static func reported(_ entry: EventRecorder.Entry) -> Expected? {
        if let event = entry.value as? PNPresenceEvent {
            return .presence(
                type: event.type,
                uuid: event.uuid ?? "",
                occupancy: Int64(event.occupancy),
                channel: event.channel?.name ?? ""
            )
        }
        guard let message = entry.message, let payload = RecordedJSON(decoded: message.message) else { return nil }
        return .message(channel: message.channel?.name ?? "", payload: payload)
    }

    /// The subscriptions a 3.4 client makes whose answer carries envelopes: no channel groups and no wildcards (it
    /// refuses `*` in a name).
    static let subscribes = ClientReplayTests.servable("subscribe") { exchange in
        exchange.parameter("channel-group") == nil && exchange.status == 200
            && exchange.answerJSON?["m"]?.elements?.isEmpty == false
            && !ClientReplayTests.channels(exchange, at: 3).contains { $0.contains("*") }
    }

    @Test(arguments: ClientReplayTests.subscribes)
    func subscribe(_ exchange: RecordedExchange) async throws {
        let listed = Self.channels(exchange, at: 3)
        let bases = listed.map { $0.hasSuffix("-pnpres") ? String($0.dropLast("-pnpres".count)) : $0 }
        var unique: [String] = []
        for base in bases where !unique.contains(base) { unique.append(base) }
        let channels = unique.map {
            PNChannel.channelWithName($0, shouldObservePresence: listed.contains($0 + "-pnpres"))
        }
        let expected = Self.expectedReports(try #require(exchange.answerJSON))

        let service = try RecordedService(answering: exchange)
        defer { service.stop() }
        let recorder = EventRecorder()
        let client = try await service.connectedClient(recorder)
        defer { client.disconnect() }
        client.subscribeOnChannels(channels)
        let kinds: Set<String> = ["didReceiveMessage", "didReceivePresenceEvent"]
        var reports: [Expected] = []
        try await eventually(
            "\(expected.count) reports of \(exchange.provenance); seen \(recorder.entries)",
            within: 60
        ) {
            reports = recorder.entries.filter { $0.source == .delegate && kinds.contains($0.name) }.compactMap(
                Self.reported
            )
            return reports.count >= expected.count
        }
        #expect(reports == expected, "\(exchange.provenance)")
        let errors = recorder.entries.filter { $0.source == .sink && $0.name == "error" }
        #expect(errors.isEmpty, "\(exchange.provenance): \(errors.map { String(describing: $0.error) })")
    }
}
