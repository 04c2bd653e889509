import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "Non-subscribe requests": S-62, S-64, S-70 (S-61 and S-66 are in LocalOriginScenarioTests, S-65
// in ClientEngineCryptoTests; S-63, S-67, S-68, S-69 and S-71 need withheld or broken answers and are tested with
// them), plus every facade call completing each block exactly once.

extension ScenarioTests {
    @Test(
        "S-62: a publish rejected with [0,\"Message Too Large\"] fails with 110 after Sending; the error names the message"
    )
    func s62PublishServerRejection() async throws {
        // The client refuses messages past 32 KiB itself (next test), so the rejection comes from the in-memory
        // transport.
        let harness = try MatrixHarness(.fake)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        harness.answer("/publish/", status: 400, body: "[0,\"Message Too Large\",\"17000000000000300\"]")
        let failure = Locked<PNError?>(nil)
        let block = ledger.send("publish")
        let start = harness.mark
        let message = harness.client.sendMessage(["k": 1], toChannel: harness.channel) { state, data in
            if state == .PNMessageSendingError { failure.set(data as? PNError) }
            block(state, data)
        }
        try await harness.check(
            [Self.willSend, EventMatrixTests.sendFailed(code: kPNTooLongMessageError)],
            from: start
        )
        let error = try #require(failure.current)
        #expect(error.code == kPNTooLongMessageError)
        #expect(error.associatedObject as? PNMessage === message)
        ledger.verify()
    }

    @Test("S-62: a message past 32 KiB fails with 110 before anything is sent")
    func s62OversizedPublishFailsBeforeSending() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let start = harness.mark
        let sentBefore = harness.traffic.count
        _ = harness.client.sendMessage(
            String(repeating: "x", count: 33 * 1024),
            toChannel: harness.channel,
            withCompletionBlock: ledger.send("publish")
        )
        try await harness.check([EventMatrixTests.sendFailed(code: kPNTooLongMessageError)], from: start)
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        ledger.verify()
    }

    @Test("S-64: an empty publish fails with 122 at once and nothing reaches the origin")
    func s64EmptyPublish() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let start = harness.mark
        let sentBefore = harness.traffic.count
        _ = harness.client.sendMessage("   ", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        // Connected, so the gate is open: the delegate hears it too (docs/API-3.4.md §3.3).
        try await harness.check([EventMatrixTests.sendFailed(code: kPNMessageHasNoContentError)], from: start)
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        #expect(harness.origin?.requestLog.contains { $0.target.hasPrefix("/publish/") } == false)
        ledger.verify()
    }

    @Test("S-70: all four push calls with an empty device token fail with 125 at once and send nothing")
    func s70PushWithEmptyToken() async throws {
        // The Swift API takes `Data`, so 3.4's nil token is the empty one.
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let start = harness.mark
        let sentBefore = harness.traffic.count
        let client = harness.client
        client.enablePushNotificationsOnChannel(
            harness.channel,
            withDevicePushToken: Data(),
            andCompletionHandlingBlock: ledger.channels("enable", label: "pushEnable")
        )
        client.disablePushNotificationsOnChannel(
            harness.channel,
            withDevicePushToken: Data(),
            andCompletionHandlingBlock: ledger.channels("disable", label: "pushDisable")
        )
        client.removeAllPushNotificationsForDevicePushToken(
            Data(),
            withCompletionHandlingBlock: ledger.pushRemove("remove")
        )
        client.requestPushNotificationEnabledChannelsForDevicePushToken(
            Data(),
            withCompletionHandlingBlock: ledger.pushList("list")
        )
        let code = kPNDevicePushTokenIsEmptyError
        try await harness.check(
            [
                Row(
                    event: "push enable",
                    delegate: "pushNotificationEnableDidFail",
                    observer: "pushEnable:error",
                    notification: kPNClientPushNotificationEnableDidFailNotification,
                    block: "pushEnable",
                    code: code
                ),
                Row(
                    event: "push disable",
                    delegate: "pushNotificationDisableDidFail",
                    observer: "pushDisable:error",
                    notification: kPNClientPushNotificationDisableDidFailNotification,
                    block: "pushDisable",
                    code: code
                ),
                Row(
                    event: "push remove",
                    delegate: "pushNotificationRemoveDidFail",
                    observer: "pushRemove:error",
                    notification: kPNClientPushNotificationRemoveDidFailNotification,
                    block: "pushRemove",
                    code: code
                ),
                Row(
                    event: "push list",
                    delegate: "pushNotificationEnabledChannelsDidFail",
                    observer: "pushList:error",
                    notification: kPNClientPushNotificationChannelsRetrieveDidFailNotification,
                    block: "pushList",
                    code: code
                ),
            ],
            from: start
        )
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        ledger.verify()
    }

    @Test("Every facade call with a block completes it exactly once, and nothing fires again afterwards")
    func everyBlockCompletesExactlyOnce() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let client = harness.client
        let channel = PNChannel.channelWithName(Self.unique("once"))
        let token = Data((0..<32).map { UInt8($0) })
        // Before connect (105, block only), then the whole API once connected, then after disconnect (105 again).
        client.requestServerTimeTokenWithCompletionBlock(ledger.time("time before connect"))
        let (success, failure) = ledger.connect("connect")
        client.connectWithSuccessBlock(success, errorBlock: failure)
        client.subscribeOnChannel(channel, withCompletionHandlingBlock: ledger.subscribe("subscribe"))
        client.enablePresenceObservationForChannel(
            channel,
            withCompletionHandlingBlock: ledger.channels("enable presence", label: "presenceEnable")
        )
        _ = client.sendMessage("one", toChannel: channel, withCompletionBlock: ledger.send("publish"))
        _ = client.sendMessage("", toChannel: channel, withCompletionBlock: ledger.send("empty publish"))
        client.requestServerTimeTokenWithCompletionBlock(ledger.time("time"))
        client.requestFullHistoryForChannel(channel, withCompletionBlock: ledger.history("history"))
        client.requestParticipantsListForChannel(channel, withCompletionBlock: ledger.participants("here now"))
        client.enablePushNotificationsOnChannel(
            channel,
            withDevicePushToken: token,
            andCompletionHandlingBlock: ledger.channels("push enable", label: "pushEnable")
        )
        client.requestPushNotificationEnabledChannelsForDevicePushToken(
            token,
            withCompletionHandlingBlock: ledger.pushList("push list")
        )
        client.disablePushNotificationsOnChannel(
            channel,
            withDevicePushToken: token,
            andCompletionHandlingBlock: ledger.channels("push disable", label: "pushDisable")
        )
        client.removeAllPushNotificationsForDevicePushToken(
            token,
            withCompletionHandlingBlock: ledger.pushRemove("remove")
        )
        client.disablePresenceObservationForChannel(
            channel,
            withCompletionHandlingBlock: ledger.channels("disable presence", label: "presenceDisable")
        )
        client.unsubscribeFromChannel(
            channel,
            withCompletionHandlingBlock: ledger.channels("unsubscribe", label: "unsubscribe")
        )
        client.requestServerTimeTokenWithCompletionBlock(ledger.time("last time"))
        try await ledger.waitFor("last time")
        client.disconnect()
        client.requestServerTimeTokenWithCompletionBlock(ledger.time("time after disconnect"))
        try await ledger.waitFor("time after disconnect")
        // Late duplicates would land behind a later delivery: one more round trip on a fresh connection.
        let (again, againFailure) = ledger.connect("reconnect")
        client.connectWithSuccessBlock(again, errorBlock: againFailure)
        client.requestServerTimeTokenWithCompletionBlock(ledger.time("settle"))
        try await ledger.waitFor("settle")
        client.engine.flush()
        ledger.verify()
        let blocks = harness.recorder.entries.filter { $0.channel == .block }.map(\.label)
        #expect(blocks.filter { $0.hasPrefix("send:") } == ["send:0", "send:1", "send:2"])
        #expect(blocks.count == 20)
    }
}
