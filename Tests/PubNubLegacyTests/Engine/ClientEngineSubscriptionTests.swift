import Foundation
import Testing

@testable import PubNubLegacy

/// The subscription scenarios of docs/BEHAVIOR.md §9 on the in-memory origin, where the test decides every answer.
@Suite struct ClientEngineSubscriptionTests {
    static let handshakeToken = "17000000000000100"

    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    static func envelope(_ channel: String, _ payload: String, token: String) -> String {
        "{\"a\":\"1\",\"f\":0,\"p\":{\"t\":\"\(token)\",\"r\":1},\"k\":\"sub-c-test\",\"c\":\"\(channel)\",\"d\":\(payload)}"
    }

    static func answer(token: String, _ envelopes: [String]) -> String {
        "{\"t\":{\"t\":\"\(token)\",\"r\":1},\"m\":[\(envelopes.joined(separator: ","))]}"
    }

    @Test func messagesArriveInArrayOrderAndTheNextPollCarriesTheNewToken() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let a = Self.unique("a")
        let b = Self.unique("b")
        client.subscribeOnChannels(PNChannel.channelsWithNames([a, b]))
        try await recorder.next(.delegate, "didSubscribe")
        try await transport.answerWhenHeld(
            containing: "tt=\(Self.handshakeToken)",
            body: Self.answer(
                token: "17000000000000300",
                [
                    Self.envelope(a, "\"m1\"", token: "17000000000000201"),
                    Self.envelope(b, "{\"n\":2}", token: "17000000000000202"),
                    Self.envelope(a, "3", token: "17000000000000203"),
                ]
            )
        )
        try await recorder.waitForCount(3, .delegate, "didReceiveMessage")
        let messages = recorder.all(.delegate, "didReceiveMessage").compactMap(\.message)
        #expect(messages.map { $0.channel?.name } == [a, b, a])
        #expect(messages[0].message as? String == "m1")
        #expect((messages[1].message as? [String: Any])?["n"] as? Int == 2)
        #expect((messages[2].message as? NSNumber)?.intValue == 3)
        #expect(messages[0].receiveDate?.timeTokenValue == 17_000_000_000_000_300)
        try await transport.waitForRequest(containing: "tt=17000000000000300")
    }

    @Test func addingAChannelHandshakesWithoutALeaveAndKeepsThePreviousToken() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let a = Self.unique("a")
        let b = Self.unique("b")
        client.subscribeOnChannel(PNChannel.channelWithName(a))
        try await recorder.next(.delegate, "didSubscribe")
        try await transport.waitForRequest(containing: "tt=\(Self.handshakeToken)")
        client.subscribeOnChannel(PNChannel.channelWithName(b))
        let added = try await recorder.next(.delegate, "didSubscribe")
        #expect(added.channelNames == [a, b])  // 3.4.2: the whole subscribed set
        let subscribes = transport.targets.filter { $0.hasPrefix("/v2/subscribe/") }
        #expect(subscribes.count == 4)
        #expect(subscribes[2].hasPrefix("/v2/subscribe/sub-c-test/\(a),\(b)/0?tt=0&"))
        #expect(subscribes[3].contains("tt=\(Self.handshakeToken)&tr=1"))
        #expect(!transport.targets.contains { $0.contains("/leave") })
        #expect(client.subscribedChannels().map(\.name) == [a, b])
    }

    @Test func subscribingAgainCompletesAtOnceWithoutTraffic() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let channel = PNChannel.channelWithName(Self.unique("a"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        // The reachability probe (`/time/0` every 10 s) may land in a slow run; it is not traffic of this call.
        let calls = { transport.targets.filter { !$0.hasPrefix("/time/0") }.count }
        let before = calls()
        client.subscribeOnChannel(channel) { state, channels, _ in recorder.block("again", (state, channels)) }
        let again = try await recorder.next(.block, "again")
        let (state, channels) = try #require(again.value as? (PNSubscriptionProcessState, [PNChannel]))
        #expect(state == .PNSubscriptionProcessSubscribedState)
        #expect(channels == [channel])
        #expect(calls() == before)
    }

    @Test func presenceEventsUpdateTheChannelBeforeTheDelegateHearsOfThem() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let name = Self.unique("p")
        let channel = PNChannel.channelWithName(name, shouldObservePresence: true)
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        let handshake = try #require(transport.targets.first { $0.hasPrefix("/v2/subscribe/") })
        #expect(handshake.hasPrefix("/v2/subscribe/sub-c-test/\(name),\(name)-pnpres/0?tt=0"))
        try await transport.answerWhenHeld(
            containing: "tt=\(Self.handshakeToken)",
            body: Self.answer(
                token: "17000000000000400",
                [
                    Self.envelope(
                        "\(name)-pnpres",
                        "{\"action\":\"join\",\"uuid\":\"u2\",\"occupancy\":2,\"timestamp\":1700000000}",
                        token: "17000000000000401"
                    )
                ]
            )
        )
        let event = try await recorder.next(.delegate, "didReceivePresenceEvent")
        let presence = try #require(event.value as? PNPresenceEvent)
        #expect(presence.channel?.name == name)
        #expect(presence.type == .PNPresenceEventJoin)
        #expect(presence.occupancy == 2)
        #expect(channel.participants.contains("u2"))
        #expect(channel.participantsCount == 2)
        #expect(client.isPresenceObservationEnabledForChannel(channel) == false || channel.shouldObservePresence)
    }

    @Test func unsubscribingASubsetLeavesItAndContinuesTheRestWithTheKeptToken() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let a = Self.unique("a")
        let b = Self.unique("b")
        client.subscribeOnChannels(PNChannel.channelsWithNames([a, b]))
        try await recorder.next(.delegate, "didSubscribe")
        client.unsubscribeFromChannel(PNChannel.channelWithName(a)) { channels, error in
            recorder.block("unsubscribe", (channels, error))
        }
        let done = try await recorder.next(.delegate, "didUnsubscribe")
        #expect(done.channelNames == [a])
        let leave = try #require(transport.targets.first { $0.contains("/leave") })
        #expect(leave.hasPrefix("/v2/presence/sub-key/sub-c-test/channel/\(a)/leave?"))
        let poll = try await transport.waitForRequest(
            containing: "/v2/subscribe/sub-c-test/\(b)/0?tt=\(Self.handshakeToken)"
        )
        #expect(!poll.contains(a))
        #expect(client.subscribedChannels().map(\.name) == [b])
        let block = try await recorder.next(.block, "unsubscribe")
        #expect((block.value as? ([PNChannel], PNError?))?.1 == nil)
    }

    @Test func unsubscribingTheLastChannelStopsTheLoop() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let channel = PNChannel.channelWithName(Self.unique("a"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.unsubscribeFromChannel(channel)
        try await recorder.next(.delegate, "didUnsubscribe")
        client.requestServerTimeTokenWithCompletionBlock { _, _ in recorder.block("time") }
        try await recorder.next(.block, "time")
        #expect(transport.targets.filter { $0.contains("/leave") }.count == 1)
        #expect(transport.targets.filter { $0.hasPrefix("/v2/subscribe/") }.count == 2)
        #expect(client.subscribedChannels().isEmpty)
    }

    @Test func unsubscribingFromAnUnknownChannelCompletesAtOnceWithoutTraffic() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        // Reachability probes (`/time/0` every 10 s, docs/DESIGN.md A5) may fall inside a slow run; they are not
        // traffic caused by the unsubscribe, so only the other requests are counted.
        func requests() -> Int { transport.targets.filter { !$0.hasPrefix("/time/") }.count }
        let before = requests()
        let z = PNChannel.channelWithName(Self.unique("z"))
        client.unsubscribeFromChannel(z)
        let done = try await recorder.next(.delegate, "didUnsubscribe")
        #expect(done.channels == [z])
        #expect(requests() == before)
    }

    @Test func aRejectedLeaveStillRemovesTheChannel() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasSuffix("/leave")
                ? .respond(403, "{\"message\":\"Forbidden\",\"error\":true,\"status\":403}") : nil
        }
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let a = Self.unique("a")
        let b = Self.unique("b")
        client.subscribeOnChannels(PNChannel.channelsWithNames([a, b]))
        try await recorder.next(.delegate, "didSubscribe")
        client.unsubscribeFromChannel(PNChannel.channelWithName(a))
        let done = try await recorder.next(.delegate, "didUnsubscribe")
        #expect(done.channelNames == [a])
        #expect(client.subscribedChannels().map(\.name) == [b])
    }

    @Test func aLeaveThatNeverAnswersIsAbandonedAfterItsTimeout() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasSuffix("/leave") ? .hold : nil }
        let client = try await PubNubTests.connected(recorder, transport: transport) {
            $0.nonSubscriptionRequestTimeout = 0.3
        }
        let channel = PNChannel.channelWithName(Self.unique("a"))
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.unsubscribeFromChannel(channel) { _, error in recorder.block("unsubscribe", error) }
        client.subscribeOnChannel(channel) { state, _, _ in recorder.block("subscribe", state) }
        let unsubscribed = try await recorder.next(.block, "unsubscribe")
        #expect(unsubscribed.value == nil)
        let subscribed = try await recorder.next(.block, "subscribe")
        #expect(subscribed.value as? PNSubscriptionProcessState == .PNSubscriptionProcessSubscribedState)
    }

    @Test func enablingPresenceAddsTheCompanionWithoutALeaveAndDisablingRemovesIt() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let name = Self.unique("a")
        let channel = PNChannel.channelWithName(name)
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        try await transport.waitForRequest(containing: "tt=\(Self.handshakeToken)")
        client.enablePresenceObservationForChannel(channel)
        let enabled = try await recorder.next(.delegate, "didEnablePresenceObservation")
        #expect(enabled.channels == [channel])
        try await transport.waitForRequest(
            containing: "/v2/subscribe/sub-c-test/\(name),\(name)-pnpres/0?tt=\(Self.handshakeToken)"
        )
        #expect(client.isPresenceObservationEnabledForChannel(channel))
        client.disablePresenceObservationForChannel(channel)
        try await recorder.next(.delegate, "didDisablePresenceObservation")
        try await transport.waitForRequest(
            containing: "/v2/subscribe/sub-c-test/\(name)/0?tt=\(Self.handshakeToken)",
            count: 2
        )
        #expect(!client.isPresenceObservationEnabledForChannel(channel))
        #expect(!transport.targets.contains { $0.contains("/leave") })
    }

    @Test func messageCountThresholdIsReportedBeforeTheMessages() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport) {
            $0.requestMessageCountThreshold = 3
        }
        let name = Self.unique("a")
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe")
        let envelopes = (1...3).map { Self.envelope(name, "\($0)", token: "1700000000000050\($0)") }
        try await transport.answerWhenHeld(
            containing: "tt=\(Self.handshakeToken)",
            body: Self.answer(token: "17000000000000600", envelopes)
        )
        try await recorder.waitForCount(3, .delegate, "didReceiveMessage")
        let delegateNames = recorder.names(.delegate).filter { $0 == "error" || $0 == "didReceiveMessage" }
        #expect(delegateNames == ["error", "didReceiveMessage", "didReceiveMessage", "didReceiveMessage"])
        #expect(recorder.all(.delegate, "error").first?.error?.code == kPNRequestMessageCountExceededError)
    }

    @Test func changingTheIdentifierLeavesWithTheOldOneAndResubscribesWithTheNewOne() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        client.setClientIdentifier("u 1")
        let name = Self.unique("a")
        let channel = PNChannel.channelWithName(name)
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.setClientIdentifier("u+2")
        client.sendMessage("after", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block("sent") }
        }
        try await recorder.next(.delegate, "didUnsubscribe")
        try await recorder.next(.delegate, "didSubscribe")
        try await recorder.next(.block, "sent")
        let relevant = transport.targets.filter {
            $0.contains("/leave") || $0.contains("tt=0&") || $0.hasPrefix("/publish/")
        }
        #expect(relevant.count == 4)
        #expect(relevant[1].contains("/leave?") && relevant[1].hasSuffix("uuid=u%201"))
        #expect(relevant[2].contains("tt=0&") && relevant[2].contains("uuid=u%2B2"))
        #expect(relevant[3].hasPrefix("/publish/") && relevant[3].contains("uuid=u%2B2"))
        #expect(client.clientIdentifier() == "u+2")
    }

    @Test func changingTheOriginReconnectsAndRestoresTheChannels() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let name = Self.unique("a")
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe")
        try await transport.waitForRequest(containing: "tt=\(Self.handshakeToken)")
        client.setConfiguration(.testing(origin: "other.origin:2"))
        client.sendMessage("after", toChannel: PNChannel.channelWithName(name)) { state, _ in
            if state == .PNMessageSent { recorder.block("sent") }
        }
        let willConnect = try await recorder.next(.delegate, "willConnect", within: 5)
        #expect(willConnect.value as? String == "other.origin:2")
        try await recorder.next(.delegate, "didConnect")
        let will = try await recorder.next(.delegate, "willRestoreSubscription")
        #expect(will.channelNames == [name])
        try await recorder.next(.delegate, "didRestoreSubscription")
        try await recorder.next(.block, "sent")
        let restore = try #require(
            transport.requests.first { $0.url.host == "other.origin" && $0.url.path.hasPrefix("/v2/subscribe/") }
        )
        #expect(restore.url.query?.contains("tt=\(Self.handshakeToken)") == true)
        #expect(transport.requests.last { $0.url.path.hasPrefix("/publish/") }?.url.host == "other.origin")
        #expect(recorder.all(.delegate, "didDisconnect").isEmpty)
        #expect(!transport.targets.contains { $0.contains("/leave") })
    }
}
