import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// docs/BEHAVIOR.md §9 scenarios that need an injected network fault, against an in-process LocalOrigin over real
/// sockets. Probes run every 0.3 s instead of 10 s; a client that must stay down while others work is kept down by a
/// Time fault (its probes go unanswered) rather than by timing.
@Suite struct NetworkFaultTests {
    typealias Client = LocalOriginClientTests

    /// A client connected to `origin` whose reachability probes run every `probeInterval` seconds.
    static func connected(
        to origin: LocalOrigin,
        recorder: EventRecorder,
        probeInterval: TimeInterval = 0.3,
        probeTimeout: TimeInterval = EngineTimings.standard.probeTimeout,
        configure: (PNConfiguration) -> Void = { _ in }
    ) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: origin.address)
        configure(configuration)
        var timings = EngineTimings.probing(every: probeInterval)
        timings.probeTimeout = probeTimeout
        let client = PubNub(
            configuration: configuration,
            delegate: recorder,
            eventSinks: [recorder],
            timings: timings
        )
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        try await recorder.next(.block, "connect", within: 10)
        return client
    }

    /// Delegate callbacks recorded after the first `skip` of them.
    static func delegateNames(_ recorder: EventRecorder, after skip: Int) -> [String] {
        Array(recorder.names(.delegate).dropFirst(skip))
    }

    /// Subscribe targets the origin answered.
    static func subscribes(_ origin: LocalOrigin) -> [String] {
        origin.requestLog.map(\.target).filter { $0.hasPrefix("/v2/subscribe/") }
    }

    /// The `tt` parameter of a subscribe target.
    static func token(_ target: String) -> String? {
        target.split(separator: "?").last?.split(separator: "&")
            .first { $0.hasPrefix("tt=") }
            .map { String($0.dropFirst(3)) }
    }

    // MARK: - Loss and reconnect

    @Test func lossWhileIdleIsReportedOnceAndTheClientReconnectsWhenTheOriginReturns() async throws {
        // S-20 (and S-26): refused connections make the next probe fail; 103 twice; a publish meanwhile fails with
        // 104; then reconnect and a working request.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let mark = recorder.names(.delegate).count
        try origin.inject(.refuseConnections(dropExisting: true))
        let will = try await recorder.next(.delegate, "willDisconnectWithError", within: 15)
        #expect(will.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        let did = try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        #expect(did.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        // S-26: a publish during the outage fails at once with 104, and the delegate hears it (gate open).
        client.sendMessage("offline", toChannel: PNChannel.channelWithName(Client.unique("idle"))) { state, value in
            recorder.block("offline.\(state.rawValue)", value)
        }
        let offline = try await recorder.next(.block, "offline.\(PNMessageState.PNMessageSendingError.rawValue)")
        #expect(offline.error?.code == kPNRequestExecutionFailedOnInternetFailureError)
        #expect(offline.error?.category == .networkIssues)
        try origin.clearFaults()
        try await recorder.next(.delegate, "didConnect", within: 15)
        client.requestServerTimeTokenWithCompletionBlock { token, error in recorder.block("time", error ?? token) }
        let time = try await recorder.next(.block, "time", within: 15)
        #expect(time.error == nil)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willDisconnectWithError", "didDisconnectWithError", "messageSendDidFail", "willConnect", "didConnect",
                "didReceiveTimeToken",
            ]
        )
        #expect(recorder.all(.block, "connect").count == 1)  // the app's connect block is not called again
        client.disconnect()
    }

    @Test func lossMidLongPollCatchesUpOnMessagesPublishedDuringTheOutage() async throws {
        // S-21: the restore subscribe carries the last token; m1, m2 arrive before did-restore.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let senderLog = EventRecorder()
        let sender = try await Self.connected(to: origin, recorder: senderLog, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("catch-up"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        sender.sendMessage("m0", toChannel: channel)
        try await recorder.next(.delegate, "didReceiveMessage", within: 10)
        let mark = recorder.names(.delegate).count
        let before = Self.subscribes(origin).count
        try origin.inject(.refuseConnections(dropExisting: true))
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        // The origin is back for the sender, but the listener's probes still fail: its network stays down.
        try origin.inject(.neverAnswer, on: .operation(.time))
        try origin.clearFault(try #require(origin.activeFaults.first { $0.fault.isRefusal }?.id))
        for text in ["m1", "m2"] {
            sender.sendMessage(text, toChannel: channel) { state, _ in senderLog.block("\(text).\(state.rawValue)") }
            try await senderLog.next(.block, "\(text).\(PNMessageState.PNMessageSent.rawValue)", within: 10)
        }
        try origin.clearFaults()
        try await recorder.next(.delegate, "didRestoreSubscription", within: 20)
        let received = recorder.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message as? String }
        #expect(received == ["m0", "m1", "m2"])
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willDisconnectWithError", "didDisconnectWithError", "willConnect", "didConnect",
                "willRestoreSubscription", "didReceiveMessage", "didReceiveMessage", "didRestoreSubscription",
            ]
        )
        // The dropped long-poll may be logged after `before` too; it carries the same token. No handshake follows.
        let after = Self.subscribes(origin).dropFirst(before).map { Self.token($0) }
        #expect(!after.isEmpty && !after.contains("0"))
        sender.disconnect()
        client.disconnect()
    }

    @Test func lossWithoutCatchUpHandshakesAgainAndLosesTheOutageMessages() async throws {
        // S-22: token 0 after the loss; the outage message is not delivered, later ones are.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder) {
            $0.restoreSubscriptionFromLastTimeToken = false
        }
        let senderLog = EventRecorder()
        let sender = try await Self.connected(to: origin, recorder: senderLog, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("no-catch-up"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        let mark = recorder.names(.delegate).count
        let before = Self.subscribes(origin).count
        try origin.inject(.refuseConnections(dropExisting: true))
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        try origin.inject(.neverAnswer, on: .operation(.time))
        try origin.clearFault(try #require(origin.activeFaults.first { $0.fault.isRefusal }?.id))
        sender.sendMessage("lost", toChannel: channel) { state, _ in senderLog.block("lost.\(state.rawValue)") }
        try await senderLog.next(.block, "lost.\(PNMessageState.PNMessageSent.rawValue)", within: 10)
        try origin.clearFaults()
        try await recorder.next(.delegate, "didRestoreSubscription", within: 20)
        sender.sendMessage("after", toChannel: channel)
        let received = try await recorder.next(.delegate, "didReceiveMessage", within: 10)
        #expect(received.message?.message as? String == "after")
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willDisconnectWithError", "didDisconnectWithError", "willConnect", "didConnect",
                "willRestoreSubscription", "didRestoreSubscription", "didReceiveMessage",
            ]
        )
        // The restore is a handshake (the dropped long-poll, logged after `before` too, carries the old token).
        #expect(Self.subscribes(origin).dropFirst(before).contains { Self.token($0) == "0" })
        sender.disconnect()
        client.disconnect()
    }

    @Test func lossWithResubscribeDisabledUnsubscribesLocallyWithoutTraffic() async throws {
        // S-23: after did-connect the app hears did-unsubscribe; no will-restore, no leave, no subscribe.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder) {
            $0.resubscribeOnConnectionRestore = false
        }
        let channel = PNChannel.channelWithName(Client.unique("no-resubscribe"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        let mark = recorder.names(.delegate).count
        try origin.inject(.refuseConnections(dropExisting: true))
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        let before = Self.subscribes(origin).count
        try origin.clearFaults()
        let unsubscribed = try await recorder.next(.delegate, "didUnsubscribe", within: 15)
        #expect(unsubscribed.channels == [channel])
        // A request after it proves the client is usable and that nothing else went out in between.
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willDisconnectWithError", "didDisconnectWithError", "willConnect", "didConnect", "didUnsubscribe",
                "didReceiveTimeToken",
            ]
        )
        #expect(Self.subscribes(origin).count == before)
        #expect(origin.requestLog.filter { $0.target.contains("/leave") }.isEmpty)
        #expect(client.subscribedChannels().isEmpty)
        client.disconnect()
    }

    @Test func lossWithReconnectRefusedEndsDisconnectedAndDoesNotRestoreLater() async throws {
        // S-24: the delegate says no; nothing happens when the origin returns; a new connect restores nothing.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        recorder.reconnectAnswer.set(NSNumber(value: false))
        let client = try await Self.connected(to: origin, recorder: recorder)
        let channel = PNChannel.channelWithName(Client.unique("no-reconnect"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        let mark = recorder.names(.delegate).count
        try origin.inject(.refuseConnections(dropExisting: true))
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        try origin.clearFaults()
        let before = Self.subscribes(origin).count
        client.connectWithSuccessBlock(
            { recorder.block("reconnect", $0) },
            errorBlock: { recorder.block("reconnectError", $0) }
        )
        // The client still holds the origin for unreachable (no probe since): 102 now, connect at the next probe (T4).
        let early = try await recorder.next(.block, "reconnectError", within: 10)
        #expect(early.error?.code == kPNClientConnectionFailedOnInternetFailureError)
        try await recorder.next(.delegate, "didConnect", within: 15)
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        #expect(
            Self.delegateNames(recorder, after: mark) == [
                "willDisconnectWithError", "didDisconnectWithError", "willConnect", "didConnect",
                "didReceiveTimeToken",
            ]
        )
        #expect(Self.subscribes(origin).count == before)
        #expect(client.subscribedChannels().isEmpty)
        client.disconnect()
    }

    @Test func aFlappingNetworkGivesOneSequencePerDetectedLossAndOneLongPollAfterwards() async throws {
        // S-25: three drops in quick succession; never two restores at once; one long-poll at the end.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let senderLog = EventRecorder()
        let sender = try await Self.connected(to: origin, recorder: senderLog, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("flap"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try await eventually("origin.counters.parkedPolls >= 1") { origin.counters.parkedPolls >= 1 }
        for round in 1...3 {
            // Down until the client notices, then straight back up: the next drop may hit a reconnect or a restore.
            try origin.inject(.refuseConnections(dropExisting: true))
            // A drop while reconnecting may go unreported (flapping adds no events), so this wait may run out.
            try? await eventually("recorder.all(.delegate, \"willDisconnectWithError\").count >= round", within: 2) {
                recorder.all(.delegate, "willDisconnectWithError").count >= round
            }
            try origin.clearFaults()
        }
        // Settle: connected, the last restore finished, one long-poll parked.
        try await eventually("connected, restored and one parked long-poll", within: 20) {
            let restores = recorder.names(.delegate).filter { $0.hasSuffix("RestoreSubscription") }
            return client.isConnected() && restores.last == "didRestoreSubscription" && origin.counters.parkedPolls == 1
        }
        sender.sendMessage("after the flap", toChannel: channel)
        let received = try await recorder.next(.delegate, "didReceiveMessage", within: 10)
        #expect(received.message?.message as? String == "after the flap")
        let names = recorder.names(.delegate)
        let losses = names.filter { $0 == "willDisconnectWithError" }.count
        #expect((1...3).contains(losses))
        #expect(names.filter { $0 == "didDisconnectWithError" }.count == losses)
        #expect(names.filter { $0 == "didConnect" }.count <= losses + 1)  // the first connect, then one per loss
        // Restores never overlap: a will-restore ends with its did-restore, or with a loss that abandons it, before
        // the next will-restore; a loss produces one will/did-disconnect pair, never two in a row.
        var restoring = false
        var previous = ""
        for name in names {
            switch name {
            case "willRestoreSubscription":
                #expect(!restoring)
                restoring = true
            case "didRestoreSubscription":
                #expect(restoring)
                restoring = false
            case "willDisconnectWithError":
                #expect(previous != "willDisconnectWithError" && previous != "didDisconnectWithError")
                restoring = false
            default:
                break
            }
            previous = name
        }
        #expect(!restoring)
        #expect(recorder.all(.delegate, "didReceiveMessage").count == 1)
        // The poll after the message, and only it.
        try await eventually("one parked long-poll") { origin.counters.parkedPolls == 1 }
        sender.disconnect()
        client.disconnect()
    }

    @Test func aPublishInFlightWhenTheNetworkDropsFailsOnceWith104AndIsNeverResent() async throws {
        // S-27: written, unanswered; the drop fails it with 104 by the will-disconnect; one publish reached the origin.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        // The publish's timeout is raised to 120 s, so that only the drop can end it: a loaded run that starved the
        // test for 10 s between the write and the drop saw it time out (106) first.
        let client = try await Self.connected(to: origin, recorder: recorder) { $0.nonSubscriptionRequestTimeout = 120 }
        let published = Locked(0)
        origin.addRequestObserver { entry in
            if entry.target.hasPrefix("/publish/") { published.withLock { $0 += 1 } }
        }
        try origin.inject(.neverAnswer, on: .operation(.publish))
        let channel = PNChannel.channelWithName(Client.unique("in-flight"))
        let mark = recorder.names(.delegate).count
        client.sendMessage("once", toChannel: channel) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        try await recorder.next(.delegate, "willSendMessage", within: 10)
        try await eventually("origin.faultCounters.unanswered >= 1") { origin.faultCounters.unanswered >= 1 }
        try origin.inject(.refuseConnections(dropExisting: true))
        let failed = try await recorder.next(
            .block,
            "publish.\(PNMessageState.PNMessageSendingError.rawValue)",
            within: 15
        )
        #expect(failed.error?.code == kPNRequestExecutionFailedOnInternetFailureError)
        try await recorder.next(.delegate, "didDisconnectWithError", within: 15)
        try origin.clearFaults()
        try await recorder.next(.delegate, "didConnect", within: 15)
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        let names = Self.delegateNames(recorder, after: mark)
        #expect(names.filter { $0 == "messageSendDidFail" }.count == 1)
        let failIndex = try #require(names.firstIndex(of: "messageSendDidFail"))
        let willIndex = try #require(names.firstIndex(of: "willDisconnectWithError"))
        #expect(failIndex < willIndex)
        #expect(recorder.all(.block, "publish.\(PNMessageState.PNMessageSendingError.rawValue)").count == 1)
        #expect(recorder.all(.block, "publish.\(PNMessageState.PNMessageSent.rawValue)").isEmpty)
        // The publish was swallowed by the fault and its connection dropped, so the origin never logged it: any
        // publish it logs is a re-send (it would precede the time request, which queues behind it).
        #expect(published.current == 0)
        #expect(origin.requestLog.filter { $0.target.hasPrefix("/publish/") }.isEmpty)
        client.disconnect()
    }

    // MARK: - Helpers

}

extension OriginFault {
    /// Whether this is the connection-refusing fault.
    var isRefusal: Bool {
        if case .refuseConnections = self { return true }
        return false
    }
}
