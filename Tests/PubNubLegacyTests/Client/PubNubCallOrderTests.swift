import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

/// Calls run in call order, one at a time, as 3.4.2's operation lock ran them — `disconnect` included (issue 13,
/// item 6) — and every setter's getter returns the new value at once (item 5).
@Suite struct PubNubCallOrderTests {
    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    @Test func connectSubscribeDisconnectRunInCallOrderWithAllTheirCallbacks() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub.testing(configuration: .testing(origin: origin.address), recorder: recorder)
        let channel = PNChannel.channelWithName(Self.unique("order"))
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        client.subscribeOnChannels([channel]) { state, channels, _ in
            recorder.block("subscribe", (state, channels))
        }
        client.disconnect()
        try await recorder.next(.delegate, "didDisconnect", within: 15)
        let sequence = recorder.entries.filter { $0.source != .sink }.map { "\($0.source.rawValue):\($0.name)" }
        #expect(
            sequence == [
                "delegate:willConnect", "delegate:didConnect", "block:connect", "delegate:didSubscribe",
                "block:subscribe", "delegate:didDisconnect",
            ]
        )
        let subscribed = try #require(
            recorder.all(.block, "subscribe").first?.value as? (PNSubscriptionProcessState, [PNChannel])
        )
        #expect(subscribed.0 == .PNSubscriptionProcessSubscribedState)
        #expect(subscribed.1 == [channel])
        #expect(!client.isConnected())
        #expect(client.subscribedChannels().isEmpty)
    }

    @Test func everyCallStartsAfterTheCallsMadeBeforeItFinished() async throws {
        // A publish is held at the origin; every other kind of call made meanwhile waits, then each runs after the
        // one before it completed, and a disconnect made last runs last.
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.contains("held") ? .hold : nil }
        // The reachability probe (`/time/0` every 10 s, docs/BEHAVIOR.md §2.2) would land among the requests this
        // test orders when a loaded machine stretches it past 10 s; it is not one of the calls under test.
        // The held publish's timeout (106) is pushed past the test's deadlines, so only the test's release ends it.
        let client = try await PubNubTests.connected(recorder, transport: transport, timings: .quietProbe) {
            $0.nonSubscriptionRequestTimeout = 120
        }
        let channel = PNChannel.channelWithName(Self.unique("calls"))
        let token = Data([1, 2, 3, 4])
        var expected: [String] = []
        func note(_ name: String) -> String {
            expected.append(name)
            return name
        }
        let held = note("publish held")
        client.sendMessage("held", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block(held) }
        }
        try await transport.waitForRequest(containing: "/publish/")
        let subscribe = note("subscribe")
        client.subscribeOnChannel(channel) { _, _, _ in recorder.block(subscribe) }
        let enable = note("enable presence")
        client.enablePresenceObservationForChannel(channel) { _, _ in recorder.block(enable) }
        let time = note("time")
        client.requestServerTimeTokenWithCompletionBlock { _, _ in recorder.block(time) }
        let history = note("history")
        client.requestFullHistoryForChannel(channel) { _, _, _, _, _ in recorder.block(history) }
        let hereNow = note("here now")
        client.requestParticipantsListForChannel(channel) { _, _, _ in recorder.block(hereNow) }
        let pushOn = note("push enable")
        client.enablePushNotificationsOnChannel(channel, withDevicePushToken: token) { _, _ in recorder.block(pushOn) }
        let pushList = note("push list")
        client.requestPushNotificationEnabledChannelsForDevicePushToken(token) { _, _ in recorder.block(pushList) }
        let pushOff = note("push disable")
        client.disablePushNotificationsOnChannel(channel, withDevicePushToken: token) { _, _ in
            recorder.block(pushOff)
        }
        let pushRemove = note("push remove")
        client.removeAllPushNotificationsForDevicePushToken(token) { _ in recorder.block(pushRemove) }
        let disable = note("disable presence")
        client.disablePresenceObservationForChannel(channel) { _, _ in recorder.block(disable) }
        let publish = note("publish")
        client.sendMessage("after", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block(publish) }
        }
        let unsubscribe = note("unsubscribe")
        client.unsubscribeFromChannel(channel) { _, _ in recorder.block(unsubscribe) }
        client.disconnect()
        let after = note("after disconnect")
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block(after, error) }

        // Nothing behind the held publish has been sent.
        #expect(transport.targets.filter { !$0.hasPrefix("/v2/subscribe/") }.last?.hasPrefix("/publish/") == true)
        try await transport.answerWhenHeld(containing: "held", body: "[1,\"Sent\",\"17000000000000300\"]")
        try await recorder.next(.block, after, within: 15)
        #expect(recorder.names(.block).filter { $0 != "connect" } == expected)
        #expect(recorder.entries.last { $0.name == after }?.error?.code == kPNRequestExecutionFailedClientNotReadyError)
        let delegate = recorder.names(.delegate)
        let disconnected = try #require(delegate.firstIndex(of: "didDisconnect"))
        #expect(delegate.firstIndex(of: "didUnsubscribe").map { $0 < disconnected } == true)
        // The requests went out in call order too.
        // Counted from the held publish: the connect's `/time/0`, and a probe that a loaded machine let fire before
        // the test quieted it, come before and are not calls under test.
        let kinds = transport.targets.compactMap(Self.kind).filter { $0 != "long-poll" }.drop { $0 != "publish" }
        #expect(
            Array(kinds) == [
                // Enabling presence continues the long-poll with the `-pnpres` companion added: no handshake.
                "publish", "subscribe", "time", "history", "here now", "push add", "push list", "push remove",
                "push remove all", "publish", "leave",
            ]
        )
    }

    /// What a request is, by its path and query.
    static func kind(_ target: String) -> String? {
        if target.hasPrefix("/time/") { return "time" }
        if target.hasPrefix("/publish/") { return "publish" }
        if target.hasPrefix("/v2/subscribe/") { return target.contains("tt=0&") ? "subscribe" : "long-poll" }
        if target.contains("/leave") { return "leave" }
        if target.hasPrefix("/v2/history/") { return "history" }
        if target.hasPrefix("/v2/presence/") { return target.contains("/heartbeat") ? nil : "here now" }
        if target.hasPrefix("/v1/push/") {
            if target.contains("add=") { return "push add" }
            if target.contains("remove=") { return "push remove" }
            return target.contains("/remove?") ? "push remove all" : "push list"
        }
        return target
    }

    // MARK: - Read-your-writes (item 5)

    @Test func clientIdentifierReadsBackAtOnce() {
        let client = PubNub(configuration: .testing(origin: "127.0.0.1:1"))
        #expect(client.clientIdentifier() == nil)
        for round in 0..<200 {
            let identifier = "user-\(round)"
            client.setClientIdentifier(identifier)
            #expect(client.clientIdentifier() == identifier)
        }
        client.setClientIdentifier(nil)
        let generated = client.clientIdentifier()
        #expect(generated != nil && generated != "user-199")
        #expect(generated.map { !PNIsUserGeneratedUUID($0) } == true)
        client.setClientIdentifier("last")
        #expect(client.engine.uuidNow == "last")
        #expect(client.clientIdentifier() == "last")
    }

    @Test func clientIdentifierReadsBackAtOnceDuringTheSoftReset() async throws {
        // Connected with a channel, the new identifier reaches the wire only after a leave with the old one; the
        // getter does not wait for that.
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasSuffix("/leave") ? .hold : nil }
        // The held leave's own timeout is pushed past every deadline below: a whole-suite run on two busy cores once
        // took longer than the default 10 s between holding it and answering it, and the engine had moved on.
        let client = try await PubNubTests.connected(recorder, transport: transport) {
            $0.nonSubscriptionRequestTimeout = 120
        }
        let old = try #require(client.clientIdentifier())
        client.subscribeOnChannel(PNChannel.channelWithName(Self.unique("soft")))
        try await recorder.next(.delegate, "didSubscribe")
        client.setClientIdentifier("renamed")
        #expect(client.clientIdentifier() == "renamed")
        let leave = try await transport.waitForRequest(containing: "/leave")
        #expect(leave.contains("uuid=\(old)"))
        #expect(client.clientIdentifier() == "renamed")
        try await transport.answerWhenHeld(containing: "/leave", body: "{\"status\":200,\"action\":\"leave\"}")
        try await recorder.next(.delegate, "didSubscribe")
        #expect(client.clientIdentifier() == "renamed")
        #expect(transport.targets.last { $0.hasPrefix("/v2/subscribe/") }?.contains("uuid=renamed") == true)
    }

    @Test func configurationReadsBackAtOnce() {
        let client = PubNub()
        #expect(client.configuration == nil)
        let first = PNConfiguration.testing(origin: "127.0.0.1:1")
        first.cipherKey = "secret"
        client.setConfiguration(first)
        let read = client.configuration
        #expect(read == first)
        #expect(read !== first)
        #expect(read?.cipherKey == "secret")
        // Changing the object afterwards changes neither the client nor what the getter returns.
        first.cipherKey = "changed"
        #expect(client.configuration?.cipherKey == "secret")
        // An invalid configuration is reported, not applied.
        client.setConfiguration(PNConfiguration.testing(origin: "127.0.0.1:1", publishKey: ""))
        #expect(client.configuration?.cipherKey == "secret")
        // A configuration that names a uuid sets the identifier, readable at once too.
        let named = PNConfiguration.testing(origin: "127.0.0.1:2")
        named.uuid = "from-configuration"
        client.setupWithConfiguration(named, andDelegate: nil)
        #expect(client.configuration?.origin == "127.0.0.1:2")
        #expect(client.clientIdentifier() == "from-configuration")
    }

    @Test func presenceFlagReadsBackAtOnce() {
        let name = Self.unique("flag")
        #expect(PNChannel.channelWithName(name, shouldObservePresence: true).shouldObservePresence)
        #expect(!PNChannel.channelWithName(name, shouldObservePresence: false).shouldObservePresence)
        #expect(!PNChannel.channelWithName(name).shouldObservePresence)
    }
}
