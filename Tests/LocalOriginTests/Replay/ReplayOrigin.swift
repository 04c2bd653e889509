import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// One replay: a fresh origin (on the harness's manual clock, the service's keys standing in for `{pub}`/`{sub}`),
// the state the recorded answer shows re-created through ordinary requests, then the recorded request with its
// timetokens replaced by the ones LocalOrigin gave what stands for them (`ReplayOrigin+Stage*.swift`).

/// A LocalOrigin for one recorded exchange, and the requests that re-create the state the recording shows.
final class ReplayOrigin {
    /// The keys `{pub}` and `{sub}` stand for; every other key is refused, as the service refused the recordings'
    /// made-up ones (`fake`, `blah`).
    static let publishKey = "pub-c-replay"
    static let subscribeKey = "sub-c-replay"

    let harness: OriginHarness
    /// Recorded timetoken → the token LocalOrigin gave what stands for it (a re-published message, a bound).
    var tokens: [Int64: Int64] = [:]

    /// An origin whose presence switches to interval mode above `announceMax` uuids; long-polls are answered empty
    /// as soon as `expireDuePolls` runs.
    init(announceMax: Int = 20) {
        self.harness = OriginHarness { settings in
            settings.publishKeys = [ReplayOrigin.publishKey]
            settings.subscribeKeys = [ReplayOrigin.subscribeKey]
            settings.longPollTimeout = 0
            settings.presenceAnnounceMax = announceMax
        }
    }

    func stop() { self.harness.stop() }

    /// `text` with the placeholders replaced by this origin's keys.
    static func resolved(_ text: String) -> String {
        text.replacingOccurrences(of: "{pub}", with: ReplayOrigin.publishKey)
            .replacingOccurrences(of: "{sub}", with: ReplayOrigin.subscribeKey)
    }

    /// A query string of `pairs`, each name and value escaped as the Python SDK does.
    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(OriginHarness.escape($0.0))=\(OriginHarness.escape($0.1))" }.joined(separator: "&")
    }

    /// Sends a set-up request that must succeed (a failure is recorded as an issue of the running test).
    @discardableResult
    func setUp(_ target: String) -> Reply {
        let reply = self.harness.get(ReplayOrigin.resolved(target))
        if reply.status != 200 { Issue.record("replay set-up \(target) failed: \(reply.text)") }
        return reply
    }

    /// A fresh timetoken from `/time/0`: a point in the origin's timeline between what was done before and after.
    func now() -> Int64 {
        Int64(truncating: self.setUp("/time/0").array.first as? NSNumber ?? 0)
    }

    /// Publishes `payload` on `channel` with the extra `query` pairs; returns the message's timetoken.
    @discardableResult
    func publish(_ payload: RecordedJSON, on channel: String, query: [(String, String)] = []) -> Int64 {
        let path =
            "/publish/{pub}/{sub}/0/\(OriginHarness.escape(channel))/0/\(OriginHarness.escape(payload.description))"
        let reply = self.setUp(path + (query.isEmpty ? "" : "?" + ReplayOrigin.query(query)))
        return Int64(reply.array.last as? String ?? "") ?? 0
    }

    /// Joins `uuid` to `channels` (or refreshes it) with a heartbeat, with `state` per channel and a presence timeout.
    func join(_ uuid: String, _ channels: [String], state: [String: RecordedJSON] = [:], timeout: Int? = nil) {
        guard !channels.isEmpty else { return }
        var pairs = [("uuid", uuid)]
        if !state.isEmpty { pairs.append(("state", RecordedJSON.object(state).description)) }
        if let timeout { pairs.append(("heartbeat", String(timeout))) }
        let list = channels.map(OriginHarness.escape).joined(separator: ",")
        self.setUp("/v2/presence/sub-key/{sub}/channel/\(list)/heartbeat?" + ReplayOrigin.query(pairs))
    }

    /// Makes `uuid` leave `channel`.
    func leave(_ uuid: String, _ channel: String) {
        self.setUp(
            "/v2/presence/sub-key/{sub}/channel/\(OriginHarness.escape(channel))/leave?uuid=\(OriginHarness.escape(uuid))"
        )
    }

    /// Sets `uuid`'s state on `channel`.
    func setState(_ uuid: String, _ channel: String, _ state: RecordedJSON) {
        let path =
            "/v2/presence/sub-key/{sub}/channel/\(OriginHarness.escape(channel))/uuid/\(OriginHarness.escape(uuid))/data"
        self.setUp(path + "?" + ReplayOrigin.query([("state", state.description)]))
    }

    /// Adds `channels` to channel group `group`.
    func addToGroup(_ group: String, _ channels: [String]) {
        guard !channels.isEmpty else { return }
        let list = channels.map(OriginHarness.escape).joined(separator: ",")
        self.setUp("/v1/channel-registration/sub-key/{sub}/channel-group/\(OriginHarness.escape(group))?add=\(list)")
    }

    /// Sends the exchange's request with `target` (placeholders resolved here) and returns LocalOrigin's answer; a
    /// subscribe that parks is answered as its long-poll expires.
    func answer(_ exchange: RecordedExchange, target: String) -> HTTPResponse? {
        let sink = self.harness.send(
            ReplayOrigin.resolved(target),
            method: exchange.method,
            body: Array((exchange.body ?? "").utf8)
        )
        if sink.response == nil { self.harness.handler.expireDuePolls() }
        return sink.waitForResponse(within: 10)
    }
}
