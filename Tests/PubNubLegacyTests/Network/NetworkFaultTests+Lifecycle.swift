import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// The remaining fault scenarios of docs/BEHAVIOR.md §9: connecting without a network (S-08, S-09, S-10), a closed
/// service connection (S-30), the idle timer (S-31) and write-failure retries (S-69).
///
/// Where 3.4's socket design does not carry over to HTTP, the test checks the layer's rule that replaces it:
/// - S-09: reachability is emulated (docs/DESIGN.md A5). A fresh configuration counts as reachable, and the connect
///   attempt — a Time request — is itself the first reachability check, so `willConnectToOrigin:` comes at once and
///   nothing else until that request is answered; then `didConnectToOrigin:` (the S-03 order).
/// - S-10: a black-holed SYN is emulated by the origin accepting the connect attempt's request and never answering
///   it. The 10 s attempt timeout stays the default; the test shortens it through the engine's knob.
/// - S-30: there are no sockets to watch over HTTP; a keep-alive connection the origin closed is replaced by the HTTP
///   stack on the next request, which succeeds without any event.
/// - S-31: the 310 s idle limit is the configuration's `subscribeMaximumIdleTime` (default 310, shortened here):
///   a long-poll the origin parks past it is abandoned and re-issued with the same token, without events.
/// - S-69: there are no socket writes to retry. The replacement rule: an idempotent request (time, history,
///   here-now, push list) whose connection fails without an answer is sent again, 3 attempts in total, then fails
///   once with the transport's error; a publish is never sent again (the origin may have stored it).
extension NetworkFaultTests {
    @Test func connectWhileTheOriginIsKnownDownFailsWith102AtOnceAndConnectsOnItsOwnLater() async throws {
        // S-08: the first connect finds the origin refusing (1 + 3 attempts, then connection-failed 102); the
        // next connect is answered 102 by its block only; the probes connect once the origin is back, without the
        // second connect's success block.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: origin.address),
            delegate: recorder,
            eventSinks: [],
            timings: .probing(every: 0.3)
        )
        try origin.inject(.refuseConnections(dropExisting: true))
        client.connectWithSuccessBlock(
            { recorder.block("first", $0) },
            errorBlock: { recorder.block("firstError", $0) }
        )
        let failed = try await recorder.next(.delegate, "connectionDidFail", within: 30)
        #expect(failed.error?.code == kPNClientConnectionFailedOnInternetFailureError)
        try await recorder.next(.block, "firstError", within: 5)
        let mark = recorder.names(.delegate).count
        client.connectWithSuccessBlock(
            { recorder.block("second", $0) },
            errorBlock: { recorder.block("secondError", $0) }
        )
        let early = try await recorder.next(.block, "secondError", within: 5)
        #expect(early.error?.code == kPNClientConnectionFailedOnInternetFailureError)
        #expect(Self.delegateNames(recorder, after: mark).isEmpty)  // block only: no connection-failed event
        try origin.clearFaults()
        try await recorder.next(.delegate, "didConnect", within: 15)
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(Self.delegateNames(recorder, after: mark) == ["willConnect", "didConnect", "didReceiveTimeToken"])
        #expect(recorder.all(.block, "second").isEmpty)
        #expect(recorder.all(.block, "first").isEmpty)
        #expect(recorder.all(.block, "firstError").count == 1)
        #expect(recorder.all(.block, "secondError").count == 1)
        client.disconnect()
    }

    @Test func connectBeforeTheFirstReachabilityAnswerWaitsForItThenConnectsInOrder() async throws {
        // S-09: the first Time answer comes 3 s late; will-connect at once, did-connect only after that answer.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: origin.address),
            delegate: recorder,
            eventSinks: [],
            timings: .probing(every: 1_000)
        )
        try origin.inject(.delay(3), on: .operation(.time), count: 1)
        let start = Date()
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.delegate, "willConnect", within: 5)
        try await recorder.next(.block, "connect", within: 15)
        // The origin holds the answer at least 3 s after the request arrived, which was after `start`.
        #expect(Date().timeIntervalSince(start) >= 3)
        #expect(recorder.names(.delegate) == ["willConnect", "didConnect"])
        #expect(recorder.all(.block, "connect").count == 1)
        #expect(recorder.all(.block, "error").isEmpty)
        #expect(client.isConnected())
        client.disconnect()
    }

    @Test func aBlackHoledOriginIsTriedFourTimesThenReportedOnceAndConnectIsAcceptedAgain() async throws {
        // S-10: 1 + 3 attempts, each abandoned at its timeout (shortened to 1 s) with 2 s between them, then one
        // connection-failed and one error block; the state is Disconnected, so the next connect goes ahead. The
        // engine's timers run on a manual clock: the test makes the 2 s pass, and no probe (10 s after the failure)
        // is counted among the unanswered attempts.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let clock = ManualClock()
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: origin.address),
            delegate: recorder,
            eventSinks: [],
            timings: EngineTimings.standard.connectAttempts(timingOutAfter: 1),
            clock: clock
        )
        #expect(EngineTimings.standard.connectAttemptTimeout == 10)  // the default stays 10 s
        try origin.inject(.neverAnswer, on: .operation(.time))
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await Self.abandonConnectAttempts(4, of: client, on: clock, at: origin)
        let failed = try await recorder.next(.delegate, "connectionDidFail", within: 30)
        #expect(failed.error?.code == kPNClientConnectionFailedOnInternetFailureError)
        let error = try await recorder.next(.block, "error", within: 5)
        #expect(error.error === failed.error)
        #expect(origin.faultCounters.unanswered == 4)
        #expect(recorder.names(.delegate) == ["willConnect", "connectionDidFail"])
        #expect(!client.isConnected())
        try origin.clearFaults()
        // Accepted, not refused with 101: straight away, or — the origin last seen unreachable — 102 by the block
        // and a connect of its own at the next good probe (T4), due 10 s after the failure.
        client.connectWithSuccessBlock(
            { recorder.block("again", $0) },
            errorBlock: { recorder.block("againError", $0) }
        )
        client.engine.flushEngineQueue()
        clock.advance(by: 10)
        try await recorder.next(.delegate, "didConnect", within: 20)
        let codes = recorder.all(.block, "againError").map { $0.error?.code }
        #expect(codes.allSatisfy { $0 == kPNClientConnectionFailedOnInternetFailureError })
        #expect(recorder.all(.block, "error").count == 1)
        #expect(recorder.names(.delegate) == ["willConnect", "connectionDidFail", "willConnect", "didConnect"])
        client.disconnect()
    }

    /// Runs `count` connect attempts of `client` against a black-holed Time endpoint: each reaches the origin and
    /// is abandoned when its request times out (the transport's own timeout, the attempt's timeout as well; the
    /// engine's copy of it on `clock` is left alone), and the next is sent once the test has advanced `clock` by the
    /// retry delay.
    static func abandonConnectAttempts(
        _ count: Int,
        of client: PubNub,
        on clock: ManualClock,
        at origin: LocalOrigin
    ) async throws {
        let retry = ConnectionStateMachine.connectRetryDelay
        for attempt in 1...count {
            let state = { "unanswered: \(origin.faultCounters.unanswered), pending timers: \(clock.pendingDelays)" }
            try await eventually("connect attempt \(attempt) at the origin (\(state()))") {
                origin.faultCounters.unanswered >= attempt
            }
            guard attempt < count else { return }
            try await eventually("connect attempt \(attempt) to time out (\(state()))") {
                clock.pendingDelays == [retry]
            }
            clock.advance(by: retry)
        }
    }

    @Test func aServiceConnectionClosedByTheOriginIsReplacedSilentlyForTheNextPublish() async throws {
        // S-30: connected and idle; the origin closes every connection (only service connections exist); the next
        // publish succeeds, reaches the origin once, and no connection event is emitted.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("warm", error) }
        try await recorder.next(.block, "warm", within: 10)  // a keep-alive connection is open now
        let mark = recorder.names(.delegate).count
        origin.closeAllConnections()
        let channel = PNChannel.channelWithName(Client.unique("service-close"))
        client.sendMessage("after close", toChannel: channel) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        try await recorder.next(.block, "publish.\(PNMessageState.PNMessageSent.rawValue)", within: 15)
        #expect(Self.delegateNames(recorder, after: mark) == ["willSendMessage", "didSendMessage"])
        #expect(origin.requestLog.filter { $0.target.hasPrefix("/publish/") }.count == 1)
        #expect(client.isConnected())
        client.disconnect()
    }

    @Test func aLongPollParkedPastTheIdleLimitIsReissuedWithTheSameTokenWithoutEvents() async throws {
        // S-31 with the idle limit at 2 s: the origin parks polls for 280 s; the client re-issues with token T.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000) {
            #expect($0.subscribeMaximumIdleTime == 310)  // the default stays 310 s
            $0.subscribeMaximumIdleTime = 2
        }
        let senderLog = EventRecorder()
        let sender = try await Self.connected(to: origin, recorder: senderLog, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("idle"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try await eventually("origin.counters.parkedPolls >= 1") { origin.counters.parkedPolls >= 1 }
        let mark = recorder.names(.delegate).count
        // Polls are logged when they end: an abandoned one with status 0 once the client closed its connection.
        let polls = { Self.subscribes(origin).compactMap { Self.token($0) }.filter { $0 != "0" } }
        try await eventually("polls().count >= 2", within: 20) { polls().count >= 2 }
        #expect(Set(polls()).count == 1, "\(polls())")
        #expect(Self.delegateNames(recorder, after: mark).isEmpty)
        sender.sendMessage("after idle", toChannel: channel)
        let received = try await recorder.next(.delegate, "didReceiveMessage", within: 10)
        #expect(received.message?.message as? String == "after idle")
        #expect(Self.delegateNames(recorder, after: mark) == ["didReceiveMessage"])
        sender.disconnect()
        client.disconnect()
    }

    @Test func anIdempotentRequestWhoseConnectionFailsIsSentAgainUpToThreeAttempts() async throws {
        // S-69 (replacement rule): two answers cut mid-body, the third whole: one success event, three requests.
        // Three cuts: one failure event after the third attempt, with the transport's error, and no loss events.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("retry"))
        let histories = { origin.requestLog.filter { $0.target.contains("/history/") }.count }
        let mark = recorder.names(.delegate).count
        try origin.inject(.closeMidResponse(.body), on: .operation(.history), count: 2)
        client.requestHistoryForChannel(channel, from: nil, to: nil, limit: 0, reverseHistory: false) {
            messages,
            _,
            _,
            _,
            error in recorder.block("history", error ?? messages)
        }
        let success = try await recorder.next(.block, "history", within: 15)
        #expect(success.error == nil)
        #expect(histories() == 3)
        try origin.clearFaults()
        try origin.inject(.closeMidResponse(.body), on: .operation(.history))
        client.requestHistoryForChannel(channel, from: nil, to: nil, limit: 0, reverseHistory: false) {
            messages,
            _,
            _,
            _,
            error in recorder.block("history", error ?? messages)
        }
        let failure = try await recorder.next(.block, "history", within: 15)
        let error = try #require(failure.error)
        #expect(error.code != kPNRequestExecutionFailedByTimeoutError)
        #expect(histories() == 6)
        try origin.clearFaults()
        // A publish whose answer is cut is not sent again.
        try origin.inject(.closeMidResponse(.body), on: .operation(.publish), count: 1)
        client.sendMessage("cut", toChannel: channel) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        try await recorder.next(.block, "publish.\(PNMessageState.PNMessageSendingError.rawValue)", within: 15)
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(origin.requestLog.filter { $0.target.hasPrefix("/publish/") }.count == 1)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "didReceiveMessageHistory", "historyDownloadDidFail", "willSendMessage", "messageSendDidFail",
                "didReceiveTimeToken",
            ]
        )
        #expect(client.isConnected())
        client.disconnect()
    }

    @Test func aFailedConnectAndTheAutomaticConnectReachEveryChannelInOrder() async throws {
        // S-10 then S-08 on the four channels: the black-holed connect fails once everywhere; the next connect is
        // answered 102 by its block alone; the automatic connect that follows calls no block.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let clock = ManualClock()
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: origin.address),
            delegate: nil,
            eventSinks: [],
            timings: EngineTimings.standard.connectAttempts(timingOutAfter: 1),
            clock: clock
        )
        let center = PNObservationCenter(client: client)
        let recorder = FourChannelRecorder(client: client, center: center)
        defer { recorder.stop() }
        try origin.inject(.neverAnswer, on: .operation(.time))
        client.connectWithSuccessBlock(recorder.connectSuccess, errorBlock: recorder.connectFailure)
        try await Self.abandonConnectAttempts(4, of: client, on: clock, at: origin)
        #expect(try await recorder.waitForEntries(6, from: 0, within: 30))
        client.connectWithSuccessBlock(recorder.connectSuccess, errorBlock: recorder.connectFailure)
        #expect(try await recorder.waitForEntries(7, from: 0, within: 10))
        try origin.clearFaults()
        // The probe planned 10 s after the failure finds the origin back.
        clock.advance(by: 10)
        let expected: [[String]] = [
            ["D:willConnect", "N:PNClientWillConnectToOriginNotification"],
            [
                "D:connectionDidFail", "O:connection:error", "N:PNClientConnectionDidFailWithErrorNotification",
                "B:connect.error",
            ],
            ["B:connect.error"],
            ["D:willConnect", "N:PNClientWillConnectToOriginNotification"],
            ["D:didConnect", "O:connection:up", "N:PNClientDidConnectToOriginNotification"],
        ]
        let total = expected.map(\.count).reduce(0, +)
        #expect(try await recorder.waitForEntries(total, from: 0, within: 20))
        let entries = recorder.entries
        #expect(entries.map { "\($0.channel):\($0.label)" } == expected.flatMap { $0 })
        var offset = 0
        for event in expected {
            let keys = entries.dropFirst(offset).prefix(event.count).map(\.key)
            #expect(Set(keys).count == 1, "\(event.first ?? ""): \(keys)")
            offset += event.count
        }
        #expect(
            entries.filter { $0.label == "connect.error" }.map { String($0.key.prefix(10)) } == [
                "error(102)", "error(102)",
            ]
        )
        client.disconnect()
    }
}
