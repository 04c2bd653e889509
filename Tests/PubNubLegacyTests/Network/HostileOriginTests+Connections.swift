import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

// Issue 20, item 4: an answer nobody asked for. HTTP/1.1 has no request identifiers: on a reused connection an
// unrequested answer that arrives after the next request was written reads as that request's answer, and every
// later answer as the one of the request after it, for as long as the connection lives.

extension HostileOriginTests {
    /// A scripted origin: handshake → cursor 100; the long-poll from 100 gets m1 and, `delay` seconds later on the same
    /// connection, an unrequested answer carrying "stale"; the long-poll from 101 is held until `release` and gets
    /// m2; from 102 it gets m3; any other long-poll (the stale cursor 150 included) is dropped unanswered.
    static func unrequestedAnswerOrigin(
        channel: String,
        delay: TimeInterval,
        release: DispatchSemaphore
    ) throws -> RawHTTPServer {
        let message: @Sendable (String, UInt64) -> RawHTTPServer.ScriptedMessage = { text, token in
            RawHTTPServer.ScriptedMessage(channel: channel, payload: "\"\(text)\"", timetoken: token)
        }
        return try RawHTTPServer { request in
            if request.target.hasPrefix("/time/") {
                return .send(RawHTTPServer.ok("[17000000000000000]"), close: false)
            }
            guard let cursor = RawHTTPServer.subscribeCursor(request) else {
                return .send(RawHTTPServer.ok(#"{"status":200,"action":"leave"}"#), close: false)
            }
            switch cursor {
            case 0:
                return .send(RawHTTPServer.subscribeAnswer(cursor: 100), close: false)
            case 100:
                return .sendWithUnrequested(
                    RawHTTPServer.subscribeAnswer(cursor: 101, [message("m1", 101)]),
                    extra: RawHTTPServer.subscribeAnswer(cursor: 150, [message("stale", 150)]),
                    after: delay
                )
            case 101:
                guard release.wait(timeout: .now() + 30) == .success else { return .hangUp }
                return .send(RawHTTPServer.subscribeAnswer(cursor: 102, [message("m2", 102)]), close: false)
            case 102:
                return .send(RawHTTPServer.subscribeAnswer(cursor: 103, [message("m3", 103)]), close: false)
            default:
                Thread.sleep(forTimeInterval: 0.05)
                return .hangUp
            }
        }
    }

    @Test(arguments: [0.0, 0.05, 0.4])
    func anUnrequestedAnswerIsNeverDeliveredAndLaterLongPollsGetTheirOwn(delay: TimeInterval) async throws {
        let release = DispatchSemaphore(value: 0)
        let name = Client.unique("extra")
        let server = try Self.unrequestedAnswerOrigin(channel: name, delay: delay, release: release)
        defer {
            release.signal()
            server.stop()
        }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: "127.0.0.1:\(server.port)"),
            delegate: recorder,
            eventSinks: [recorder]
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 10)
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try await recorder.next(.delegate, "didReceiveMessage", within: 10)
        // The unrequested answer is on the wire before the origin answers the held long-poll.
        try await eventually("the unrequested answer written") { server.unrequestedWritten >= 1 }
        release.signal()
        try await eventually("m3") { Self.receivedTexts(recorder).contains("m3") }
        // The long-poll after m3 reached the origin (which never answers it): every answer the client took came
        // before it, so a stale answer taken for one would show in the texts or in the cursors below.
        try await eventually("the long-poll after m3") {
            server.requests.compactMap(RawHTTPServer.subscribeCursor).contains(103)
        }
        #expect(Self.receivedTexts(recorder) == ["m1", "m2", "m3"])
        // Every long-poll carried the cursor of the answer to the one before it; the stale cursor was never used.
        let cursors = server.requests.compactMap(RawHTTPServer.subscribeCursor)
        #expect(!cursors.contains(150))
        // The long-poll from 101 is held until the test releases it: on a loaded machine the client's subscribe
        // timeout may pass first, and it polls from 101 again, as it must. A repeat is a retry, not a skip.
        let polled = cursors.indices.filter { $0 == 0 || cursors[$0 - 1] != cursors[$0] }.map { cursors[$0] }
        #expect(Array(polled.prefix(4)) == [0, 100, 101, 102])
        client.disconnect()
    }
}
