import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// The client's read path against origins that send what a well-behaved PubNub origin would not, or what the
/// client's decoder cannot represent: poison messages, stalled and unrequested answers, oversized answers. Each case
/// is one test whose origin is a `LocalOrigin`, a scripted `RawHTTPServer`, or a `RawHTTPServer` misbehaving in front
/// of a `LocalOrigin` (`.forward`), so these cases fold into a table-driven hostile-origin suite.
@Suite struct HostileOriginTests {
    typealias Client = LocalOriginClientTests

    /// Publishes `json` verbatim on `channel` of `origin` with a raw GET (the way another SDK would send it),
    /// bypassing this client's encoder; returns the HTTP status.
    static func publishRaw(_ json: String, on channel: String, to origin: String) async throws -> Int {
        let transport = SocketTransport(maximumConnections: 1, label: "raw-publish")
        defer { transport.invalidate() }
        let path =
            "/publish/pub-c-test/sub-c-test/0/\(PercentEncoding.escape(channel))/0/\(PercentEncoding.escape(json))"
        let url = try #require(URL(string: "http://\(origin)\(path)"))
        let result = await withCheckedContinuation { continuation in
            transport.send(TransportRequest(method: "GET", url: url, body: nil, timeout: 10)) {
                continuation.resume(returning: $0)
            }
        }
        return try result.get().status
    }

    /// The text of every message the delegate received, in order (the raw text for an undecodable one).
    static func receivedTexts(_ recorder: EventRecorder) -> [String] {
        recorder.all(.delegate, "didReceiveMessage").compactMap { entry in
            guard let value = entry.message?.message else { return nil }
            if let text = value as? String { return text }
            return String(describing: value)
        }
    }

    // MARK: - Poison messages (issue 20, item 1)

    /// Valid JSON (RFC 8259) that this platform's JSON decoder refuses; LocalOrigin, like the service, stores and
    /// returns it byte for byte.
    static let poisons = [#""\ud800""#, #""\udc00x""#, "1e999999", String(repeating: "9", count: 400)]

    @Test(arguments: HostileOriginTests.poisons)
    func aPoisonMessageIsReportedAndNeverSilencesTheChannel(poison: String) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        let client = PubNub(configuration: configuration, delegate: nil, eventSinks: [])
        let center = PNObservationCenter(client: client)
        let four = FourChannelRecorder(client: client, center: center)
        defer { four.stop() }
        let recorder = EventRecorder()
        client.addEventSink(recorder, toNotificationSlot: false)
        client.connectWithSuccessBlock(four.connectSuccess, errorBlock: four.connectFailure)
        try await eventually("connect") { four.entries.contains { $0.label == "connect" } }
        let name = Client.unique("poison")
        client.subscribeOnChannel(PNChannel.channelWithName(name), withCompletionHandlingBlock: four.subscribeBlock)
        try await eventually("subscribe") { four.entries.contains { $0.label.hasPrefix("subscribe:") } }
        try await eventually("parked long-poll") { origin.counters.parkedPolls >= 1 }
        let start = four.entries.count

        // Good, poison, good: the origin accepts all three (it stores valid JSON as sent).
        for json in [#""first""#, poison, #"{"text":"second"}"#] {
            #expect(try await Self.publishRaw(json, on: name, to: origin.address) == 200)
        }
        try await eventually("three messages") { recorder.all(.sink, "didReceiveMessage").count >= 3 }
        // The channel still works: the next publish arrives too.
        #expect(try await Self.publishRaw(#""third""#, on: name, to: origin.address) == 200)
        try await eventually("fourth message") { recorder.all(.sink, "didReceiveMessage").count >= 4 }

        let messages = recorder.all(.sink, "didReceiveMessage").compactMap(\.message)
        #expect(messages.count == 4)
        #expect(messages[0].message as? String == "first")
        #expect(messages[1].message as? String == poison)
        #expect((messages[2].message as? [String: Any])?["text"] as? String == "second")
        #expect(messages[3].message as? String == "third")
        #expect(messages.allSatisfy { $0.channel?.name == name })
        // The undecodable one is reported right after it: 127, malformed response, with the message it concerns.
        let errors = recorder.all(.sink, "error").compactMap(\.error)
        #expect(errors.count == 1)
        #expect(errors.first?.code == kPNResponseMalformedJSONError)
        #expect(errors.first?.category == .malformedResponse)
        #expect((errors.first?.associatedObject as? PNMessage) === messages[1])
        // On every channel that reports messages and errors, in order, with the same payload.
        let window = four.entries.dropFirst(start).map { "\($0.channel):\($0.label)" }
        let message = ["D:didReceiveMessage", "O:messageReceive", "N:PNClientDidReceiveMessageNotification"]
        #expect(
            window == message + message + ["D:error", "N:PNClientErrorNotification"] + message + message
        )
        let poisonKeys = four.entries.dropFirst(start + 3).prefix(3).map(\.key)
        #expect(Set(poisonKeys).count == 1)

        // History answers: the decodable messages, and the poison reported after them.
        let history = EventRecorder()
        client.addEventSink(history, toNotificationSlot: false)
        client.requestFullHistoryForChannel(PNChannel.channelWithName(name)) { messages, _, _, _, error in
            history.block("history", error ?? messages)
        }
        let answer = try await history.next(.block, "history", within: 10)
        let listed = try #require(answer.value as? [PNMessage])
        #expect(listed.count == 3)
        #expect(listed.first?.message as? String == "first")
        #expect(listed.last?.message as? String == "third")
        let reported = try await history.next(.sink, "error", within: 5)
        #expect(reported.error?.code == kPNResponseMalformedJSONError)
        #expect((reported.error?.associatedObject as? PNMessage)?.message as? String == poison)
        client.disconnect()
    }

    @Test func theOriginRefusesWhatIsNotJSONAndStoresWhatIsExactly() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let name = Client.unique("accept")
        // Not JSON (what Python's json.dumps writes for infinities and NaN): refused like any invalid JSON.
        for text in ["Infinity", "NaN", "-Infinity", "[1,]", "\"tab\there\""] {
            #expect(try await Self.publishRaw(text, on: name, to: origin.address) == 400)
        }
        // Valid JSON the client cannot decode is stored and returned byte for byte.
        for poison in Self.poisons {
            #expect(try await Self.publishRaw(poison, on: name, to: origin.address) == 200)
        }
        let transport = SocketTransport(maximumConnections: 1, label: "raw-history")
        defer { transport.invalidate() }
        let url = try #require(URL(string: "http://\(origin.address)/v2/history/sub-key/sub-c-test/channel/\(name)"))
        let result = await withCheckedContinuation { continuation in
            transport.send(TransportRequest(method: "GET", url: url, body: nil, timeout: 10)) {
                continuation.resume(returning: $0)
            }
        }
        let body = String(decoding: try result.get().body, as: UTF8.self)
        #expect(body.hasPrefix("[[" + Self.poisons.joined(separator: ",") + "],"))
    }
}
