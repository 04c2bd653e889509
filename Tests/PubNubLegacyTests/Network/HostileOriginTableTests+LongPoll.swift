import Foundation
import LocalOrigin
import PNObservation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// The same table for the subscribe loop: one long-poll of a live subscription gets a bad answer; every message the
// answer validly carries is delivered once, in order, on the delegate, the observer and the notification; the
// subscription survives, and a message published afterwards arrives exactly once.

extension HostileOriginTableTests {
    struct PollRow: Sendable, CustomTestStringConvertible {
        let name: String
        /// The bad answer to a long-poll sent with `cursor` on `channel`.
        let reply: @Sendable (_ cursor: UInt64, _ channel: String) -> RawHTTPServer.Reply
        /// The texts of the messages the bad answer delivers, in order (an undecodable payload: its raw JSON text).
        let delivered: [String]
        /// How many of them are undecodable, each reported with 127 right after it (docs/BEHAVIOR.md §3.10).
        var undecodable = 0
        /// The long-poll deadline (`subscribeMaximumIdleTime`) of the row's client; nil: the default.
        var deadline: TimeInterval? = nil

        var testDescription: String { "long-poll: \(self.name)" }
    }

    /// Messages `1...count` as scripted subscribe messages on `channel`, with timetokens after `cursor`.
    static func numbered(_ count: Int, on channel: String, after cursor: UInt64) -> [RawHTTPServer.ScriptedMessage] {
        (1...count).map { RawHTTPServer.ScriptedMessage(channel: channel, payload: "\($0)", timetoken: cursor + 1) }
    }

    static let pollRows: [PollRow] = [
        PollRow(
            name: "100,000 messages in one answer",
            reply: { cursor, channel in
                .send(
                    RawHTTPServer.subscribeAnswer(cursor: cursor, Self.numbered(100_000, on: channel, after: cursor)),
                    close: false
                )
            },
            delivered: (1...100_000).map(String.init)
        ),
        PollRow(
            name: "an undecodable message between two good ones",
            reply: { cursor, channel in
                let messages = ["1", #""\ud800""#, "3"].map {
                    RawHTTPServer.ScriptedMessage(channel: channel, payload: $0, timetoken: cursor + 1)
                }
                return .send(RawHTTPServer.subscribeAnswer(cursor: cursor, messages), close: false)
            },
            delivered: ["1", #""\ud800""#, "3"],
            undecodable: 1
        ),
        PollRow(
            name: "an answer dripped a byte a second",
            reply: { cursor, channel in
                .drip(
                    RawHTTPServer.subscribeAnswer(cursor: cursor, Self.numbered(1, on: channel, after: cursor)),
                    every: 1
                )
            },
            delivered: [],
            deadline: 3
        ),
        PollRow(
            name: "a JSON answer cut in the middle",
            reply: { cursor, channel in
                let body = String(
                    RawHTTPServer.subscribeBody(cursor: cursor, Self.numbered(3, on: channel, after: cursor)).dropLast(
                        9
                    )
                )
                return .send(RawHTTPServer.ok(body), close: false)
            },
            delivered: []
        ),
        PollRow(
            name: "an HTML error page",
            reply: { _, _ in
                .send(Self.answer("<html>502</html>", status: "502 Bad Gateway", type: "text/html"), close: false)
            },
            delivered: []
        ),
        PollRow(
            name: "a cursor past UInt64.max",
            reply: { _, _ in .send(RawHTTPServer.ok(#"{"t":{"t":"184467440737095516150","r":1},"m":[]}"#), close: false)
            },
            delivered: []
        ),
        PollRow(
            name: "the connection closed mid-answer",
            reply: { _, _ in .send(Self.head("200 OK", "Content-Length: 400\r\n\r\n{\"t\":{\"t\":\"1"), close: true) },
            delivered: []
        ),
        PollRow(
            name: "an unrequested second answer after the first",
            reply: { cursor, channel in
                .sendWithUnrequested(
                    RawHTTPServer.subscribeAnswer(cursor: cursor, Self.numbered(2, on: channel, after: cursor)),
                    extra: RawHTTPServer.subscribeAnswer(cursor: cursor, Self.numbered(5, on: channel, after: cursor)),
                    after: 0.05
                )
            },
            delivered: ["1", "2"]
        ),
    ]

    @Test(arguments: HostileOriginTableTests.pollRows)
    func aBadLongPollAnswerLosesNothingAndTheSubscriptionGoesOn(row: PollRow) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let name = LocalOriginClientTests.unique("hostile-poll")
        // Armed, the next continuation long-poll (a cursor other than 0) gets the bad answer, once.
        let armed = Locked(false)
        let server = try RawHTTPServer(upstream: origin.address) { request in
            guard let cursor = RawHTTPServer.subscribeCursor(request), cursor != 0,
                armed.withLock({ armed -> Bool in
                    defer { armed = false }
                    return armed
                })
            else { return .forward }
            return row.reply(cursor, name)
        }
        defer { server.stop() }
        let configuration = PNConfiguration.testing(origin: "127.0.0.1:\(server.port)")
        if let deadline = row.deadline { configuration.subscribeMaximumIdleTime = deadline }
        let client = PubNub(configuration: configuration, delegate: nil, eventSinks: [])
        let four = FourChannelRecorder(client: client, center: PNObservationCenter(client: client))
        defer { four.stop() }
        let recorder = EventRecorder()
        client.addEventSink(recorder, toNotificationSlot: false)
        client.connectWithSuccessBlock(four.connectSuccess, errorBlock: four.connectFailure)
        try await Self.waitForBlock("connect", in: four, from: 0, within: 10)
        client.subscribeOnChannel(PNChannel.channelWithName(name), withCompletionHandlingBlock: four.subscribeBlock)
        try await eventually("parked long-poll", within: 10) { origin.counters.parkedPolls >= 1 }

        // The parked long-poll ends with "wake"; the long-poll that follows gets the bad answer; then "after".
        armed.withLock { $0 = true }
        #expect(try await HostileOriginTests.publishRaw(#""wake""#, on: name, to: origin.address) == 200)
        let received = { four.entries.filter { $0.channel == .observer && $0.label == "messageReceive" }.count }
        try await eventually("the bad answer", within: 60) {
            !armed.current && received() >= 1 + row.delivered.count
        }
        try await eventually("a long-poll parked again", within: 30) {
            origin.counters.parkedPolls >= 1
        }
        #expect(try await HostileOriginTests.publishRaw(#""after""#, on: name, to: origin.address) == 200)
        let total = 2 + row.delivered.count
        // Every channel, not only the observer: the delivery queue hands the last message to the delegate, the
        // observer, the notification and the sink one after another, and the checks below read all of them.
        let everywhere = {
            min(
                received(),
                four.entries.filter { $0.channel == .delegate && $0.label == "didReceiveMessage" }.count,
                four.entries.filter {
                    $0.channel == .notification && $0.label == kPNClientDidReceiveMessageNotification.rawValue
                }.count,
                recorder.all(.sink, "didReceiveMessage").count
            )
        }
        try await eventually("\(total) messages on every channel", within: 60) { everywhere() >= total }

        // Each message exactly once, in order, on the three channels that carry messages.
        #expect(received() == total)
        let texts = recorder.all(.sink, "didReceiveMessage").compactMap { entry in
            entry.message.map { String(describing: $0.message ?? "nil") }
        }
        let expected = ["wake"] + row.delivered + ["after"]
        #expect(texts.count == expected.count && texts == expected, "got \(texts.prefix(5))… \(texts.suffix(5))")
        let keys = four.entries.filter { $0.channel == .observer && $0.label == "messageReceive" }.map(\.key)
        for channel in [FourChannelRecorder.Channel.delegate, .notification] {
            let label = channel == .delegate ? "didReceiveMessage" : kPNClientDidReceiveMessageNotification.rawValue
            let same = four.entries.filter { $0.channel == channel && $0.label == label }.map(\.key)
            #expect(same == keys, "\(channel) differs from the observer")
        }
        let reported = recorder.all(.sink, "error").compactMap(\.error).filter { $0.associatedObject is PNMessage }
        #expect(reported.count == row.undecodable)
        #expect(reported.allSatisfy { $0.code == kPNResponseMalformedJSONError })
        #expect(client.isConnected())
        client.disconnect()
    }
}
