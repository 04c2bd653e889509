import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// Issue 19: whatever an origin sends, the client holds at most about `maximumResponseBodySize` of one answer (plus
// the fixed header and trailer bounds), fails that request with a clear error, drops the connection and goes on.

extension HostileOriginTests {
    /// Answers that never fit: a body announced larger than the limit, and endless bodies, chunks, trailers and
    /// headers streamed until the client hangs up.
    enum Oversized: String, CaseIterable, Sendable {
        case announcedBody, endlessBody, endlessChunks, endlessTrailers, endlessHeader

        var reply: RawHTTPServer.Reply {
            switch self {
            case .announcedBody:
                let body = "[[\"" + String(repeating: "x", count: 2_000_000) + "\"],1,2]"
                return .send(RawHTTPServer.ok(body), close: false)
            case .endlessBody:
                return .endless(
                    head: "HTTP/1.1 200 OK\r\n\r\n[[",
                    chunk: "\"" + String(repeating: "x", count: 1_000) + "\","
                )
            case .endlessChunks:
                return .endless(
                    head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                    chunk: "3e8\r\n" + String(repeating: "x", count: 1_000) + "\r\n"
                )
            case .endlessTrailers:
                return .endless(
                    head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n[[],1,2]\r\n0\r\n",
                    chunk: "X-Trailer: " + String(repeating: "t", count: 100) + "\r\n"
                )
            case .endlessHeader:
                return .endless(
                    head: "HTTP/1.1 200 OK\r\n",
                    chunk: "X-Header: " + String(repeating: "h", count: 100) + "\r\n"
                )
            }
        }
    }

    /// An origin that answers time requests, and history requests first with `oversized` and then normally.
    static func oversizedHistoryOrigin(_ oversized: Oversized) throws -> RawHTTPServer {
        let histories = Locked(0)
        return try RawHTTPServer { request in
            if request.target.hasPrefix("/time/") {
                return .send(RawHTTPServer.ok("[17000000000000000]"), close: false)
            }
            let count = histories.withLock { count -> Int in
                count += 1
                return count
            }
            return count == 1 ? oversized.reply : .send(RawHTTPServer.ok(#"[["fine"],11,22]"#), close: false)
        }
    }

    @Test(arguments: Oversized.allCases)
    func anOversizedAnswerFailsItsRequestClearlyAndTheNextCallWorks(oversized: Oversized) async throws {
        let server = try Self.oversizedHistoryOrigin(oversized)
        defer { server.stop() }
        let configuration = PNConfiguration.testing(origin: "127.0.0.1:\(server.port)")
        configuration.maximumResponseBodySize = 1_048_576
        let recorder = EventRecorder()
        let client = PubNub(configuration: configuration, delegate: recorder, eventSinks: [recorder])
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 10)
        let channel = PNChannel.channelWithName(Client.unique("oversized"))
        client.requestFullHistoryForChannel(channel) { messages, _, _, _, error in
            recorder.block("history", error ?? messages)
        }
        let failed = try await recorder.next(.block, "history", within: 20)
        let error = try #require(failed.error)
        #expect(error.code == kPNResponseTooLargeError)
        #expect(error.category == .malformedResponse)
        #expect(error.localizedDescription.hasPrefix("PubNub client stopped reading a response: its "))
        // Not a network loss: the client stays connected, and the next call gets its answer.
        #expect(recorder.all(.delegate, "willDisconnectWithError").isEmpty)
        client.requestFullHistoryForChannel(channel) { messages, _, _, _, error in
            recorder.block("history", error ?? messages)
        }
        let next = try await recorder.next(.block, "history", within: 10)
        #expect((next.value as? [PNMessage])?.map { $0.message as? String } == ["fine"])
        client.disconnect()
    }

    @Test func anOversizedLongPollAnswerIsReportedAndTheSubscriptionRecovers() async throws {
        let name = Client.unique("huge-poll")
        let oversizedPolls = Locked(0)
        let server = try RawHTTPServer { request in
            if request.target.hasPrefix("/time/") {
                return .send(RawHTTPServer.ok("[17000000000000000]"), close: false)
            }
            switch RawHTTPServer.subscribeCursor(request) {
            case 0:
                return .send(RawHTTPServer.subscribeAnswer(cursor: 100), close: false)
            case 100
            where oversizedPolls.withLock({ count -> Bool in
                count += 1
                return count <= SubscribeLoop.StateMachine.maximumMalformedAttempts
            }):
                return Oversized.endlessChunks.reply
            case 100:
                let message = RawHTTPServer.ScriptedMessage(channel: name, payload: #""after""#, timetoken: 101)
                return .send(RawHTTPServer.subscribeAnswer(cursor: 101, [message]), close: false)
            default:
                Thread.sleep(forTimeInterval: 0.05)
                return .hangUp
            }
        }
        defer { server.stop() }
        let configuration = PNConfiguration.testing(origin: "127.0.0.1:\(server.port)")
        configuration.maximumResponseBodySize = 1_048_576
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: configuration,
            delegate: recorder,
            eventSinks: [recorder],
            timings: .probing(every: 0.3)
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 10)
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        // Three oversized answers (the malformed-answer retries), then one report, then recovery from the cursor.
        let failure = try await recorder.next(.delegate, "subscriptionDidFail", within: 20)
        #expect(failure.error?.code == kPNResponseTooLargeError)
        let received = try await recorder.next(.delegate, "didReceiveMessage", within: 20)
        #expect(received.message?.message as? String == "after")
        #expect(oversizedPolls.current == SubscribeLoop.StateMachine.maximumMalformedAttempts + 1)
        client.disconnect()
    }
}

// MARK: - Back-pressure

/// A sink that holds the delivery queue on the first message until `release` is signalled, and counts messages.
private final class HoldingSink: ClientEventSink, @unchecked Sendable {
    // @unchecked: `received` is a lock box; `release` is thread-safe.
    let release = DispatchSemaphore(value: 0)
    let received = Locked(0)

    func handle(_ event: ClientEvent, from client: PubNub) {
        guard case .didReceiveMessage = event else { return }
        let count = self.received.withLock { count -> Int in
            count += 1
            return count
        }
        if count == 1 { _ = self.release.wait(timeout: .now() + 60) }
    }
}

extension HostileOriginTests {
    @Test func aLargeAnswerIsDeliveredBeforeTheNextLongPollIsSent() async throws {
        // 80,000 messages weigh more than the delivery window: while the delivery queue is busy with them (held
        // here on the first message), the client does not ask for more.
        let name = Client.unique("window")
        let count = 80_000
        let messages = (1...count).map {
            RawHTTPServer.ScriptedMessage(channel: name, payload: "\($0)", timetoken: 100 + UInt64($0))
        }
        let large = RawHTTPServer.subscribeAnswer(cursor: 100 + UInt64(count), messages)
        let server = try RawHTTPServer { request in
            if request.target.hasPrefix("/time/") {
                return .send(RawHTTPServer.ok("[17000000000000000]"), close: false)
            }
            switch RawHTTPServer.subscribeCursor(request) {
            case 0: return .send(RawHTTPServer.subscribeAnswer(cursor: 100), close: false)
            case 100: return .send(large, close: false)
            default:
                Thread.sleep(forTimeInterval: 0.05)
                return .hangUp
            }
        }
        defer { server.stop() }
        let sink = HoldingSink()
        let recorder = EventRecorder()
        // Reading and parsing 80,000 messages in a debug build on a loaded machine can outlast the 10 s subscribe
        // timeout; the test is about what comes after the delivery, so the timeout is moved out of its way.
        let configuration = PNConfiguration.testing(origin: "127.0.0.1:\(server.port)")
        configuration.subscriptionRequestTimeout = 120
        let client = PubNub(configuration: configuration, delegate: recorder, eventSinks: [sink])
        defer { sink.release.signal() }
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 10)
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await eventually("the first message", within: 90) { sink.received.current == 1 }
        let next = 100 + UInt64(count)
        let polls = { server.requests.compactMap(RawHTTPServer.subscribeCursor).filter { $0 == next }.count }
        // A request sent after the first delivery is queued in the engine, then in the transport's FIFO, behind any
        // long-poll the engine had decided on before: by the time it reached the origin, such a long-poll would have
        // been taken first. (Its answer cannot be awaited: the held delivery queue carries its callbacks too.)
        client.requestHistoryForChannel(PNChannel.channelWithName(name), from: nil)
        try await eventually("the history request after the first delivery") {
            server.requests.contains { $0.target.contains("/history/") }
        }
        #expect(polls() == 0)
        sink.release.signal()
        try await eventually("every message", within: 30) { sink.received.current == count }
        try await eventually("the next long-poll") { polls() >= 1 }
        client.disconnect()
    }
}
