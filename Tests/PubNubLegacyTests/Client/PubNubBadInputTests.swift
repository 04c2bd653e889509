import Foundation
import Testing

@testable import PubNubLegacy

/// The bad-input table: each input gets its `PNError` through the block (and the delegate where the gate is
/// open), asynchronously, and nothing reaches the origin.
@Suite struct PubNubBadInputTests {
    /// One row: what to call, the block name it reports to, the expected code, and whether the delegate hears it.
    struct Row: Sendable, CustomStringConvertible {
        let description: String
        let code: Int
        let delegate: String?
        let call: @Sendable (PubNub, EventRecorder) -> Void
    }

    static let empty = PNChannel.channelWithName("")
    static let comma = PNChannel.channelWithName("a,b")
    static let slash = PNChannel.channelWithName("a/b")
    static let fine = PNChannel.channelWithName("fine")
    static let token = Data([0xAB, 0xCD])

    static let rows: [Row] = [
        Row(description: "subscribe empty name", code: 111, delegate: "subscriptionDidFail") { client, recorder in
            client.subscribeOnChannel(empty) { _, _, error in recorder.block("done", error) }
        },
        Row(description: "subscribe ',' name", code: 111, delegate: "subscriptionDidFail") { client, recorder in
            client.subscribeOnChannels([fine, comma]) { _, _, error in recorder.block("done", error) }
        },
        Row(description: "unsubscribe '/' name", code: 111, delegate: "unsubscriptionDidFail") { client, recorder in
            client.unsubscribeFromChannel(slash) { _, error in recorder.block("done", error) }
        },
        Row(description: "enable presence '/' name", code: 111, delegate: "presenceObservationEnablingDidFail") {
            client,
            recorder in
            client.enablePresenceObservationForChannel(slash) { _, error in recorder.block("done", error) }
        },
        Row(description: "disable presence empty", code: 111, delegate: "presenceObservationDisablingDidFail") {
            client,
            recorder in
            client.disablePresenceObservationForChannel(empty) { _, error in recorder.block("done", error) }
        },
        Row(description: "history ',' name", code: 111, delegate: "historyDownloadDidFail") { client, recorder in
            client.requestFullHistoryForChannel(comma) { _, _, _, _, error in recorder.block("done", error) }
        },
        Row(description: "here-now '/' name", code: 111, delegate: "participantsListDownloadDidFail") {
            client,
            recorder in
            client.requestParticipantsListForChannel(slash) { _, _, error in recorder.block("done", error) }
        },
        Row(description: "publish to ',' name", code: 111, delegate: "messageSendDidFail") { client, recorder in
            client.sendMessage("x", toChannel: comma) { _, value in recorder.block("done", value) }
        },
        Row(description: "empty message", code: 122, delegate: "messageSendDidFail") { client, recorder in
            client.sendMessage("", toChannel: fine) { _, value in recorder.block("done", value) }
        },
        Row(description: "blank message", code: 122, delegate: "messageSendDidFail") { client, recorder in
            client.sendMessage("   ", toChannel: fine) { _, value in recorder.block("done", value) }
        },
        Row(description: "not JSON-serializable", code: 121, delegate: "messageSendDidFail") { client, recorder in
            client.sendMessage(["when": Date()], toChannel: fine) { _, value in recorder.block("done", value) }
        },
        Row(description: "message over 32 KiB", code: 110, delegate: "messageSendDidFail") { client, recorder in
            let big = String(repeating: "x", count: 33 * 1024)
            client.sendMessage(big, toChannel: fine) { state, value in
                if state == .PNMessageSendingError { recorder.block("done", value) }
            }
        },
        Row(description: "push enable empty token", code: 125, delegate: "pushNotificationEnableDidFail") {
            client,
            recorder in
            client.enablePushNotificationsOnChannel(fine, withDevicePushToken: Data()) { _, error in
                recorder.block("done", error)
            }
        },
        Row(description: "push disable empty token", code: 125, delegate: "pushNotificationDisableDidFail") {
            client,
            recorder in
            client.disablePushNotificationsOnChannels([fine], withDevicePushToken: Data()) { _, error in
                recorder.block("done", error)
            }
        },
        Row(description: "push remove empty token", code: 125, delegate: "pushNotificationRemoveDidFail") {
            client,
            recorder in
            client.removeAllPushNotificationsForDevicePushToken(Data()) { error in recorder.block("done", error) }
        },
        Row(description: "push list empty token", code: 125, delegate: "pushNotificationEnabledChannelsDidFail") {
            client,
            recorder in
            client.requestPushNotificationEnabledChannelsForDevicePushToken(Data()) { _, error in
                recorder.block("done", error)
            }
        },
        Row(description: "connect while connected", code: 101, delegate: "connectionDidFail") { client, recorder in
            client.connectWithSuccessBlock(nil) { error in recorder.block("done", error) }
        },
    ]

    @Test(arguments: rows)
    func badInputFailsWithItsCodeAndSendsNothing(row: Row) async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let sentBefore = transport.targets.filter { !$0.hasPrefix("/time/") }.count
        row.call(client, recorder)
        let done = try await recorder.next(.block, "done")
        #expect(done.error?.code == row.code)
        if let delegate = row.delegate {
            let heard = recorder.all(.delegate, delegate)
            #expect(heard.count == 1)
            #expect(heard.first?.error === done.error)
        } else {
            #expect(recorder.all(.delegate, "connectionDidFail").isEmpty)
        }
        // A call made after the bad one still runs: nothing broke.
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("after", error) }
        let after = try await recorder.next(.block, "after")
        #expect(after.error == nil)
        #expect(transport.targets.filter { !$0.hasPrefix("/time/") }.count == sentBefore)
    }

    @Test func callsBeforeConnectAndAfterDisconnectFailWith105() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport
        )
        client.unsubscribeFromChannel(Self.fine) { _, error in recorder.block("before", error) }
        let before = try await recorder.next(.block, "before")
        #expect(before.error?.code == kPNRequestExecutionFailedClientNotReadyError)
        client.connect()
        try await recorder.next(.delegate, "didConnect")
        client.disconnect()
        try await recorder.next(.delegate, "didDisconnect")
        client.subscribeOnChannel(Self.fine) { _, _, error in recorder.block("after", error) }
        client.requestParticipantsListForChannel(Self.fine) { _, _, error in recorder.block("hereNow", error) }
        let after = try await recorder.next(.block, "after")
        #expect(after.error?.code == kPNRequestExecutionFailedClientNotReadyError)
        let hereNow = try await recorder.next(.block, "hereNow")
        #expect(hereNow.error?.code == kPNRequestExecutionFailedClientNotReadyError)
        #expect(recorder.all(.delegate, "subscriptionDidFail").isEmpty)
        #expect(transport.targets.allSatisfy { $0.hasPrefix("/time/") })
    }

    @Test func historyBoundsInTheWrongOrderAreSwapped() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        client.requestHistoryForChannel(
            Self.fine,
            from: PNDate(timeToken: 300),
            to: PNDate(timeToken: 100),
            limit: 0,
            reverseHistory: false
        ) { messages, _, _, _, _ in recorder.block("history", messages) }
        try await recorder.next(.block, "history")
        let request = try #require(transport.targets.first { $0.hasPrefix("/v2/history/") })
        #expect(request.contains("?start=100&end=300&count=100&reverse=false&"))
    }
}
