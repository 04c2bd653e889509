import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// Re-creating a recorded subscribe answer. A handshake (cursor 0) needs nothing. Otherwise, before the cursor: the
// groups get the channels their messages came from, the subscriber is present where its request keeps it present,
// and each presence channel holds as many uuids as its first recorded event implies (the uuids that leave, time out
// or change state first among them). Then a fresh timetoken is the cursor, and every recorded envelope is re-created
// in order — a message by publishing its payload with what the publisher set (uuid, meta, seqn, ortt, custom type),
// a presence event by the request that causes it. The recorded request is sent with that cursor.

extension ReplayOrigin {
    /// One recorded presence event: its channel (without `-pnpres`), action, uuid and occupancy.
    private struct PresenceEvent {
        var channel: String
        var action: String
        var uuid: String?
        var occupancy: Int
        var data: RecordedJSON?
        var deltas: [String: [String]]

        init?(_ envelope: RecordedJSON) {
            guard let name = envelope["c"]?.text, name.hasSuffix("-pnpres"), let payload = envelope["d"],
                let action = payload["action"]?.text
            else { return nil }
            self.channel = String(name.dropLast("-pnpres".count))
            self.action = action
            self.uuid = payload["uuid"]?.text
            self.occupancy = Int(payload["occupancy"]?.integer ?? 0)
            self.data = payload["data"]
            var deltas: [String: [String]] = [:]
            for key in ["join", "leave", "timeout"] {
                deltas[key] = payload[key]?.elements?.compactMap(\.text) ?? []
            }
            self.deltas = deltas
        }

        /// How many uuids the channel held before the event.
        var occupancyBefore: Int {
            switch self.action {
            case "join": return self.occupancy - 1
            case "leave", "timeout": return self.occupancy + 1
            case "interval":
                return self.occupancy - (self.deltas["join"]?.count ?? 0) + (self.deltas["leave"]?.count ?? 0)
                    + (self.deltas["timeout"]?.count ?? 0)
            default: return self.occupancy
            }
        }

        /// The uuids that must be present before the event for it to happen.
        var presentBefore: [String] {
            switch self.action {
            case "leave", "timeout", "state-change": return self.uuid.map { [$0] } ?? []
            case "interval": return (self.deltas["leave"] ?? []) + (self.deltas["timeout"] ?? [])
            default: return []
            }
        }

        /// The uuids that time out in the event.
        var timingOut: [String] {
            self.action == "timeout" ? (self.uuid.map { [$0] } ?? []) : (self.deltas["timeout"] ?? [])
        }
    }

    /// The announce limit a replay of `exchange` needs: 1 when its answer holds `interval` events (the recorded key
    /// was in interval mode), else the default.
    static func announceMax(for exchange: RecordedExchange) -> Int {
        let envelopes = exchange.answerJSON?["m"]?.elements ?? []
        return envelopes.contains { $0["d"]?["action"]?.text == "interval" } ? 1 : 20
    }

    /// The recorded cursor: `tt`, or the `t` of the Ruby SDK's `t={"r":…,"t":…}`; 0 when there is none.
    private static func recordedCursor(_ exchange: RecordedExchange) -> Int64 {
        if let tt = exchange.parameter("tt") { return Int64(tt) ?? 0 }
        guard let text = exchange.parameter("t"), let cursor = RecordedJSON.parse(text) else { return 0 }
        return cursor["t"]?.integer ?? 0
    }

    func stageSubscribe(_ exchange: RecordedExchange, _ answer: RecordedJSON) -> String {
        // A handshake needs nothing. (Some pubnub/python cassettes filtered `tt` out of their requests: an answer with
        // messages is then a poll all the same.)
        let polled = ReplayOrigin.recordedCursor(exchange) != 0 || answer["m"]?.elements?.isEmpty == false
        guard polled else { return exchange.target }
        let listed = (exchange.pathSegments.count > 3 ? exchange.pathSegments[3] : "").split(separator: ",").map {
            String($0).removingPercentEncoding ?? String($0)
        }
        let groups = (exchange.parameter("channel-group") ?? "").split(separator: ",").map(String.init)
        let envelopes = answer["m"]?.elements ?? []
        let events = KeptDifferences.inTimeOrder(envelopes).compactMap(PresenceEvent.init)

        // The groups' channels, as the envelopes show them (`b` the group, or `g-pnpres` for their presence).
        var members: [String] = []
        for envelope in envelopes {
            guard let match = envelope["b"]?.text, let channel = envelope["c"]?.text, groups.contains(match) else {
                continue
            }
            // `g-pnpres` delivers the presence channels of `g`'s channels.
            let isPresence = match.hasSuffix("-pnpres") && channel.hasSuffix("-pnpres")
            let group = isPresence ? String(match.dropLast("-pnpres".count)) : match
            let member = isPresence ? String(channel.dropLast("-pnpres".count)) : channel
            if !members.contains(member) { members.append(member) }
            self.addToGroup(group, [member])
        }

        // Who is present before the cursor.
        var present: [String: Set<String>] = [:]
        let subscriber = exchange.parameter("uuid")
        if let subscriber {
            let own = Set(events.filter { $0.action == "join" && $0.uuid == subscriber }.map(\.channel))
            let kept = (listed.filter { !$0.hasSuffix("-pnpres") } + members.filter { !$0.hasSuffix("-pnpres") })
                .filter { !own.contains($0) }
            let state = exchange.parameter("state").flatMap(RecordedJSON.parse)?.members ?? [:]
            self.join(subscriber, Array(Set(kept)).sorted(), state: state)
            for channel in kept { present[channel, default: []].insert(subscriber) }
        }
        var timingOut: [(String, String)] = []
        var seen: Set<String> = []
        for event in events where seen.insert(event.channel).inserted {
            // Walking the channel's events in order: who must be there before the first of them.
            let later = events.filter { $0.channel == event.channel }
            var appeared: Set<String> = []
            var needed: [String] = []
            for other in later {
                for uuid in other.presentBefore where appeared.insert(uuid).inserted { needed.append(uuid) }
                for uuid in (other.action == "join" ? other.uuid.map { [$0] } ?? [] : other.deltas["join"] ?? []) {
                    appeared.insert(uuid)
                }
            }
            for uuid in needed where !present[event.channel, default: []].contains(uuid) {
                if later.contains(where: { $0.timingOut.contains(uuid) }) {
                    timingOut.append((uuid, event.channel))
                } else {
                    self.join(uuid, [event.channel])
                }
                present[event.channel, default: []].insert(uuid)
            }
            let count = present[event.channel, default: []].count
            for index in count..<max(count, event.occupancyBefore) {
                self.join("replay-occupant-\(index)", [event.channel])
            }
        }
        if events.contains(where: { $0.action == "interval" }) {
            // Announce what the set-up did in an interval event before the cursor.
            self.harness.clock.advance(by: 10)
            self.harness.handler.sweepPresence()
        }
        for (uuid, channel) in timingOut { self.join(uuid, [channel], timeout: 1) }

        // Re-created in the order things happened (timetoken order): the service's answer lists each matching
        // subscription's deliveries in turn, not in time order.
        let cursor = self.now()
        var delivered: Set<String> = []
        for envelope in KeptDifferences.inTimeOrder(envelopes) {
            // A message the service delivered once per matching subscription is re-created once.
            guard delivered.insert(KeptDifferences.deliveryKey(envelope)).inserted else { continue }
            if let event = PresenceEvent(envelope) {
                self.recreate(event)
            } else {
                self.recreateMessage(envelope)
            }
        }
        return ReplayOrigin.withCursor(cursor, exchange)
    }

    /// The request that causes `event`.
    private func recreate(_ event: PresenceEvent) {
        let channel = event.channel
        switch event.action {
        case "join":
            if let uuid = event.uuid { self.join(uuid, [channel], state: event.data.map { [channel: $0] } ?? [:]) }
        case "leave":
            if let uuid = event.uuid { self.leave(uuid, channel) }
        case "state-change":
            if let uuid = event.uuid, let data = event.data { self.setState(uuid, channel, data) }
        case "timeout":
            self.harness.clock.advance(by: 2)
            self.harness.handler.sweepPresence()
        case "interval":
            for uuid in event.deltas["join"] ?? [] { self.join(uuid, [channel]) }
            for uuid in event.deltas["leave"] ?? [] { self.leave(uuid, channel) }
            self.harness.clock.advance(by: 10)
            self.harness.handler.sweepPresence()
        default:
            break
        }
    }

    /// Publishes a recorded message with what its envelope says the publisher set.
    private func recreateMessage(_ envelope: RecordedJSON) {
        guard let channel = envelope["c"]?.text, let payload = envelope["d"] else { return }
        var query: [(String, String)] = []
        if let uuid = envelope["i"]?.text { query.append(("uuid", uuid)) }
        if let meta = envelope["u"] { query.append(("meta", meta.description)) }
        if let sequence = envelope["s"]?.integer { query.append(("seqn", String(sequence))) }
        if let originator = envelope["o"]?["t"]?.integer {
            var ortt = "{\"t\":\(originator)"
            if let region = envelope["o"]?["r"]?.integer { ortt += ",\"r\":\(region)" }
            query.append(("ortt", ortt + "}"))
        }
        if let type = envelope["cmt"]?.text { query.append(("custom_message_type", type)) }
        let token = self.publish(payload, on: channel, query: query)
        if let recorded = envelope["p"]?["t"]?.integer { self.tokens[recorded] = token }
    }

    /// The exchange's target with its cursor replaced by `cursor`, in the form it was sent (`tt=` or `t=`).
    private static func withCursor(_ cursor: Int64, _ exchange: RecordedExchange) -> String {
        if exchange.parameter("tt") != nil {
            return ReplayOrigin.replacing(["tt": String(cursor)], in: exchange.target)
        }
        if exchange.parameter("t") == nil {
            return exchange.target + (exchange.target.contains("?") ? "&" : "?") + "tt=\(cursor)"
        }
        let region = exchange.parameter("t").flatMap(RecordedJSON.parse)?["r"]?.integer ?? 0
        let json = "{\"r\":\(region),\"t\":\"\(cursor)\"}"
        return ReplayOrigin.replacing(["t": OriginHarness.escape(json)], in: exchange.target)
    }
}
