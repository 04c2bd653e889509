import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// Re-creating a recorded history answer as a timeline: the returned messages and the request's `start`/`end` bounds,
// in the order of their recorded timetokens, each re-created in turn — a message by publishing it (with its meta,
// publisher and custom type), a bound by taking a fresh timetoken (`/time/0`) at its place. A bound equal to a
// message's token stands for that message. When the answer is not empty, a decoy message goes below the lowest point
// if that point is a bound, and above the highest if that one is: whatever the paging rule, a bound excludes what
// lies past it, so an origin that pages the wrong side of a bound returns the decoy.

extension ReplayOrigin {
    /// A point of a history timeline: a message to publish, or a bound to take a timetoken for.
    private struct Point {
        var key: Int64
        var message: RecordedJSON?
        var channel = ""
        var extras: [(String, String)] = []
        var recordedToken: Int64?
    }

    /// The bounds of a history request, as recorded.
    private static func bounds(_ exchange: RecordedExchange) -> [Int64] {
        ["start", "end"].compactMap { exchange.parameter($0).flatMap { Int64($0) } }
    }

    func stageHistoryV2(_ exchange: RecordedExchange, _ answer: RecordedJSON) -> String {
        guard let elements = answer.elements, elements.count == 3, let items = elements[0].elements,
            let channel = ReplayOrigin.segment(exchange, 5)
        else { return exchange.target }
        let wrapped = exchange.parameter("include_token") == "true" || exchange.parameter("include_meta") == "true"
        let first = elements[1].integer ?? 0
        let last = elements[2].integer ?? 0
        var points: [Point] = []
        for (index, item) in items.enumerated() {
            var point = Point(key: first + Int64(index), message: wrapped ? item["message"] : item, channel: channel)
            if wrapped, let meta = item["meta"], meta.members != nil { point.extras.append(("meta", meta.description)) }
            // The service gives the first and last tokens of the page (elements 1 and 2), and each item's with
            // `include_token`; the others lie between, in order.
            let token =
                (wrapped ? item["timetoken"]?.integer : nil) ?? (index == 0 ? first : nil)
                ?? (index == items.count - 1 ? last : nil)
            if let token { point.key = token }
            point.recordedToken = token
            points.append(point)
        }
        self.recreate(points, bounds: ReplayOrigin.bounds(exchange), decoyChannel: channel)
        return self.withBounds(exchange)
    }

    func stageHistoryV3(_ exchange: RecordedExchange, _ answer: RecordedJSON) -> String {
        guard let channels = answer["channels"]?.members else { return exchange.target }
        var points: [Point] = []
        for (key, list) in channels {
            // One recording names a channel percent-encoded (a kept difference): its messages are on the decoded one.
            let channel = key.removingPercentEncoding ?? key
            for item in list.elements ?? [] {
                guard let token = item["timetoken"]?.integer else { continue }
                var point = Point(key: token, message: item["message"], channel: channel, recordedToken: token)
                if let uuid = item["uuid"]?.text { point.extras.append(("uuid", uuid)) }
                if let meta = item["meta"], meta.members != nil { point.extras.append(("meta", meta.description)) }
                if let type = item["custom_message_type"]?.text { point.extras.append(("custom_message_type", type)) }
                points.append(point)
            }
        }
        let decoyChannel = channels.keys.sorted().first.map { $0.removingPercentEncoding ?? $0 } ?? ""
        self.recreate(points, bounds: ReplayOrigin.bounds(exchange), decoyChannel: decoyChannel)
        return self.withBounds(exchange)
    }

    /// Publishes the messages and takes the bounds' timetokens in timeline order, between decoys where a bound is the
    /// lowest or highest point.
    private func recreate(_ messages: [Point], bounds: [Int64], decoyChannel: String) {
        let tokens = Set(messages.compactMap(\.recordedToken))
        var timeline = messages + bounds.filter { !tokens.contains($0) }.map { Point(key: $0, recordedToken: $0) }
        timeline.sort { $0.key < $1.key }
        let decoy = RecordedJSON.string("replay-decoy")
        if !messages.isEmpty, timeline.first?.message == nil {
            self.publish(decoy, on: decoyChannel)
        }
        for point in timeline {
            let token: Int64
            if let message = point.message {
                token = self.publish(message, on: point.channel, query: point.extras)
            } else {
                token = self.now()
            }
            if let recorded = point.recordedToken { self.tokens[recorded] = token }
        }
        if !messages.isEmpty, timeline.last?.message == nil {
            self.publish(decoy, on: decoyChannel)
        }
    }

    /// The exchange's target with `start` and `end` replaced by the tokens that stand for them.
    private func withBounds(_ exchange: RecordedExchange) -> String {
        var values: [String: String] = [:]
        for name in ["start", "end"] {
            if let recorded = exchange.parameter(name).flatMap({ Int64($0) }), let local = self.tokens[recorded] {
                values[name] = String(local)
            }
        }
        return ReplayOrigin.replacing(values, in: exchange.target)
    }
}
