import Foundation
import LocalOrigin
import PNObservation
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "Subscribe": S-32 … S-34, S-36 … S-38, S-44, S-46 (S-35 is in LocalOriginScenarioTests; S-39 …
// S-43 and S-45 need refused or broken answers and are tested with them).

extension ScenarioTests {
    @Test("S-32: first subscribe handshakes with tt=0, continues with its token, and subscribes when that is issued")
    func s32FirstSubscribe() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        // What the wire looked like when the subscription observer heard of it.
        let seen = Locked<[TrafficLog.Request]>([])
        let watcher = NSObject()
        harness.center.addClientChannelSubscriptionStateObserver(watcher) { _, _, _ in
            seen.set(harness.traffic.subscribes)
        }
        let start = harness.mark
        harness.client.subscribeOnChannel(harness.channel, withCompletionHandlingBlock: ledger.subscribe("subscribe"))
        try await harness.check([Self.subscribed()], from: start)
        let subscribes = try await harness.traffic.wait(for: 2, "handshake and long-poll") { $0.isSubscribe }
        #expect(subscribes.count == 2)
        #expect(subscribes[0].timetoken == 0)
        #expect(subscribes[0].channels == [harness.channel.name])
        let handshakeToken = try #require(subscribes[0].answeredTimetoken)
        #expect(subscribes[1].timetoken == handshakeToken)
        // Subscribed only after the handshake was answered and the long-poll issued.
        let atEvent = seen.current
        #expect(atEvent.count == 2)
        #expect(atEvent.first?.status == 200)
        #expect(
            harness.recorder.entries.dropFirst(start).first { $0.channel == .block }?.key
                == "channels:\(harness.channel.name)"
        )
        withExtendedLifetime(watcher) {}
        ledger.verify()
    }

    @Test("S-33: one answer with messages on a, b, a delivers them in that order once, then continues from its token")
    func s33MessageFlowAndTokens() async throws {
        // The origin puts the three messages in one answer when the client catches up over them: the client waits
        // on channel c while a peer publishes on a and b, then adds a and b and continues from c's token (S-35).
        // v2 answers name the channel of each message (docs/DESIGN.md §6) where 3.4's third element listed them.
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let watcher = MessageWatcher(harness)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"))
        let b = PNChannel.channelWithName(Self.unique("b"))
        try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe c")
        try await Self.publish(["m1"], to: a, from: harness, uuid: "peer a")
        try await Self.publish(["m2"], to: b, from: harness, uuid: "peer b")
        try await Self.publish(["m3"], to: a, from: harness, uuid: "peer a2")
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.subscribeOnChannels([a, b], withCompletionHandlingBlock: ledger.subscribe("subscribe a b"))
        try await harness.check([Self.subscribed(), Self.received, Self.received, Self.received], from: start)
        #expect(watcher.received.current.map(\.channel) == [a.name, b.name, a.name])
        #expect(watcher.received.current.map(\.text) == ["m1", "m2", "m3"])
        let polls = try await harness.traffic.wait(for: 3, from: sentBefore, "handshake, catch-up, next long-poll") {
            $0.isSubscribe
        }
        #expect(polls[0].timetoken == 0)
        let carried = try #require(polls[1].answeredTimetoken)
        #expect(polls[2].timetoken == carried)
        ledger.verify()
    }

    @Test("S-34: with one channel subscribed its messages carry that channel object")
    func s34SingleChannelMessagesCarryTheChannel() async throws {
        // v2 answers always name each message's channel (docs/DESIGN.md §6), so the 3.4 answer without a channel list
        // does not occur; what remains is that the message names the channel object the app subscribed with.
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let channel = PNChannel.channelWithName(Self.unique("only"))
        let heard = Locked<[PNChannel]>([])
        let watcher = NSObject()
        harness.center.addMessageReceiveObserver(watcher) { message in
            if let channel = message.channel { heard.withLock { $0.append(channel) } }
        }
        try await Self.subscribe(harness, ledger, [channel], id: "subscribe")
        let start = harness.mark
        try await Self.publish(["m1"], to: channel, from: harness)
        try await harness.check([Self.received], from: start)
        #expect(heard.current.count == 1)
        #expect(heard.current.first === channel)
        withExtendedLifetime(watcher) {}
        ledger.verify()
    }

    @Test("S-36: adding a channel with keepTimeTokenOnListChange NO continues from the handshake's token")
    func s36AddingChannelsWithoutKeepingTheToken() async throws {
        let harness = try MatrixHarness(.local) { $0.keepTimeTokenOnListChange = false }
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"))
        let b = PNChannel.channelWithName(Self.unique("b"))
        let first = try await Self.subscribe(harness, ledger, [a], id: "subscribe a")
        let previous = try #require(harness.traffic.requests[first].timetoken)
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.subscribeOnChannel(b, withCompletionHandlingBlock: ledger.subscribe("subscribe b"))
        try await harness.check([Self.subscribed()], from: start)
        let polls = try await harness.traffic.wait(for: 2, from: sentBefore, "handshake and long-poll") {
            $0.isSubscribe
        }
        #expect(polls[0].timetoken == 0)
        #expect(Set(polls[0].channels) == [a.name, b.name])
        let handshakeToken = try #require(polls[0].answeredTimetoken)
        #expect(polls[1].timetoken == handshakeToken)
        #expect(polls[1].timetoken != previous)
        #expect(!harness.traffic.since(sentBefore).contains { $0.isLeave })
        // 3.4.2 reported the whole subscribed set, not only the channel of the call.
        #expect(
            harness.recorder.entries.dropFirst(start).first { $0.channel == .block }?.key
                == "channels:\(a.name),\(b.name)"
        )
        ledger.verify()
    }

    @Test("S-37: adding a channel without presence event sends no leave and no handshake, and keeps the token")
    func s37AddingChannelsWithoutPresenceEvent() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let a = PNChannel.channelWithName(Self.unique("a"))
        let b = PNChannel.channelWithName(Self.unique("b"))
        let first = try await Self.subscribe(harness, ledger, [a], id: "subscribe a")
        let token = try #require(harness.traffic.requests[first].timetoken)
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.subscribeOnChannels(
            [b],
            withPresenceEvent: false,
            andCompletionHandlingBlock: ledger.subscribe("subscribe b")
        )
        try await harness.check([Self.subscribed()], from: start)
        let polls = try await harness.traffic.wait(from: sentBefore, "the next subscribe") { $0.isSubscribe }
        // Settled: whatever else the change sends is in flight by the time its event was delivered.
        harness.client.engine.flushEngineQueue()
        let sent = harness.traffic.since(sentBefore)
        #expect(sent.filter(\.isSubscribe).count == 1)
        #expect(Set(polls[0].channels) == [a.name, b.name])
        #expect(polls[0].timetoken == token)
        #expect(!sent.contains { $0.isLeave })
        #expect(!sent.contains { $0.isSubscribe && $0.timetoken == 0 })
        ledger.verify()
    }

    @Test("S-38: subscribing to a subscribed channel completes at once without traffic; the long-poll runs on")
    func s38SubscribingToASubscribedChannel() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let poll = try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe")
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.subscribeOnChannel(harness.channel, withCompletionHandlingBlock: ledger.subscribe("again"))
        try await harness.check([Self.subscribed()], from: start)
        #expect(
            harness.recorder.entries.dropFirst(start).first { $0.channel == .block }?.key
                == "channels:\(harness.channel.name)"
        )
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        #expect(harness.traffic.requests[poll].failure == nil)
        #expect(harness.traffic.requests[poll].status == nil)
        ledger.verify()
    }

    @Test("S-44: an answer with 100 messages reports message-count-exceeded once before them; 99 does not")
    func s44MessageCountExceeded() async throws {
        // docs/BEHAVIOR.md §3.9: on the 3.4 surface the status is `pubnubClient:error:` with the layer's code.
        for count in [100, 99] {
            let harness = try MatrixHarness(.local) { $0.requestMessageCountThreshold = 100 }
            defer { harness.stop() }
            let ledger = BlockLedger(harness.recorder)
            let watcher = MessageWatcher(harness)
            try await Self.connect(harness, ledger)
            let busy = PNChannel.channelWithName(Self.unique("busy"))
            try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe")
            try await Self.publish(Array(1...count), to: busy, from: harness)
            let start = harness.mark
            let sentBefore = harness.traffic.count
            harness.client.subscribeOnChannel(busy, withCompletionHandlingBlock: ledger.subscribe("subscribe busy"))
            let exceeded = Row(
                event: "message count exceeded",
                delegate: "error",
                notification: kPNClientErrorNotification,
                code: kPNRequestMessageCountExceededError
            )
            let rows =
                [Self.subscribed()] + (count >= 100 ? [exceeded] : []) + Array(repeating: Self.received, count: count)
            try await harness.check(rows, from: start)
            #expect(watcher.received.current.map(\.text) == (1...count).map(String.init))
            // The loop continues after the big answer.
            try await harness.traffic.wait(for: 3, from: sentBefore, "the long-poll after the big answer") {
                $0.isSubscribe
            }
            ledger.verify()
        }
    }

    @Test("S-46: one handshake lists 150 channels and 20 presence companions; messages are routed by channel")
    func s46ManyChannels() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let watcher = MessageWatcher(harness)
        try await Self.connect(harness, ledger)
        let prefix = Self.unique("many")
        let channels = (0..<150).map { index in
            PNChannel.channelWithName("\(prefix)-\(index)", shouldObservePresence: index < 20)
        }
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.subscribeOnChannels(channels, withCompletionHandlingBlock: ledger.subscribe("subscribe"))
        // The client's own joins on the 20 presence channels may follow at once.
        try await harness.check([Self.subscribed()], from: start, ignoring: Self.isPresenceEvent)
        let handshake = try #require(harness.traffic.since(sentBefore).first { $0.isSubscribe })
        #expect(handshake.timetoken == 0)
        #expect(handshake.channels.count == 170)
        #expect(Set(handshake.channels) == Set(channels.map(\.name) + channels.prefix(20).map { $0.name + "-pnpres" }))
        let subscribedKey = harness.recorder.entries.dropFirst(start).first { $0.label == "didSubscribe" }?.key
        #expect(subscribedKey == "channels:" + channels.map(\.name).joined(separator: ","))
        let next = harness.mark
        try await Self.publish(["to 7"], to: channels[7], from: harness, uuid: "peer 7")
        try await Self.publish(["to 149"], to: channels[149], from: harness, uuid: "peer 149")
        try await harness.check(
            [Self.received, Self.received],
            from: next,
            ignoring: Self.isPresenceEvent
        )
        #expect(watcher.received.current.map(\.channel) == [channels[7].name, channels[149].name])
        ledger.verify()
    }

    @Test("S-46: a handshake the origin refuses with 414 fails with -1 and subscribes nothing")
    func s46TooLongHandshakeFails() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        // Long names push the handshake's request line past what the origin accepts (it answers 414).
        let prefix = Self.unique(String(repeating: "long", count: 100))
        let channels = (0..<150).map { PNChannel.channelWithName("\(prefix)-\($0)") }
        let start = harness.mark
        harness.client.subscribeOnChannels(channels, withCompletionHandlingBlock: ledger.subscribe("subscribe"))
        try await harness.check(
            [
                Row(
                    event: "subscribe failed",
                    delegate: "subscriptionDidFail",
                    observer: "subscription:0",
                    notification: kPNClientSubscriptionDidFailNotification,
                    block: "subscribe:0",
                    code: kPNUnknownError
                )
            ],
            from: start
        )
        #expect(harness.traffic.subscribes.last?.status == 414)
        #expect(harness.client.subscribedChannels().isEmpty)
        ledger.verify()
    }
}
