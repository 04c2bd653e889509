import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

/// The facade against an in-process LocalOrigin: success and failure paths through the delegate and the blocks,
/// the docs/BEHAVIOR.md §9 scenarios that need no injected network fault, and two clients talking to each other.
@Suite struct LocalOriginClientTests {
    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    /// A connected client on `origin` that reports to `recorder`.
    static func connected(
        to origin: LocalOrigin,
        recorder: EventRecorder,
        configure: (PNConfiguration) -> Void = { _ in }
    ) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: origin.address)
        configure(configuration)
        let client = PubNub(configuration: configuration, delegate: recorder, eventSinks: [recorder])
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        try await recorder.next(.block, "connect")
        return client
    }

    @Test func delegateOrderForConnectSubscribePublishReceivePresenceUnsubscribeDisconnect() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let name = Self.unique("order")
        let channel = PNChannel.channelWithName(name, shouldObservePresence: true)
        client.subscribeOnChannel(channel) { state, _, _ in recorder.block("subscribe", state) }
        try await recorder.next(.block, "subscribe")
        client.sendMessage(["text": "hi"], toChannel: channel) { state, _ in recorder.block("publish.\(state.rawValue)")
        }
        try await recorder.next(.block, "publish.1")
        // The echo of the publish may arrive before or after the publish's own acknowledgement.
        try await recorder.waitForCount(1, .delegate, "didReceiveMessage")
        let other = EventRecorder()
        let peer = try await Self.connected(to: origin, recorder: other)
        peer.setClientIdentifier("peer-uuid")
        peer.subscribeOnChannel(PNChannel.channelWithName(name))
        var join: PNPresenceEvent?
        while join?.uuid != "peer-uuid" {
            join = try await recorder.next(.delegate, "didReceivePresenceEvent").value as? PNPresenceEvent
        }
        #expect(join?.type == .PNPresenceEventJoin)
        client.unsubscribeFromChannel(channel) { _, _ in recorder.block("unsubscribe") }
        try await recorder.next(.block, "unsubscribe")
        client.disconnect()
        try await recorder.next(.delegate, "didDisconnect")
        // The sink runs right after the delegate in the same delivery step; wait for it so the snapshot below never
        // ends between the two.
        try await recorder.next(.sink, "didDisconnect")
        peer.disconnect()
        let delegateOrder = recorder.names(.delegate).filter {
            $0 != "didReceivePresenceEvent" && $0 != "didReceiveMessage"
        }
        #expect(
            delegateOrder == [
                "willConnect", "didConnect", "didSubscribe", "willSendMessage", "didSendMessage", "didUnsubscribe",
                "didDisconnect",
            ]
        )
        let names = recorder.names(.delegate)
        let received = try #require(names.firstIndex(of: "didReceiveMessage"))
        #expect(received > (names.firstIndex(of: "willSendMessage") ?? names.count))
        #expect(received < (names.firstIndex(of: "didUnsubscribe") ?? -1))
        #expect(recorder.all(.delegate, "didReceiveMessage").count == 1)
        // Every event reaches the delegate, then the sink, then (when it completes a call) the block.
        let sequence = recorder.entries.map(\.description)
        for (index, entry) in sequence.enumerated() where entry.hasPrefix("delegate:") {
            let following = sequence.indices.contains(index + 1) ? sequence[index + 1] : "nothing"
            #expect(following == "sink:" + entry.dropFirst("delegate:".count))
        }
    }

    @Test func twoClientsTalkToEachOther() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let aliceLog = EventRecorder()
        let bobLog = EventRecorder()
        let alice = try await Self.connected(to: origin, recorder: aliceLog)
        let bob = try await Self.connected(to: origin, recorder: bobLog)
        let name = Self.unique("chat")
        alice.subscribeOnChannel(PNChannel.channelWithName(name))
        bob.subscribeOnChannel(PNChannel.channelWithName(name))
        try await aliceLog.next(.delegate, "didSubscribe")
        try await bobLog.next(.delegate, "didSubscribe")
        alice.sendMessage("hello bob", toChannel: PNChannel.channelWithName(name))
        bob.sendMessage(["reply": "hello alice", "n": 2], toChannel: PNChannel.channelWithName(name))
        try await aliceLog.waitForCount(2, .delegate, "didReceiveMessage")
        try await bobLog.waitForCount(2, .delegate, "didReceiveMessage")
        let bobSaw = bobLog.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message }
        #expect(bobSaw.contains { ($0 as? String) == "hello bob" })
        let aliceSaw = aliceLog.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message }
        #expect(aliceSaw.contains { ($0 as? [String: Any])?["reply"] as? String == "hello alice" })
        alice.disconnect()
        bob.disconnect()
        try await aliceLog.next(.delegate, "didDisconnect")
        try await bobLog.next(.delegate, "didDisconnect")
    }

    @Test func historyReturnsPublishedMessagesOldestFirst() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let channel = PNChannel.channelWithName(Self.unique("history"))
        for index in 1...3 {
            client.sendMessage(index, toChannel: channel)
        }
        client.requestHistoryForChannel(channel, from: nil, limit: 2) { messages, historyChannel, start, end, error in
            recorder.block("history", (messages, historyChannel, start, end, error))
        }
        let entry = try await recorder.next(.block, "history")
        let (messages, historyChannel, start, end, error) = try #require(
            entry.value as? ([PNMessage]?, PNChannel?, PNDate?, PNDate?, PNError?)
        )
        #expect(error == nil)
        #expect(historyChannel == channel)
        #expect(messages?.compactMap { ($0.message as? NSNumber)?.intValue } == [2, 3])
        #expect(messages?.allSatisfy { $0.channel == channel && $0.receiveDate == nil } == true)
        #expect((start?.timeTokenValue ?? 0) <= (end?.timeTokenValue ?? 0))
        #expect(recorder.all(.delegate, "didReceiveMessageHistory").count == 1)
    }

    @Test func hereNowListsTheEscapedIdentifierExactly() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let strange = "user 1+/?ü"
        let client = try await Self.connected(to: origin, recorder: recorder) {
            $0.authorizationKey = "auth key+/?ü"
        }
        client.setClientIdentifier(strange)
        let channel = PNChannel.channelWithName(Self.unique("herenow"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.requestParticipantsListForChannel(channel) { uuids, _, error in recorder.block("hereNow", (uuids, error))
        }
        let entry = try await recorder.next(.block, "hereNow")
        let (uuids, error) = try #require(entry.value as? ([String]?, PNError?))
        #expect(error == nil)
        #expect(uuids == [strange])
        #expect(channel.participants == [strange])
        #expect(channel.participantsCount == 1)
        #expect(client.clientIdentifier() == strange)
    }

    @Test func timeTokenComesFromTheOrigin() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        client.requestServerTimeTokenWithCompletionBlock { token, error in recorder.block("time", (token, error)) }
        let entry = try await recorder.next(.block, "time")
        let (token, error) = try #require(entry.value as? (NSNumber?, PNError?))
        #expect(error == nil)
        #expect((token?.uint64Value ?? 0) > 15_000_000_000_000_000)
        #expect(recorder.all(.delegate, "didReceiveTimeToken").count == 1)
    }

    @Test func pushRegistrationsRoundTrip() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, recorder: recorder)
        let token = Data((0..<32).map { UInt8($0) })
        let channels = PNChannel.channelsWithNames([Self.unique("p1"), Self.unique("p2")])
        client.enablePushNotificationsOnChannels(channels, withDevicePushToken: token) { list, error in
            recorder.block("enable", (list, error))
        }
        client.requestPushNotificationEnabledChannelsForDevicePushToken(token) { list, error in
            recorder.block("list", (list, error))
        }
        client.disablePushNotificationsOnChannel(channels[0], withDevicePushToken: token) { list, error in
            recorder.block("disable", (list, error))
        }
        client.requestPushNotificationEnabledChannelsForDevicePushToken(token) { list, error in
            recorder.block("list2", (list, error))
        }
        client.removeAllPushNotificationsForDevicePushToken(token) { error in recorder.block("remove", error) }
        client.requestPushNotificationEnabledChannelsForDevicePushToken(token) { list, error in
            recorder.block("list3", (list, error))
        }
        let listed: (EventRecorder.Entry) -> [String] = { entry in
            let pair = entry.value as? ([PNChannel]?, PNError?)
            return (pair?.0).flatMap { $0 }?.map(\.name) ?? []
        }
        let list = try await recorder.next(.block, "list")
        #expect(Set(listed(list)) == Set(channels.map(\.name)))
        let list2 = try await recorder.next(.block, "list2")
        #expect(listed(list2) == [channels[1].name])
        let remove = try await recorder.next(.block, "remove")
        #expect(remove.value == nil)
        let list3 = try await recorder.next(.block, "list3")
        #expect(listed(list3).isEmpty)
        #expect(
            recorder.names(.delegate).filter { $0.contains("Push") } == [
                "didEnablePushNotifications", "didReceivePushNotificationEnabledChannels",
                "didDisablePushNotifications", "didReceivePushNotificationEnabledChannels",
                "didRemovePushNotifications", "didReceivePushNotificationEnabledChannels",
            ]
        )
    }

    @Test func connectToAnOriginThatIsGoneFailsWith102() async throws {
        let refusing = try #require(RefusingPort())
        let address = refusing.address
        let recorder = EventRecorder()
        let client = PubNub(configuration: .testing(origin: address), delegate: recorder, eventSinks: [recorder])
        client.connectWithSuccessBlock(nil) { recorder.block("connectError", $0) }
        let failure = try await recorder.next(.block, "connectError", within: 15)
        #expect(failure.error?.code == kPNClientConnectionFailedOnInternetFailureError)
        client.sendMessage("x", toChannel: PNChannel.channelWithName("gone")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let publish = try await recorder.next(.block, "publish.2")
        #expect((publish.value as? PNError)?.code == kPNRequestExecutionFailedOnInternetFailureError)
        client.disconnect()
        withExtendedLifetime(refusing) {}
    }
}
