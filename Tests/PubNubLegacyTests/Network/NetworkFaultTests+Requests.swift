import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

/// Faults on non-subscribe requests (docs/BEHAVIOR.md §4.3–4.5, S-63, S-67, S-68) and calls made while the origin is
/// unreachable (S-19, S-52, S-53).
extension NetworkFaultTests {
    static let sendingError = PNMessageState.PNMessageSendingError.rawValue
    static let sent = PNMessageState.PNMessageSent.rawValue

    /// Publish targets the origin answered.
    static func publishes(_ origin: LocalOrigin) -> [String] {
        origin.requestLog.map(\.target).filter { $0.hasPrefix("/publish/") }
    }

    @Test func aPublishThatIsNeverAnsweredTimesOutOnceAndALateAnswerIsIgnored() async throws {
        // S-63: 106 "Message sending failed by timeout" after 10 s; releasing the request adds no second outcome.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        try origin.inject(.neverAnswer, on: .operation(.publish))
        let mark = recorder.names(.delegate).count
        client.sendMessage("late", toChannel: PNChannel.channelWithName(Client.unique("timeout"))) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let failed = try await recorder.next(.block, "publish.\(Self.sendingError)", within: 20)
        #expect(failed.error?.code == kPNRequestExecutionFailedByTimeoutError)
        #expect(failed.error?.category == .timeout)
        #expect(failed.error?.localizedDescription == "Message sending failed by timeout")
        try origin.clearFaults()  // a held publish still on an open connection is answered now, too late
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willSendMessage", "messageSendDidFail", "didReceiveTimeToken",
            ]
        )
        let sending = PNMessageState.PNMessageSending.rawValue
        #expect(
            recorder.names(.block).filter { $0.hasPrefix("publish.") } == [
                "publish.\(sending)", "publish.\(Self.sendingError)",
            ]
        )
        client.disconnect()
    }

    @Test func aMalformedPublishAnswerFailsWith127AndIsNotResent() async throws {
        // S-67: the origin may have stored it already; re-sending would duplicate it.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        try origin.inject(.malformedJSON, on: .operation(.publish))
        client.sendMessage("once", toChannel: PNChannel.channelWithName(Client.unique("malformed"))) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let failed = try await recorder.next(.block, "publish.\(Self.sendingError)", within: 10)
        #expect(failed.error?.code == kPNResponseMalformedJSONError)
        #expect(failed.error?.category == .malformedResponse)
        try origin.clearFaults()
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(origin.faultCounters.malformedJSON == 1)
        #expect(recorder.all(.delegate, "messageSendDidFail").count == 1)
        client.disconnect()
    }

    @Test func malformedTimeAnswersAreRetriedUpToThreeAttempts() async throws {
        // docs/BEHAVIOR.md §4.3: an idempotent request is re-sent; two bad answers are invisible, three fail with 127.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        try origin.inject(.malformedJSON, on: .operation(.time), count: 2)
        client.requestServerTimeTokenWithCompletionBlock { token, error in recorder.block("first", error ?? token) }
        let first = try await recorder.next(.block, "first", within: 10)
        #expect(first.error == nil)
        try origin.inject(.malformedJSON, on: .operation(.time), count: 3)
        client.requestServerTimeTokenWithCompletionBlock { token, error in recorder.block("second", error ?? token) }
        let second = try await recorder.next(.block, "second", within: 10)
        #expect(second.error?.code == kPNResponseMalformedJSONError)
        #expect(origin.faultCounters.malformedJSON == 5)
        #expect(
            recorder.names(.delegate).filter { $0.hasPrefix("didReceiveTimeToken") || $0.hasPrefix("timeToken") } == [
                "didReceiveTimeToken", "timeTokenReceiveDidFail",
            ]
        )
        client.disconnect()
    }

    @Test func errorAnswersMapToTheirCodesAndCategories() async throws {
        // docs/BEHAVIOR.md §4.4: 403 → 113 with the channel (S-68), 5xx → its payload text, HTML → malformed, non-UTF-8
        // → 126.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("history"))
        try origin.inject(.accessDenied, on: .operation(.history), count: 1)
        client.requestHistoryForChannel(channel, from: nil, to: nil, limit: 0, reverseHistory: false) {
            _,
            _,
            _,
            _,
            error in recorder.block("history", error)
        }
        let denied = try await recorder.next(.block, "history", within: 10)
        #expect(denied.error?.code == kPNAPIAccessForbiddenError)
        #expect(denied.error?.category == .accessDenied)
        #expect((denied.error?.associatedObject as? PNChannel) == channel)
        try origin.inject(.serverError(status: 503), on: .operation(.publish), count: 1)
        client.sendMessage("x", toChannel: channel) { state, value in recorder.block("publish.\(state.rawValue)", value)
        }
        let unavailable = try await recorder.next(.block, "publish.\(Self.sendingError)", within: 10)
        #expect(unavailable.error?.category == .unknown)
        try origin.inject(.nonUTF8, on: .operation(.publish), count: 1)
        client.sendMessage("y", toChannel: channel) { state, value in recorder.block("utf.\(state.rawValue)", value) }
        let garbled = try await recorder.next(.block, "utf.\(Self.sendingError)", within: 10)
        #expect(garbled.error?.code == kPNResponseEncodingError)
        #expect(garbled.error?.category == .malformedResponse)
        try origin.inject(.htmlPage, on: .operation(.publish), count: 1)
        client.sendMessage("z", toChannel: channel) { state, value in recorder.block("html.\(state.rawValue)", value) }
        let portal = try await recorder.next(.block, "html.\(Self.sendingError)", within: 10)
        #expect(portal.error?.code == kPNResponseMalformedJSONError)
        #expect(Self.publishes(origin).isEmpty)  // every answer came from a fault; no publish was re-sent to the origin
        #expect(origin.faultCounters.requestsFaulted == 4)
        client.disconnect()
    }

    @Test func stoppingWhileTheUplinkIsDeadCompletesPromptlyAndNothingIsRestoredLater() async throws {
        // S-52: the origin stops answering without the client noticing; unsubscribe-all and a new subscribe finish
        // within 10 s each; after the origin returns the channels are not restored and no leave is re-sent.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        let channels = (1...3).map { PNChannel.channelWithName(Client.unique("stop\($0)")) }
        client.subscribeOnChannels(channels)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try await eventually("origin.counters.parkedPolls >= 1") { origin.counters.parkedPolls >= 1 }
        try origin.inject(.neverAnswer)
        client.unsubscribeFromChannels(channels) { left, error in recorder.block("stop", error ?? left) }
        // The leave is best effort: abandoned at its 10 s timeout (the deadline allows for scheduling under TSan).
        let stopped = try await recorder.next(.block, "stop", within: 14)
        #expect(stopped.error == nil)
        let unsubscribed = recorder.all(.delegate, "didUnsubscribe")  // delivered before the block
        #expect(unsubscribed.count == 1)
        #expect(Set(unsubscribed.first?.channelNames ?? []) == Set(channels.map(\.name)))
        #expect(client.subscribedChannels().isEmpty)
        let again = PNChannel.channelWithName(Client.unique("start"))
        client.subscribeOnChannel(again) { state, _, error in recorder.block("start", error ?? state) }
        // Success or an error (106 here: the handshake is not answered either), but within its 10 s timeout.
        try await recorder.next(.block, "start", within: 12)
        try origin.clearFaults()
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 15)
        #expect(recorder.all(.delegate, "willRestoreSubscription").isEmpty)
        #expect(!client.subscribedChannels().contains { channels.contains($0) })
        #expect(origin.requestLog.filter { $0.target.contains("/leave") }.count <= 1)
        client.disconnect()
    }

    @Test func unsubscribingDuringAnOutageCompletesAtOnceAndShrinksTheRestore() async throws {
        // S-53: no error, no traffic; the restore covers only the remaining channel.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let a = PNChannel.channelWithName(Client.unique("a"))
        let b = PNChannel.channelWithName(Client.unique("b"))
        client.subscribeOnChannels([a, b])
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try origin.inject(.refuseConnections(dropExisting: true))
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        let mark = recorder.names(.delegate).count
        client.unsubscribeFromChannel(a) { left, error in recorder.block("unsubscribe", error ?? left) }
        let done = try await recorder.next(.block, "unsubscribe", within: 5)
        #expect(done.error == nil)
        try origin.clearFaults()
        let restoring = try await recorder.next(.delegate, "willRestoreSubscription", within: 15)
        #expect(restoring.channels == [b])
        let restored = try await recorder.next(.delegate, "didRestoreSubscription", within: 10)
        #expect(restored.channels == [b])
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "didUnsubscribe", "willConnect", "didConnect", "willRestoreSubscription", "didRestoreSubscription",
            ]
        )
        #expect(origin.requestLog.filter { $0.target.contains("/leave") }.isEmpty)
        client.disconnect()
    }

    @Test func disconnectingWhileWaitingToReconnectStaysDisconnected() async throws {
        // S-19: did-disconnect once; when the origin returns nothing reconnects (probes stop with the client).
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        client.subscribeOnChannel(PNChannel.channelWithName(Client.unique("bye")))
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try origin.inject(.refuseConnections(dropExisting: true))
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        let mark = recorder.names(.delegate).count
        client.disconnect()
        try await recorder.next(.delegate, "didDisconnect", within: 10)
        try origin.clearFaults()
        let requests = origin.counters.requests
        // Ten probe intervals: a client still probing would have reconnected by then.
        await #expect(throws: EventuallyTimeout.self) { try await recorder.next(.delegate, "willConnect", within: 3) }
        // At most one request the client had already started before `disconnect` may still land once the origin
        // accepts again (seen about once in ten full runs); a client still probing would send one every 0.3 s.
        #expect(origin.counters.requests - requests <= 1)
        #expect(Self.delegateNames(recorder, after: mark) == ["didDisconnect"])
        #expect(client.subscribedChannels().isEmpty)
    }
}

extension NetworkFaultTests {
    @Test func outstandingRequestsTimeOutIndependently() async throws {
        // S-71. This layer has no pipelining mode: each outstanding request has its own connection and its own
        // timer from its own start (docs/BEHAVIOR.md §4.2), which is the rule S-71 checks. A history answered late (but
        // within the timeout) and a time request never answered are outstanding together: only the second times
        // out, once, no earlier than its own timeout, and the first is never reported as timed out.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let timeout: TimeInterval = 3
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000) {
            $0.nonSubscriptionRequestTimeout = timeout
        }
        try origin.inject(.delay(1.5), on: .operation(.history))
        try origin.inject(.neverAnswer, on: .operation(.time))
        let channel = PNChannel.channelWithName(Client.unique("independent"))
        client.requestFullHistoryForChannel(channel) { _, _, _, _, error in recorder.block("history", error) }
        let timeCalled = ContinuousClock.now
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        let history = try await recorder.next(.block, "history", within: 20)
        #expect(history.error == nil)
        let time = try await recorder.next(.block, "time", within: 20)
        let waited = ContinuousClock.now - timeCalled
        #expect(time.error?.code == kPNRequestExecutionFailedByTimeoutError)
        #expect(time.error?.localizedDescription == "Time token request failed by timeout")
        #expect(waited >= .seconds(timeout) - .milliseconds(50))
        #expect(recorder.names(.block).filter { $0 == "history" || $0 == "time" } == ["history", "time"])
        try origin.clearFaults()
        client.disconnect()
    }
}
