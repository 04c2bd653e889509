import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

// Part 2 of the replay of the service's recorded exchanges (Tests/Recordings/README.md): every distinct answer the
// service gave to a request this client makes — time, publish, subscribe, leave, here-now, history, push — is served
// to the client over HTTP by `RecordedService`, and what the client reports is checked against what the answer
// says, read from the recording here, independently of the client's parsers: each message and presence event of a
// subscribe answer in order, the history's messages and bounds, who is here, the push channels, and the service's
// own words in every error.

@Suite struct ClientReplayTests {
    /// The recordings of `endpoint` this client can be served, one per distinct answer (timetokens masked) — or,
    /// `byRequest`, per distinct request and answer (for calls whose arguments shape the request).
    static func servable(
        _ endpoint: String,
        byRequest: Bool = false,
        where accepted: (RecordedExchange) -> Bool = { _ in true }
    ) -> [RecordedExchange] {
        var seen: Set<String> = []
        return RecordedExchanges.shared.exchanges(of: endpoint).filter { exchange in
            let masked = exchange.answer.replacing(/\d{17}/, with: "T")
            let request = byRequest ? exchange.target.replacing(/\d{17}/, with: "T") : ""
            return accepted(exchange) && seen.insert("\(exchange.status) \(request) \(masked)").inserted
        }
    }

    /// The channel names a recorded request lists in its path at `index`, decoded.
    static func channels(_ exchange: RecordedExchange, at index: Int) -> [String] {
        let segments = exchange.pathSegments
        guard index < segments.count else { return [] }
        return segments[index].split(separator: ",").map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// Runs `call` on a client of a stand-in serving `exchange`; once `done` names an event, returns the recorder, that
    /// event and the targets of the requests the client sent.
    static func replay(
        _ exchange: RecordedExchange,
        until done: [String],
        _ call: (PubNub) -> Void
    ) async throws -> (EventRecorder, EventRecorder.Entry, targets: [String]) {
        let service = try RecordedService(answering: exchange)
        defer { service.stop() }
        let recorder = EventRecorder()
        let client = try await service.connectedClient(recorder)
        defer { client.disconnect() }
        call(client)
        var found: EventRecorder.Entry?
        try await eventually("one of \(done) for \(exchange.provenance); seen \(recorder.entries)", within: 15) {
            found = recorder.entries.first { $0.source == .sink && done.contains($0.name) }
            return found != nil
        }
        return (recorder, try #require(found), service.targets)
    }

    /// The error an answer that is not a success must be reported with: its code, and the service's own words in
    /// the description.
    static func expectServiceError(_ error: PNError?, for exchange: RecordedExchange) {
        guard let answer = exchange.answerJSON else {
            Issue.record("\(exchange.provenance): not JSON")
            return
        }
        let words =
            answer.elements.flatMap { $0.count > 1 ? $0[1].text : nil } ?? answer["message"]?.text
            ?? answer["error"]?.text
        if exchange.status == 403 {
            #expect(error?.code == kPNAPIAccessForbiddenError, "\(exchange.provenance): \(String(describing: error))")
        }
        if let words {
            #expect(
                error?.localizedDescription.contains(words) == true,
                "\(exchange.provenance): \(String(describing: error?.localizedDescription)) misses \(words)"
            )
        }
    }

    // MARK: - Requests with one answer

    @Test(arguments: ClientReplayTests.servable("time"))
    func time(_ exchange: RecordedExchange) async throws {
        let (_, entry, _) = try await Self.replay(exchange, until: ["didReceiveTimeToken", "timeTokenReceiveDidFail"]) {
            $0.requestServerTimeToken()
        }
        #expect(entry.value as? UInt64 == exchange.answerJSON?.elements?.first?.integer.map(UInt64.init))
    }

    @Test(arguments: ClientReplayTests.servable("publish"))
    func publish(_ exchange: RecordedExchange) async throws {
        let (_, entry, _) = try await Self.replay(exchange, until: ["didSendMessage", "messageSendDidFail"]) { client in
            _ = client.sendMessage("replayed", toChannel: PNChannel.channelWithName("replay"))
        }
        if exchange.status == 200 {
            #expect(entry.name == "didSendMessage", "\(exchange.provenance): \(entry)")
        } else {
            #expect(entry.name == "messageSendDidFail", "\(exchange.provenance): \(entry)")
            Self.expectServiceError(entry.error, for: exchange)
            #expect(entry.error?.code == kPNInvalidSubscribeOrPublishKeyError || exchange.status == 403)
        }
    }

    /// The leaves of channels (a 3.4 client has no channel groups).
    static let leaves = ClientReplayTests.servable("leave") { !$0.target.contains("channel-group") }

    @Test(arguments: ClientReplayTests.leaves)
    func leave(_ exchange: RecordedExchange) async throws {
        // A leave always completes the unsubscription, refused or not (docs/BEHAVIOR.md S-55).
        let channels = PNChannel.channelsWithNames(Self.channels(exchange, at: 5).filter { !$0.hasSuffix("-pnpres") })
        let (_, entry, _) = try await Self.replay(exchange, until: ["didUnsubscribe", "unsubscriptionDidFail"]) {
            client in
            client.subscribeOnChannels(channels)
            client.unsubscribeFromChannels(channels)
        }
        #expect(entry.name == "didUnsubscribe", "\(exchange.provenance): \(entry)")
        #expect(Set(entry.channelNames) == Set(channels.map(\.name)))
    }

    /// The here-now requests of one channel, the only kind 3.4 makes.
    static let hereNows = ClientReplayTests.servable("here-now") { exchange in
        Self.channels(exchange, at: 5).count == 1 && exchange.parameter("channel-group") == nil
    }

    @Test(arguments: ClientReplayTests.hereNows)
    func hereNow(_ exchange: RecordedExchange) async throws {
        let channel = PNChannel.channelWithName(Self.channels(exchange, at: 5)[0])
        let (_, entry, _) = try await Self.replay(
            exchange,
            until: ["didReceiveParticipantsList", "participantsListDownloadDidFail"]
        ) { $0.requestParticipantsListForChannel(channel) }
        let hereNow = try #require(entry.value as? PNHereNow, "\(exchange.provenance): \(entry)")
        let answer = try #require(exchange.answerJSON)
        let uuids = (answer["uuids"]?.elements ?? []).compactMap { $0.text ?? $0["uuid"]?.text }
        #expect(hereNow.participants.sorted() == uuids.sorted(), "\(exchange.provenance)")
        #expect(Int64(hereNow.participantsCount) == answer["occupancy"]?.integer, "\(exchange.provenance)")
    }

    /// Every recorded history page, asked for with the recorded bounds, count and direction through 3.4's most
    /// general call: the client sends them as the recording did (3.4 puts the older bound first when both are given,
    /// docs/PROTOCOL.md §2.10) and reports the page's items in order and its bounds — elements 1 and 2 of the answer,
    /// the first (oldest) and last messages' tokens — whichever of start, end and reverse were set.
    @Test(arguments: ClientReplayTests.servable("history-v2", byRequest: true))
    func history(_ exchange: RecordedExchange) async throws {
        let channel = PNChannel.channelWithName(Self.channels(exchange, at: 5)[0])
        let start = exchange.parameter("start").flatMap(UInt64.init)
        let end = exchange.parameter("end").flatMap(UInt64.init)
        let count = exchange.parameter("count").flatMap(UInt.init) ?? 100
        let reverse = exchange.parameter("reverse") == "true"
        let (_, entry, targets) = try await Self.replay(
            exchange,
            until: ["didReceiveMessageHistory", "historyDownloadDidFail"]
        ) { client in
            client.requestHistoryForChannel(
                channel,
                from: start.map { PNDate(timeToken: $0) },
                to: end.map { PNDate(timeToken: $0) },
                limit: count,
                reverseHistory: reverse,
                withCompletionBlock: nil
            )
        }
        let sent = try #require(targets.first { $0.hasPrefix("/v2/history/") }, "\(exchange.provenance)")
        let query = Dictionary(
            RecordedExchange.queryParameters(of: sent).map { ($0.name, $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
        let bounds = [start, end].compactMap { $0 }.sorted()
        let (older, newer) = bounds.count == 2 ? (bounds[0], bounds[1]) : (start, end)
        #expect(query["start"] == older.map(String.init), "\(exchange.provenance): \(sent)")
        #expect(query["end"] == newer.map(String.init), "\(exchange.provenance): \(sent)")
        #expect(query["count"] == String(count), "\(exchange.provenance): \(sent)")
        #expect(query["reverse"] == String(reverse), "\(exchange.provenance): \(sent)")

        let history = try #require(entry.value as? PNMessagesHistory, "\(exchange.provenance): \(entry)")
        let answer = try #require(exchange.answerJSON?.elements)
        #expect(history.messages.map { RecordedJSON(decoded: $0.message) } == answer[0].elements ?? [])
        #expect(history.startDate?.timeTokenValue == answer[1].integer.map(UInt64.init), "\(exchange.provenance)")
        #expect(history.endDate?.timeTokenValue == answer[2].integer.map(UInt64.init), "\(exchange.provenance)")
    }

    @Test(arguments: ClientReplayTests.servable("push-v1"))
    func push(_ exchange: RecordedExchange) async throws {
        let token = Data([0xA1, 0xB2, 0xC3, 0xD4])
        let channels = PNChannel.channelsWithNames(
            (exchange.parameter("add") ?? exchange.parameter("remove") ?? "replay").split(separator: ",").map(
                String.init
            )
        )
        let (success, failure): (String, String)
        let call: (PubNub) -> Void
        if exchange.parameter("add") != nil {
            (success, failure) = ("didEnablePushNotifications", "pushNotificationEnableDidFail")
            call = { $0.enablePushNotificationsOnChannels(channels, withDevicePushToken: token) }
        } else if exchange.parameter("remove") != nil {
            (success, failure) = ("didDisablePushNotifications", "pushNotificationDisableDidFail")
            call = { $0.disablePushNotificationsOnChannels(channels, withDevicePushToken: token) }
        } else if exchange.pathSegments.last == "remove" {
            (success, failure) = ("didRemovePushNotifications", "pushNotificationRemoveDidFail")
            call = { $0.removeAllPushNotificationsForDevicePushToken(token, withCompletionHandlingBlock: nil) }
        } else {
            (success, failure) = ("didReceivePushNotificationEnabledChannels", "pushNotificationEnabledChannelsDidFail")
            call = {
                $0.requestPushNotificationEnabledChannelsForDevicePushToken(token, withCompletionHandlingBlock: nil)
            }
        }
        let (_, entry, _) = try await Self.replay(exchange, until: [success, failure], call)
        if exchange.status == 200 {
            #expect(entry.name == success, "\(exchange.provenance): \(entry)")
            if success == "didReceivePushNotificationEnabledChannels" {
                let listed = exchange.answerJSON?.elements?.compactMap(\.text) ?? []
                #expect(entry.channelNames == listed, "\(exchange.provenance)")
            }
        } else {
            #expect(entry.name == failure, "\(exchange.provenance): \(entry)")
            Self.expectServiceError(entry.error, for: exchange)
        }
    }

    /// The replay compares something: every call has recorded answers to be served, successes and refusals where
    /// the recordings have both, and the history pages cover each way of bounding one — none, `start` alone, `start`
    /// with `reverse`, both bounds. (A parameterised test with no arguments passes without running.)
    @Test func everyCallHasRecordedAnswersToReplay() {
        let lists: [(String, [RecordedExchange])] = [
            ("time", Self.servable("time")), ("publish", Self.servable("publish")),
            ("subscribe", Self.subscribes), ("leave", Self.leaves), ("here-now", Self.hereNows),
            ("history-v2", Self.servable("history-v2", byRequest: true)), ("push-v1", Self.servable("push-v1")),
        ]
        for (call, exchanges) in lists {
            #expect(!exchanges.isEmpty, "no recorded answer to replay for \(call)")
        }
        #expect(Self.servable("publish").contains { $0.status != 200 })
        #expect(Self.servable("push-v1").contains { $0.status != 200 })
        let history = Self.servable("history-v2", byRequest: true)
        let has = { (names: Set<String>) in
            history.contains { exchange in
                Set(exchange.parameters.map(\.name)).intersection(["start", "end", "reverse"]) == names
            }
        }
        for bounds: Set<String> in [[], ["start"], ["start", "reverse"], ["start", "end"], ["reverse"]] {
            #expect(has(bounds), "no recorded history page bounded by \(bounds.sorted())")
        }
    }
}
