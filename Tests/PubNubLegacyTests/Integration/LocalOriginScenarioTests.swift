import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

/// docs/BEHAVIOR.md §9 scenarios that need no injected network fault, end to end against LocalOrigin.
@Suite struct LocalOriginScenarioTests {
    typealias Client = LocalOriginClientTests

    /// Targets the origin answered, in answer order.
    static func targets(_ origin: LocalOrigin, containing fragment: String) -> [String] {
        origin.requestLog.map(\.target).filter { $0.contains(fragment) }
    }

    @Test func addingAChannelKeepsDeliveringTheFirstOne() async throws {
        // S-35: no leave, handshake for both, then the previous token; a message sent during the switch arrives.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let listener = EventRecorder()
        let publisher = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: listener)
        let sender = try await Client.connected(to: origin, recorder: publisher)
        let a = PNChannel.channelWithName(Client.unique("a"))
        let b = PNChannel.channelWithName(Client.unique("b"))
        client.subscribeOnChannel(a)
        try await listener.next(.delegate, "didSubscribe")
        sender.sendMessage("during switch", toChannel: a)
        client.subscribeOnChannel(b)
        let added = try await listener.next(.delegate, "didSubscribe")
        #expect(added.channels == [a, b])  // 3.4.2: the whole subscribed set
        sender.sendMessage("on b", toChannel: b)
        try await listener.waitForCount(2, .delegate, "didReceiveMessage")
        let received = listener.all(.delegate, "didReceiveMessage").compactMap { $0.message }
        #expect(received.map { $0.message as? String } == ["during switch", "on b"])
        #expect(Self.targets(origin, containing: "/leave").isEmpty)
        client.disconnect()
        sender.disconnect()
    }

    @Test func presenceEventsFromAnotherClientUpdateTheChannel() async throws {
        // S-47 with a real peer: join, then leave on unsubscribe.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let watcher = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: watcher)
        let name = Client.unique("room")
        let room = PNChannel.channelWithName(name, shouldObservePresence: true)
        client.subscribeOnChannel(room)
        try await watcher.next(.delegate, "didSubscribe")
        let peerLog = EventRecorder()
        let peer = try await Client.connected(to: origin, recorder: peerLog)
        peer.setClientIdentifier("visitor")
        peer.subscribeOnChannel(PNChannel.channelWithName(name))
        try await peerLog.next(.delegate, "didSubscribe")
        var joined: PNPresenceEvent?
        while joined?.uuid != "visitor" {
            joined = try await watcher.next(.delegate, "didReceivePresenceEvent").value as? PNPresenceEvent
        }
        #expect(joined?.type == .PNPresenceEventJoin)
        #expect(joined?.channel?.name == name)
        #expect(room.participants.contains("visitor"))
        // The peer leaves once its second long-poll waits at the origin (two parked: the watcher's and the peer's).
        // Its first poll, written when its handshake was answered, could otherwise reach the origin after the leave,
        // which travels on another connection, and join the peer again: every subscribe joins, as PubNub's does, and
        // no client can order two connections at the origin (docs/BEHAVIOR.md §3.6). Seen in loaded ThreadSanitizer
        // runs, 7 in 520: join, leave, join.
        try await eventually("both long-polls parked; counters: \(origin.counters)") {
            origin.counters.parkedPolls == 2
        }
        peer.unsubscribeFromChannel(PNChannel.channelWithName(name))
        var left: PNPresenceEvent?
        while left?.uuid != "visitor" {
            left = try await watcher.next(.delegate, "didReceivePresenceEvent").value as? PNPresenceEvent
        }
        #expect(left?.type == .PNPresenceEventLeave)
        let events = { (log: EventRecorder) in
            log.all(.delegate, "didReceivePresenceEvent").compactMap { $0.value as? PNPresenceEvent }
                .map { "\($0.type.rawValue):\($0.uuid ?? "")" }
        }
        let answered = origin.requestLog.map { "\($0.status) \($0.target.prefix(100))" }
        #expect(
            !room.participants.contains("visitor"),
            "origin answered \(answered); the watcher got \(events(watcher)), the peer \(events(peerLog))"
        )
        client.disconnect()
        peer.disconnect()
    }

    @Test func unsubscribingASubsetKeepsTheRestFlowing() async throws {
        // S-50 / S-51: a leave for the removed channel, the other channel keeps receiving.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let listener = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: listener)
        let a = PNChannel.channelWithName(Client.unique("a"))
        let b = PNChannel.channelWithName(Client.unique("b"))
        client.subscribeOnChannels([a, b])
        try await listener.next(.delegate, "didSubscribe")
        client.unsubscribeFromChannel(a)
        try await listener.next(.delegate, "didUnsubscribe")
        client.sendMessage("still here", toChannel: b)
        let message = try await listener.next(.delegate, "didReceiveMessage")
        #expect(message.message?.channel == b)
        #expect(Self.targets(origin, containing: "/leave").count == 1)
        #expect(Self.targets(origin, containing: "/leave").first?.contains(PercentEncoding.escape(a.name)) == true)
        client.unsubscribeFromChannel(b)
        try await listener.next(.delegate, "didUnsubscribe")
        #expect(client.subscribedChannels().isEmpty)
        client.disconnect()
    }

    @Test("S-56: changing the identifier leaves and rejoins under the new one; the old one is gone")
    func changingTheIdentifierLeavesAndRejoinsUnderTheNewOne() async throws {
        // S-56: leave with the old uuid, handshake with the new one, then the publish with the new one.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: recorder)
        client.setClientIdentifier("old id")
        let channel = PNChannel.channelWithName(Client.unique("uuid"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.setClientIdentifier("new id")
        client.sendMessage("after", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block("sent") }
        }
        try await recorder.next(.delegate, "didUnsubscribe")
        try await recorder.next(.delegate, "didSubscribe")
        try await recorder.next(.block, "sent")
        let leave = try #require(Self.targets(origin, containing: "/leave").first)
        #expect(leave.contains("uuid=old%20id"))
        let handshakes = Self.targets(origin, containing: "tt=0&").filter { $0.contains("/v2/subscribe/") }
        #expect(handshakes.last?.contains("uuid=new%20id") == true)
        #expect(Self.targets(origin, containing: "/publish/").last?.contains("uuid=new%20id") == true)
        client.requestParticipantsListForChannel(channel) { uuids, _, _ in recorder.block("hereNow", uuids) }
        let hereNow = try await recorder.next(.block, "hereNow")
        // The leave goes out on the long-poll lane only after the cancelled "old id" long-poll ended there, so that
        // poll cannot reach the origin after the leave and join "old id" again: only the new identity is present.
        #expect(hereNow.value as? [String] == ["new id"])
        client.disconnect()
    }

    @Test func aNewCipherKeyAppliesToTheNextPublishWithoutReconnecting() async throws {
        // S-59, and S-45 across two clients: the peer with the same key reads it, a peer without the key cannot.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: recorder)
        let keyed = EventRecorder()
        let reader = try await Client.connected(to: origin, recorder: keyed) { $0.cipherKey = "enigma" }
        let channel = PNChannel.channelWithName(Client.unique("secret"))
        reader.subscribeOnChannel(channel)
        try await keyed.next(.delegate, "didSubscribe")
        let configuration = PNConfiguration.testing(origin: origin.address)
        configuration.cipherKey = "enigma"
        client.setConfiguration(configuration)
        client.sendMessage(["secret": 42], toChannel: channel)
        let decrypted = try await keyed.next(.delegate, "didReceiveMessage")
        #expect((decrypted.message?.message as? [String: Any])?["secret"] as? Int == 42)
        configuration.cipherKey = "other"
        client.setConfiguration(configuration)
        client.sendMessage("wrong key", toChannel: channel)
        let garbled = try await keyed.next(.delegate, "didReceiveMessage")
        #expect(garbled.message?.message as? String == "DECRYPTION_ERROR")
        #expect(recorder.all(.delegate, "willConnect").count == 1)
        #expect(recorder.all(.delegate, "didDisconnect").isEmpty)
        client.disconnect()
        reader.disconnect()
    }

    @Test func changingTheOriginMovesTheSubscriptionToTheNewOrigin() async throws {
        // S-60 between two LocalOrigins: reconnect, restore from the last token, then the publish.
        let first = try LocalOrigin.start()
        defer { first.stop() }
        let second = try LocalOrigin.start()
        defer { second.stop() }
        let recorder = EventRecorder()
        let client = try await Client.connected(to: first, recorder: recorder)
        let channel = PNChannel.channelWithName(Client.unique("moving"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.setConfiguration(.testing(origin: second.address))
        client.sendMessage("on the second origin", toChannel: channel)
        let willConnect = try await recorder.next(.delegate, "willConnect")
        #expect(willConnect.value as? String == second.address)
        try await recorder.next(.delegate, "didConnect")
        let restoring = try await recorder.next(.delegate, "willRestoreSubscription")
        #expect(restoring.channels == [channel])
        try await recorder.next(.delegate, "didRestoreSubscription")
        let received = try await recorder.next(.delegate, "didReceiveMessage")
        #expect(received.message?.message as? String == "on the second origin")
        #expect(Self.targets(second, containing: "/v2/subscribe/").count >= 1)
        #expect(Self.targets(second, containing: "/publish/").count == 1)
        #expect(Self.targets(first, containing: "/publish/").isEmpty)
        #expect(recorder.all(.delegate, "didDisconnect").isEmpty)
        client.disconnect()
    }

    @Test func publishesReachTheOriginInCallOrderAndEachBlockCompletesOnce() async throws {
        // S-61, S-66: Sending then Sent per message, in call order; no block fires twice.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: recorder)
        let channel = PNChannel.channelWithName(Client.unique("order"))
        for index in 1...10 {
            client.sendMessage(index, toChannel: channel) { state, _ in recorder.block("m\(index).\(state.rawValue)") }
        }
        try await recorder.next(.block, "m10.1")
        let published = Self.targets(origin, containing: "/publish/").compactMap { $0.split(separator: "?").first }
            .compactMap { $0.split(separator: "/").last.flatMap { Int($0) } }
        #expect(published == Array(1...10))
        let sentOrder = recorder.names(.block).filter { $0.hasSuffix(".1") }
        #expect(sentOrder == (1...10).map { "m\($0).1" })
        #expect(recorder.names(.block).count == Set(recorder.names(.block)).count)
        #expect(recorder.names(.block).filter { $0 != "connect" }.count == 20)
        client.disconnect()
    }

    @Test func aWrongKeyIsReportedAs109() async throws {
        var configuration = LocalOrigin.Configuration()
        configuration.publishKeys = ["pub-c-right"]
        configuration.subscribeKeys = ["sub-c-right"]
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: recorder) { _ in }
        client.sendMessage("x", toChannel: PNChannel.channelWithName("k")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let failed = try await recorder.next(.block, "publish.2")
        #expect((failed.value as? PNError)?.code == kPNInvalidSubscribeOrPublishKeyError)
        client.requestFullHistoryForChannel(PNChannel.channelWithName("k")) { _, _, _, _, error in
            recorder.block("history", error)
        }
        let history = try await recorder.next(.block, "history")
        #expect(history.error?.code == kPNInvalidSubscribeOrPublishKeyError)
        client.disconnect()
    }
}
