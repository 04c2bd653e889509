import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

/// Faults on the subscribe loop (docs/BEHAVIOR.md §3.8, S-28, S-29, S-39…S-43).
extension NetworkFaultTests {
    /// A connected client subscribed to a fresh channel, and a sender on the same origin that never probes.
    struct Subscribed {
        let client: PubNub
        let sender: PubNub
        let channel: PNChannel

        func stop() {
            self.sender.disconnect()
            self.client.disconnect()
        }
    }

    static func subscribed(
        to origin: LocalOrigin,
        recorder: EventRecorder,
        probeInterval: TimeInterval = 0.3,
        probeTimeout: TimeInterval = EngineTimings.standard.probeTimeout
    ) async throws -> Subscribed {
        let client = try await Self.connected(
            to: origin,
            recorder: recorder,
            probeInterval: probeInterval,
            probeTimeout: probeTimeout
        )
        let sender = try await Self.connected(to: origin, recorder: EventRecorder(), probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("loop"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        // did-subscribe comes when the long-poll is issued; a fault injected now must not catch it on its way.
        try await eventually("origin.counters.parkedPolls >= 1") { origin.counters.parkedPolls >= 1 }
        return Subscribed(client: client, sender: sender, channel: channel)
    }

    /// Publishes `text` from the sender and waits until the listener received it.
    static func deliver(_ text: String, _ setup: Subscribed, _ recorder: EventRecorder) async throws {
        setup.sender.sendMessage(text, toChannel: setup.channel)
        let received = try await recorder.next(.delegate, "didReceiveMessage", within: 10)
        #expect(received.message?.message as? String == text)
    }

    @Test func aDeadUplinkIsNoticedByTheProbeAndTheSubscriptionRestored() async throws {
        // S-28: no socket error at all, the origin just stops answering; the probe times out (5 s).
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let setup = try await Self.subscribed(to: origin, recorder: recorder)
        let mark = recorder.names(.delegate).count
        try origin.inject(.neverAnswer)
        let will = try await recorder.next(.delegate, "willDisconnectWithError", within: 15)
        #expect(will.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        #expect(will.error?.category == .unexpectedDisconnect)
        try await recorder.next(.delegate, "didDisconnectWithError", within: 10)
        try origin.clearFaults()
        try await recorder.next(.delegate, "didRestoreSubscription", within: 20)
        try await Self.deliver("after", setup, recorder)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willDisconnectWithError", "didDisconnectWithError", "willConnect", "didConnect",
                "willRestoreSubscription", "didRestoreSubscription", "didReceiveMessage",
            ]
        )
        setup.stop()
    }

    @Test func theServerClosingEverySocketIsRecoveredSilentlyFromTheLastToken() async throws {
        // S-29: the origin closes every socket while listening on: no connection events, no loss. (A restart on the
        // same port leaves a window with nothing listening, which a concurrent request may see as a network loss,
        // so it is not part of this scenario.)
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        // The origin stays reachable: a probe that a whole-suite run on two busy cores kept unanswered past the
        // standard 5 s would report a loss that did not happen (it once did), so this client's probes wait longer.
        let setup = try await Self.subscribed(to: origin, recorder: recorder, probeTimeout: 60)
        try await Self.deliver("before", setup, recorder)
        let mark = recorder.names(.delegate).count
        origin.closeAllConnections()
        try await Self.deliver("after close", setup, recorder)
        #expect(Self.delegateNames(recorder, after: mark) == ["didReceiveMessage"])
        let received = recorder.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message as? String }
        #expect(received == ["before", "after close"])
        setup.stop()
    }

    @Test func aHandshakeThatIsNeverAnsweredFailsWith106AndReleasesTheLock() async throws {
        // S-39: after 10 s subscription failed by timeout; nothing subscribed; a publish afterwards executes. The
        // publish's own timeout counts from its call (docs/BEHAVIOR.md §1.2): longer than the handshake's here, so it
        // is still wanted when its turn comes.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000) {
            $0.nonSubscriptionRequestTimeout = 60
        }
        try origin.inject(.neverAnswer, on: .operation(.subscribe))
        let channel = PNChannel.channelWithName(Client.unique("handshake"))
        let mark = recorder.names(.delegate).count
        client.subscribeOnChannel(channel) { state, channels, error in
            recorder.block("subscribe.\(state.rawValue)", error ?? channels)
        }
        client.sendMessage("after", toChannel: channel) { state, _ in recorder.block("publish.\(state.rawValue)") }
        let failed = try await recorder.next(.delegate, "subscriptionDidFail", within: 20)
        #expect(failed.error?.code == kPNRequestExecutionFailedByTimeoutError)
        #expect(failed.error?.category == .timeout)
        let block = try await recorder.next(
            .block,
            "subscribe.\(PNSubscriptionProcessState.PNSubscriptionProcessNotSubscribedState.rawValue)"
        )
        #expect(block.error?.code == kPNRequestExecutionFailedByTimeoutError)
        try await recorder.next(.block, "publish.\(PNMessageState.PNMessageSent.rawValue)", within: 10)
        #expect(client.subscribedChannels().isEmpty)
        #expect(
            Self.delegateNames(recorder, after: mark) == ["subscriptionDidFail", "willSendMessage", "didSendMessage"]
        )
        try origin.clearFaults()
        client.disconnect()
    }

    @Test func accessDeniedOnTheHandshakeIs113WithTheChannelsAndStopsTheLoop() async throws {
        // S-40: 113, associated object the channels, category access denied; no further subscribe.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        try origin.inject(.accessDenied, on: .operation(.subscribe))
        let channel = PNChannel.channelWithName(Client.unique("denied"))
        client.subscribeOnChannel(channel)
        let failed = try await recorder.next(.delegate, "subscriptionDidFail", within: 10)
        #expect(failed.error?.code == kPNAPIAccessForbiddenError)
        #expect(failed.error?.category == .accessDenied)
        #expect((failed.error?.associatedObject as? [PNChannel])?.map(\.name) == [channel.name])
        // A request round trip later (several probe intervals pass meanwhile) still only one subscribe was tried.
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(origin.faultCounters.accessDenied == 1)
        #expect(recorder.all(.delegate, "subscriptionDidFail").count == 1)
        client.disconnect()
    }

    @Test func accessDeniedOnARunningLongPollKeepsTheChannelAndANewSubscribeResumesFromTheToken() async throws {
        // S-41: 113 on the long-poll; the channel stays; subscribe(b) after the grant covers a and b.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let setup = try await Self.subscribed(to: origin, recorder: recorder)
        try origin.inject(.accessDenied, on: .operation(.subscribe), count: 1)
        try await Self.deliver("before", setup, recorder)  // its long-poll was in flight; the next one is denied
        let failed = try await recorder.next(.delegate, "subscriptionDidFail", within: 10)
        #expect(failed.error?.code == kPNAPIAccessForbiddenError)
        #expect(setup.client.subscribedChannels().map(\.name) == [setup.channel.name])
        let before = Self.subscribes(origin).count
        let b = PNChannel.channelWithName(Client.unique("b"))
        setup.client.subscribeOnChannel(b)
        let added = try await recorder.next(.delegate, "didSubscribe", within: 10)
        #expect(added.channels == [setup.channel, b])  // 3.4.2: the whole subscribed set
        try await Self.deliver("resumed", setup, recorder)
        let next = try #require(Self.subscribes(origin).dropFirst(before).first)
        #expect(
            next.contains(PercentEncoding.escape(setup.channel.name)) && next.contains(PercentEncoding.escape(b.name))
        )
        setup.stop()
    }

    @Test func aServerErrorOnTheLongPollIsReportedThenRecoveredByTheProbe() async throws {
        // S-42 (the fault's 502 carries a JSON error payload rather than HTML): −1, then a probe, a subscribe with the
        // kept token and did-restore.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let setup = try await Self.subscribed(to: origin, recorder: recorder)
        try origin.inject(.serverError(status: 502), on: .operation(.subscribe), count: 1)
        let mark = recorder.names(.delegate).count
        try await Self.deliver("before", setup, recorder)
        let failed = try await recorder.next(.delegate, "subscriptionDidFail", within: 10)
        #expect(failed.error?.code == kPNUnknownError)
        #expect(failed.error?.category == .unknown)  // the error payload's text ("Bad Gateway") names no known code
        let restored = try await recorder.next(.delegate, "didRestoreSubscription", within: 15)
        #expect(restored.channels == [setup.channel])
        try await Self.deliver("after", setup, recorder)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "didReceiveMessage", "subscriptionDidFail", "didRestoreSubscription", "didReceiveMessage",
            ]
        )
        setup.stop()
    }

    @Test func twoMalformedLongPollAnswersAreRetriedSilentlyWithTheSameToken() async throws {
        // S-43, first half: same token three times, no error, the message arrives once.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let setup = try await Self.subscribed(to: origin, recorder: recorder)
        try origin.inject(.malformedJSON, on: .operation(.subscribe), count: 2)
        let mark = recorder.names(.delegate).count
        let before = Self.subscribes(origin).count
        try await Self.deliver("before", setup, recorder)
        try await eventually("origin.faultCounters.malformedJSON == 2") { origin.faultCounters.malformedJSON == 2 }
        try await Self.deliver("after", setup, recorder)
        #expect(Self.delegateNames(recorder, after: mark) == ["didReceiveMessage", "didReceiveMessage"])
        // Faulted answers never reach the origin's log: the first poll logged after "before" is the third attempt,
        // still carrying the token "before" came with (not a handshake).
        let logged = Array(Self.subscribes(origin).dropFirst(before))
        #expect(logged.count == 2)
        #expect(logged.allSatisfy { Self.token($0) != "0" })
        #expect(origin.faultCounters.malformedJSON == 2)
        setup.stop()
    }

    @Test func threeMalformedLongPollAnswersFailWith127AndRecover() async throws {
        // S-43, second half: 127 then the S-42 path.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let setup = try await Self.subscribed(to: origin, recorder: recorder)
        try origin.inject(.malformedJSON, on: .operation(.subscribe), count: 3)
        try await Self.deliver("before", setup, recorder)
        let failed = try await recorder.next(.delegate, "subscriptionDidFail", within: 10)
        #expect(failed.error?.code == kPNResponseMalformedJSONError)
        #expect(failed.error?.category == .malformedResponse)
        try await recorder.next(.delegate, "didRestoreSubscription", within: 15)
        try await Self.deliver("after", setup, recorder)
        setup.stop()
    }

    @Test func nonUTF8LongPollAnswersAreMalformedAndNeverTouchTheToken() async throws {
        // docs/BEHAVIOR.md §3.8: not UTF-8 → 126 after three attempts, tokens kept, then recovery.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let setup = try await Self.subscribed(to: origin, recorder: recorder)
        try origin.inject(.nonUTF8, on: .operation(.subscribe), count: 3)
        let before = Self.subscribes(origin).count
        try await Self.deliver("before", setup, recorder)
        let failed = try await recorder.next(.delegate, "subscriptionDidFail", within: 10)
        #expect(failed.error?.code == kPNResponseEncodingError)
        try await recorder.next(.delegate, "didRestoreSubscription", within: 15)
        #expect(origin.faultCounters.nonUTF8 == 3)
        let tokens = Self.subscribes(origin).dropFirst(before).map { Self.token($0) }
        #expect(!tokens.isEmpty && !tokens.contains("0"))
        try await Self.deliver("after", setup, recorder)
        setup.stop()
    }
}
