import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// Re-creating what a recorded answer shows, for the endpoints whose answers list state: who is here, where a uuid
// is, its state, a group's channels, a device's channels. Subscribe and history, which need a timeline, are in
// `ReplayOrigin+Subscribe.swift` and `ReplayOrigin+History.swift`.

extension ReplayOrigin {
    /// Re-creates the state `exchange`'s answer shows and returns the target to send (its timetokens replaced by the
    /// re-created ones where the endpoint has any). Error answers need no state.
    func stage(_ exchange: RecordedExchange) -> String {
        guard exchange.status == 200, let answer = exchange.answerJSON else { return exchange.target }
        switch exchange.endpoint {
        case "subscribe": return self.stageSubscribe(exchange, answer)
        case "history-v2": return self.stageHistoryV2(exchange, answer)
        case "history-v3": return self.stageHistoryV3(exchange, answer)
        case "here-now", "here-now-global": self.stageHereNow(exchange, answer)
        case "where-now": self.stageWhereNow(exchange, answer)
        case "state-get": self.stageStateGet(exchange, answer)
        case "channel-groups": self.stageGroupList(exchange, answer)
        case "push-v1", "push-v2": self.stagePushList(exchange, answer)
        default: break
        }
        return exchange.target
    }

    /// The arrays of `exchange`'s answer that the service lists in no particular order.
    static func unorderedPaths(of exchange: RecordedExchange) -> ([String]) -> Bool {
        switch exchange.endpoint {
        case "here-now", "here-now-global": return { $0.last == "uuids" }
        case "where-now", "channel-groups": return { $0 == ["payload", "channels"] || $0 == ["payload", "groups"] }
        case "push-v1", "push-v2": return { $0.isEmpty }
        default: return { _ in false }
        }
    }

    /// Path segment `index` of `exchange`, percent-decoded.
    static func segment(_ exchange: RecordedExchange, _ index: Int) -> String? {
        let segments = exchange.pathSegments
        guard index < segments.count else { return nil }
        return String(segments[index]).removingPercentEncoding ?? String(segments[index])
    }

    // MARK: - Presence

    /// Joins the listed uuids (with their states) to each channel of a here-now answer, and anonymous uuids where the
    /// occupancy is larger than the list (`disable_uuids`).
    private func stageHereNow(_ exchange: RecordedExchange, _ answer: RecordedJSON) {
        var channels: [(String, RecordedJSON)] = []
        if answer["occupancy"] != nil, let name = ReplayOrigin.segment(exchange, 5) {
            channels = [(name, answer)]
        } else if let listed = answer["payload"]?["channels"]?.members {
            channels = listed.keys.sorted().map { ($0, listed[$0] ?? .null) }
        }
        for (channel, entry) in channels {
            let uuids = entry["uuids"]?.elements ?? []
            for item in uuids {
                if let uuid = item.text ?? item["uuid"]?.text {
                    let state = item["state"].map { [channel: $0] } ?? [:]
                    self.join(uuid, [channel], state: state)
                }
            }
            let occupancy = Int(entry["occupancy"]?.integer ?? 0)
            for index in uuids.count..<max(uuids.count, occupancy) { self.join("replay-occupant-\(index)", [channel]) }
        }
    }

    /// Joins the path's uuid to each channel a where-now answer lists.
    private func stageWhereNow(_ exchange: RecordedExchange, _ answer: RecordedJSON) {
        guard let uuid = ReplayOrigin.segment(exchange, 5) else { return }
        for channel in answer["payload"]?["channels"]?.elements ?? [] {
            if let name = channel.text { self.join(uuid, [name]) }
        }
    }

    /// Sets the state a state answer shows: `payload` for one channel, `payload.channels` for several.
    private func stageStateGet(_ exchange: RecordedExchange, _ answer: RecordedJSON) {
        guard let uuid = ReplayOrigin.segment(exchange, 7), let payload = answer["payload"] else { return }
        if let channel = answer["channel"]?.text {
            if payload.members?.isEmpty == false { self.setState(uuid, channel, payload) }
        } else if let states = payload["channels"]?.members {
            for (channel, state) in states where state.members?.isEmpty == false { self.setState(uuid, channel, state) }
        }
    }

    // MARK: - Registrations

    /// Adds the channels a group listing shows to the group first.
    private func stageGroupList(_ exchange: RecordedExchange, _ answer: RecordedJSON) {
        guard exchange.parameter("add") == nil, exchange.parameter("remove") == nil,
            let channels = answer["payload"]?["channels"]?.elements, let group = answer["payload"]?["group"]?.text
        else { return }
        self.addToGroup(group, channels.compactMap(\.text))
    }

    /// Registers the channels a device listing shows first, with the listing's own type, environment and topic.
    private func stagePushList(_ exchange: RecordedExchange, _ answer: RecordedJSON) {
        guard exchange.parameter("add") == nil, exchange.parameter("remove") == nil,
            exchange.pathSegments.last != "remove", let elements = answer.elements, !elements.isEmpty
        else { return }
        let channels = elements.compactMap(\.text)
        guard channels.count == elements.count else { return }
        let path = exchange.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? exchange.target
        let kept = exchange.parameters.filter { ["type", "environment", "topic", "uuid"].contains($0.name) }
        self.setUp(path + "?" + ReplayOrigin.query(kept + [("add", channels.joined(separator: ","))]))
    }

    // MARK: - Targets

    /// `target` with the values of the named query parameters replaced (already escaped), the rest as recorded.
    static func replacing(_ values: [String: String], in target: String) -> String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return target }
        let pairs = parts[1].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = String(pair.split(separator: "=", maxSplits: 1).first ?? "")
            guard let value = values[name] else { return String(pair) }
            return "\(name)=\(value)"
        }
        return "\(parts[0])?\(pairs.joined(separator: "&"))"
    }
}
