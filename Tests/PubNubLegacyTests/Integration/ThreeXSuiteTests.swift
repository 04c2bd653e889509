import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// Public-API behaviours that PubNub's own 3.x test suites assert (the SenTestingKit suites of pubnub/objective-c
/// v3.5.x and a few v3.7.x regression tests), written anew against LocalOrigin where no other test covered them. The
/// assertions of those suites that encode a rule of a later 3.x or of the service of their day are listed in
/// MIGRATION.md §10 instead, with the 3.4.2 rule that holds here.
@Suite struct ThreeXSuiteTests {
    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    /// v3.7.10.3 `ConnectDisconnectTest`: `disconnect`, `setConfiguration:` and `connectWithSuccessBlock:errorBlock:`
    /// called again and again without waiting: every connect calls its success block once, none its error block.
    @Test func repeatedDisconnectReconfigureConnectCallsEverySuccessBlockOnce() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub(configuration: nil, delegate: recorder, eventSinks: [recorder])
        let configuration = PNConfiguration.testing(origin: origin.address)
        let rounds = 5
        for round in 0..<rounds {
            client.disconnect()
            client.setConfiguration(configuration)
            client.connectWithSuccessBlock(
                { _ in recorder.block("connected \(round)") },
                errorBlock: { recorder.block("failed \(round)", $0) }
            )
        }
        try await recorder.waitForCount(1, .block, "connected \(rounds - 1)", within: 20)
        #expect(recorder.names(.block) == (0..<rounds).map { "connected \($0)" })
        #expect(client.isConnected())
        client.disconnect()
    }

    /// v3.7.3 `PNSubscribeUnsubscribeChannelsTest`: overlapping subscribes add up, unsubscribing everything leaves
    /// nothing, and unsubscribing a channel no longer subscribed still completes without an error.
    @Test func overlappingSubscribesAddUpAndUnsubscribingTwiceCompletes() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder)
        let names = ["a", "b", "c", "d"].map { Self.unique($0) }
        let channels = PNChannel.channelsWithNames(names)
        client.subscribeOnChannels(Array(channels[0...2])) { state, _, error in
            recorder.block("subscribe 1", (state, error))
        }
        client.subscribeOnChannels([channels[0], channels[1], channels[3]]) { state, _, error in
            recorder.block("subscribe 2", (state, error))
        }
        try await recorder.next(.block, "subscribe 2", within: 15)
        #expect(Set(client.subscribedChannels().map(\.name)) == Set(names))
        client.unsubscribeFromChannels(channels) { _, error in recorder.block("unsubscribe all", error) }
        let all = try await recorder.next(.block, "unsubscribe all", within: 15)
        #expect(all.error == nil)
        #expect(client.subscribedChannels().isEmpty)
        client.unsubscribeFromChannels([channels[0]]) { _, error in recorder.block("unsubscribe again", error) }
        let again = try await recorder.next(.block, "unsubscribe again", within: 15)
        #expect(again.error == nil)
        #expect(client.subscribedChannels().isEmpty)
        client.disconnect()
    }

    /// v3.7.5 `MessageToUnsubChannelTest` and v3.7.7 `ChaosSubscribeUnsubscribeTest`: right after `connect`,
    /// subscribe to channels, then publish to each and unsubscribe from it in turn, without waiting: every publish
    /// is sent, every unsubscribe completes, nothing fails.
    @Test func publishingAndUnsubscribingInTurnAfterConnectLosesNothing() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: origin.address),
            delegate: recorder,
            eventSinks: [recorder]
        )
        let channels = PNChannel.channelsWithNames((1...10).map { Self.unique("turn\($0)") })
        client.connect()
        client.subscribeOnChannels(channels)
        for channel in channels {
            client.sendMessage("Hello \(channel.name)", toChannel: channel)
            client.unsubscribeFromChannels([channel])
        }
        try await recorder.waitForCount(channels.count, .delegate, "didUnsubscribe", within: 30)
        try await recorder.waitForCount(channels.count, .delegate, "didSendMessage", within: 30)
        let failures = recorder.names(.delegate).filter { $0.hasSuffix("DidFail") || $0 == "error" }
        #expect(failures.isEmpty)
        #expect(
            recorder.all(.delegate, "didSendMessage").compactMap { $0.message?.channel?.name } == channels.map(\.name)
        )
        #expect(client.subscribedChannels().isEmpty)
        client.disconnect()
    }

    /// 3.5's `OversizedJSON`: a dictionary whose values include a long JSON text in a string is published and
    /// received intact, and the connection stays up (the test counted reconnects).
    @Test func aMessageCarryingALongJSONTextRoundTripsWithoutDisturbingTheConnection() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder)
        let channel = PNChannel.channelWithName(Self.unique("oversized"))
        client.subscribeOnChannel(channel) { _, _, _ in recorder.block("subscribed") }
        try await recorder.next(.block, "subscribed")
        let buildings = (0..<40).map { index in
            #"{"expansionArea":"expansion_0\#(index)","identifier":"\#(index)","objectType":"goldVault","level":0}"#
        }
        let text =
            #"{"battleId":"B147C90E","battleBuildings":["# + buildings.joined(separator: ",")
            + #"],"battleStartTimeMs":1385168393497.332}"#
        let message: [String: Any] = [
            "channel": "private:Kanav1.10", "msg": text, "msg_data_type": "battle", "ts": 1_385_168_393_499,
        ]
        client.sendMessage(message, toChannel: channel) { state, _ in
            if state != .PNMessageSending { recorder.block("published", state) }
        }
        let published = try await recorder.next(.block, "published", within: 15)
        #expect(published.value as? PNMessageState == .PNMessageSent)
        // The echo may come before or after the publish's acknowledgement.
        try await recorder.waitForCount(1, .delegate, "didReceiveMessage", within: 15)
        let received = try #require(recorder.all(.delegate, "didReceiveMessage").first)
        let payload = try #require(received.message?.message as? [String: Any])
        #expect(payload["msg"] as? String == text)
        #expect((payload["ts"] as? NSNumber)?.int64Value == 1_385_168_393_499)
        let connectionTrouble = recorder.names(.delegate).filter {
            ["willDisconnectWithError", "didDisconnectWithError", "connectionDidFail"].contains($0)
        }
        #expect(connectionTrouble.isEmpty)
        #expect(recorder.all(.delegate, "didConnect").count == 1)
        client.disconnect()
    }

    /// 3.5's `PNChannelConstructor`: inside the subscribe block, subscribing again to the same channel (now observing
    /// presence, through the flag variant of `channelWithName`) and publishing to it works. Holds the lock of the
    /// process-wide state: the channel cache is process-wide, and the shared client's disconnect in a test beside
    /// this one purges it, after which `channelWithName` gives a new instance without the flag (a loaded whole run
    /// saw that).
    @Test(.sharedProcessState) func resubscribingWithPresenceAndPublishingFromTheSubscribeBlockWorks() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder)
        let name = Self.unique("constructor")
        client.subscribeOnChannel(PNChannel.channelWithName(name, shouldObservePresence: false)) { state, _, _ in
            guard state == .PNSubscriptionProcessSubscribedState else { return }
            client.subscribeOnChannel(PNChannel.channelWithName(name, shouldObservePresence: true))
            client.sendMessage("Hello PubNub", toChannel: PNChannel.channelWithName(name)) { state, _ in
                if state != .PNMessageSending { recorder.block("published", state) }
            }
        }
        let published = try await recorder.next(.block, "published", within: 15)
        #expect(published.value as? PNMessageState == .PNMessageSent)
        #expect(PNChannel.channelWithName(name).shouldObservePresence)
        client.disconnect()
    }

    /// v3.6.4 `SubscribeLeaveTest`: a client that subscribes channel by channel with presence observed, publishing to
    /// each, receives every message and its own join on every channel, through the delegate and the notification
    /// alike, and no leave or timeout; when it then unsubscribes channel by channel, a second client subscribed to the
    /// same channels receives its leave on every channel, through both as well.
    @Test func channelByChannelJoinsAndLeavesReachTheDelegateAndTheNotificationOncePerChannel() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder)
        let owner = Self.unique("owner")
        client.setClientIdentifier(owner)
        let notified = PresenceNotifications(client)
        defer { notified.stop() }
        let channels = (0..<4).map { PNChannel.channelWithName(Self.unique("leave\($0)"), shouldObservePresence: true) }
        for (index, channel) in channels.enumerated() {
            client.subscribeOnChannels([channel])
            client.sendMessage("text-\(index)", toChannel: channel)
        }
        try await recorder.waitForCount(channels.count, .delegate, "didReceiveMessage", within: 20)
        try await eventually("a join of \(owner) on every channel", within: 20) {
            Self.presence(recorder, .PNPresenceEventJoin, of: owner).count == channels.count
                && notified.events(.PNPresenceEventJoin, of: owner).count == channels.count
        }
        #expect(Set(Self.presence(recorder, .PNPresenceEventJoin, of: owner)) == Set(channels.map(\.name)))
        #expect(Set(notified.events(.PNPresenceEventJoin, of: owner)) == Set(channels.map(\.name)))
        let received = recorder.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message as? String }
        #expect(received.sorted() == channels.indices.map { "text-\($0)" })

        let peerLog = EventRecorder()
        let peer = try await LocalOriginClientTests.connected(to: origin, recorder: peerLog)
        peer.setClientIdentifier(Self.unique("peer"))
        let peerNotified = PresenceNotifications(peer)
        defer { peerNotified.stop() }
        peer.subscribeOnChannels(channels) { state, _, error in recorder.block("peer subscribed", (state, error)) }
        let subscribed = try await recorder.next(.block, "peer subscribed", within: 15)
        #expect((subscribed.value as? (PNSubscriptionProcessState, PNError?))?.1 == nil)
        for channel in channels {
            client.unsubscribeFromChannels([channel])
        }
        try await eventually("a leave of \(owner) on every channel, seen by the peer", within: 20) {
            Self.presence(peerLog, .PNPresenceEventLeave, of: owner).count == channels.count
                && peerNotified.events(.PNPresenceEventLeave, of: owner).count == channels.count
        }
        #expect(Set(Self.presence(peerLog, .PNPresenceEventLeave, of: owner)) == Set(channels.map(\.name)))
        #expect(Self.presence(recorder, .PNPresenceEventLeave, of: owner).isEmpty)
        for log in [recorder, peerLog] {
            let timeouts = log.all(.delegate, "didReceivePresenceEvent").filter {
                ($0.value as? PNPresenceEvent)?.type == .PNPresenceEventTimeout
            }
            #expect(timeouts.isEmpty)
        }
        client.disconnect()
        peer.disconnect()
    }

    /// The channel names of the presence events of `type` for `uuid` that reached `log`'s delegate.
    static func presence(_ log: EventRecorder, _ type: PNPresenceEventType, of uuid: String) -> [String] {
        log.all(.delegate, "didReceivePresenceEvent").compactMap { entry in
            guard let event = entry.value as? PNPresenceEvent, event.type == type, event.uuid == uuid else {
                return nil
            }
            return event.channel?.name
        }
    }
}

/// The presence events one client posts as `kPNClientDidReceivePresenceEventNotification`.
final class PresenceNotifications: Sendable {
    private let received = Locked<[PNPresenceEvent]>([])
    private let token: Locked<(any NSObjectProtocol)?>

    init(_ client: PubNub) {
        let received = self.received
        self.token = Locked(
            NotificationCenter.default.addObserver(
                forName: kPNClientDidReceivePresenceEventNotification,
                object: client,
                queue: nil
            ) { note in
                if let event = note.pnPayload as? PNPresenceEvent {
                    received.withLock { $0.append(event) }
                }
            }
        )
    }

    /// The channel names of the events of `type` for `uuid`.
    func events(_ type: PNPresenceEventType, of uuid: String) -> [String] {
        self.received.current.compactMap { event in
            event.type == type && event.uuid == uuid ? event.channel?.name : nil
        }
    }

    func stop() {
        if let token = self.token.current {
            NotificationCenter.default.removeObserver(token)
        }
    }
}
