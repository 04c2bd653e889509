import Foundation
import Testing

@testable import PubNubLegacy

/// The facade on an in-memory origin (`FakeTransport`): ordering, pre-flight and failure paths that need answers
/// LocalOrigin does not give.
@Suite struct PubNubTests {
    static func connected(
        _ recorder: EventRecorder,
        transport: FakeTransport = .origin(),
        timings: EngineTimings = .standard,
        configure: (PNConfiguration) -> Void = { _ in }
    ) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configure(configuration)
        let client = PubNub.testing(
            configuration: configuration,
            recorder: recorder,
            transport: transport,
            timings: timings
        )
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        try await recorder.next(.block, "connect")
        return client
    }

    @Test func connectReportsWillConnectThenDidConnectThenTheSuccessBlock() async throws {
        let recorder = EventRecorder()
        let client = try await Self.connected(recorder)
        #expect(
            recorder.entries.map(\.description) == [
                "delegate:willConnect", "sink:willConnect", "delegate:didConnect", "sink:didConnect", "block:connect",
            ]
        )
        #expect(recorder.all(.block, "connect").first?.value as? String == "fake.origin:1")
        #expect(client.isConnected())
        #expect(client.clientIdentifier() != nil)
    }

    @Test func callsMadeWhileConnectingRunInCallOrderOnceConnected() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport
        )
        let channel = PNChannel.channelWithName("order-\(UUID().uuidString)")
        client.connectWithSuccessBlock({ _ in recorder.block("connect") }, errorBlock: nil)
        client.subscribeOnChannel(channel) { state, _, _ in recorder.block("subscribe", state) }
        client.sendMessage("one", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block("publish1") }
        }
        client.sendMessage("two", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block("publish2") }
        }
        client.requestServerTimeTokenWithCompletionBlock { _, _ in recorder.block("time") }
        try await recorder.next(.block, "time")
        #expect(recorder.names(.block) == ["connect", "subscribe", "publish1", "publish2", "time"])
        let publishes = transport.targets.filter { $0.hasPrefix("/publish/") }
        #expect(publishes.count == 2)
        #expect(publishes.first?.contains("/0/%22one%22?") == true)
        #expect(publishes.last?.contains("/0/%22two%22?") == true)
    }

    @Test func publishCallsItsBlockWithSendingThenSentOnce() async throws {
        let recorder = EventRecorder()
        let client = try await Self.connected(recorder)
        let channel = PNChannel.channelWithName("publish-\(UUID().uuidString)")
        let returned = client.sendMessage(["k": 1], toChannel: channel) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        try await recorder.next(.block, "publish.1")
        #expect(recorder.names(.block) == ["connect", "publish.0", "publish.1"])
        #expect(
            recorder.entries.dropFirst(5).map(\.description) == [
                "delegate:willSendMessage", "sink:willSendMessage", "block:publish.0",
                "delegate:didSendMessage", "sink:didSendMessage", "block:publish.1",
            ]
        )
        #expect(recorder.all(.block, "publish.1").first?.message === returned)
        #expect(returned?.message as? String == "{\"k\":1}")
    }

    @Test func connectWithoutConfigurationFailsWith100() async throws {
        let recorder = EventRecorder()
        let client = PubNub(configuration: nil, delegate: recorder, eventSinks: [recorder])
        client.engine.dispatcher.setQueue(DispatchQueue(label: "test-delivery"))
        client.connectWithSuccessBlock(nil) { recorder.block("connectError", $0) }
        let failure = try await recorder.next(.block, "connectError")
        #expect(failure.error?.code == kPNClientConfigurationError)
        #expect(recorder.names(.delegate) == ["error"])
    }

    @Test func invalidConfigurationIsReportedAndNotApplied() async throws {
        let recorder = EventRecorder()
        let client = try await Self.connected(recorder)
        let invalid = PNConfiguration.testing(origin: "other.origin:2", publishKey: "")
        client.setConfiguration(invalid)
        let error = try await recorder.next(.delegate, "error")
        #expect(error.error?.code == kPNClientConfigurationError)
        client.requestServerTimeTokenWithCompletionBlock { token, _ in recorder.block("time", token) }
        try await recorder.next(.block, "time")
        #expect(client.engine.settings?.origin == "fake.origin:1")
    }

    @Test func connectWhileConnectedFailsWith101ThroughTheDelegateAndTheBlock() async throws {
        // As 3.4.2 reported it (issue 13): `connectionDidFailWithError:` 101, then the block; still connected.
        let recorder = EventRecorder()
        let client = try await Self.connected(recorder)
        client.connectWithSuccessBlock(nil) { recorder.block("again", $0) }
        let again = try await recorder.next(.block, "again")
        #expect(again.error?.code == kPNClientTriedConnectWhileConnectedError)
        #expect(recorder.all(.delegate, "connectionDidFail").map { $0.error?.code } == [101])
        #expect(client.isConnected())
    }

    @Test func requestsBeforeConnectFailThroughTheBlockOnly() async throws {
        let recorder = EventRecorder()
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: .origin()
        )
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        let time = try await recorder.next(.block, "time")
        #expect(time.error?.code == kPNRequestExecutionFailedClientNotReadyError)
        #expect(recorder.names(.delegate).isEmpty)
        #expect(recorder.names(.sink).isEmpty)
    }

    @Test func handshakeTimeoutFailsWith106AndReleasesTheLock() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasPrefix("/v2/subscribe/") ? .hold : nil
        }
        let client = try await Self.connected(recorder, transport: transport) { $0.subscriptionRequestTimeout = 0.3 }
        let channel = PNChannel.channelWithName("timeout-\(UUID().uuidString)")
        client.subscribeOnChannel(channel) { state, channels, error in
            recorder.block("subscribe", (state, channels, error))
        }
        client.requestServerTimeTokenWithCompletionBlock { token, _ in recorder.block("time", token) }
        let failed = try await recorder.next(.delegate, "subscriptionDidFail")
        #expect(failed.error?.code == kPNRequestExecutionFailedByTimeoutError)
        #expect(failed.error?.localizedDescription == "Subscription failed by timeout")
        let block = try await recorder.next(.block, "subscribe")
        let (state, channels, error) = try #require(block.value as? (PNSubscriptionProcessState, [PNChannel], PNError?))
        #expect(state == .PNSubscriptionProcessNotSubscribedState)
        #expect(channels == [channel])
        #expect(error?.code == kPNRequestExecutionFailedByTimeoutError)
        try await recorder.next(.block, "time")
        #expect(client.subscribedChannels().isEmpty)
    }

    @Test func accessDeniedOnTheHandshakeReports113WithThePayloadChannels() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasPrefix("/v2/subscribe/")
                ? .respond(
                    403,
                    "{\"message\":\"Forbidden\",\"payload\":{\"channels\":[\"secret\"]},\"error\":true,\"status\":403}"
                ) : nil
        }
        let client = try await Self.connected(recorder, transport: transport)
        client.subscribeOnChannel(PNChannel.channelWithName("secret"))
        let failed = try await recorder.next(.delegate, "subscriptionDidFail")
        #expect(failed.error?.code == kPNAPIAccessForbiddenError)
        #expect(failed.error?.category == .accessDenied)
        #expect((failed.error?.associatedObject as? [PNChannel])?.map(\.name) == ["secret"])
        #expect(client.subscribedChannels().isEmpty)
    }

    @Test func malformedPublishAnswerIsNotResentAndFailsWith127() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasPrefix("/publish/") ? .respond(200, "[1,\"Sent\",\"17") : nil
        }
        let client = try await Self.connected(recorder, transport: transport)
        client.sendMessage(5, toChannel: PNChannel.channelWithName("m")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let failed = try await recorder.next(.block, "publish.2")
        #expect((failed.value as? PNError)?.code == kPNResponseMalformedJSONError)
        #expect(transport.targets.filter { $0.hasPrefix("/publish/") }.count == 1)
    }

    @Test func publishTimeoutFailsOnceWith106() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasPrefix("/publish/") ? .hold : nil }
        let client = try await Self.connected(recorder, transport: transport) {
            $0.nonSubscriptionRequestTimeout = 0.3
        }
        client.sendMessage("late", toChannel: PNChannel.channelWithName("t")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let failed = try await recorder.next(.block, "publish.2")
        #expect((failed.value as? PNError)?.localizedDescription == "Message sending failed by timeout")
        transport.answerHeld(containing: "/publish/", status: 200, body: "[1,\"Sent\",\"1\"]")
        client.requestServerTimeTokenWithCompletionBlock { _, _ in recorder.block("time") }
        try await recorder.next(.block, "time")
        #expect(recorder.all(.block, "publish.1").isEmpty)
        #expect(recorder.all(.block, "publish.2").count == 1)
    }

    @Test func disconnectRunsAfterEarlierCallsThenLaterCallsFailWith105() async throws {
        // 3.4.2 queued `+disconnect` behind the calls in progress (issue 13): the held publish and the time request
        // queued behind it complete first; the disconnect comes next, once; calls made after it fail with 105.
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasPrefix("/publish/") ? .hold : nil }
        // The held publish must outlive a loaded machine's pauses: no timeout is under test here.
        let client = try await Self.connected(recorder, transport: transport) { $0.nonSubscriptionRequestTimeout = 120 }
        client.sendMessage("held", toChannel: PNChannel.channelWithName("d")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "publish.0")
        client.disconnect()
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("afterDisconnect", error) }
        #expect(client.isConnected())
        try await transport.answerWhenHeld(containing: "/publish/", body: "[1,\"Sent\",\"1\"]")
        try await recorder.next(.block, "publish.1")
        let time = try await recorder.next(.block, "time")
        #expect(time.error == nil)
        try await recorder.next(.delegate, "didDisconnect")
        let after = try await recorder.next(.block, "afterDisconnect")
        #expect(after.error?.code == kPNRequestExecutionFailedClientNotReadyError)
        #expect(recorder.all(.block, "publish.2").isEmpty)
        #expect(recorder.all(.delegate, "didDisconnect").count == 1)
        #expect(!client.isConnected())
        client.disconnect()
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time2", error) }
        try await recorder.next(.block, "time2")
        #expect(recorder.all(.delegate, "didDisconnect").count == 1)
    }

    @Test func historyAccessDeniedCarriesTheChannel() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasPrefix("/v2/history/")
                ? .respond(403, "{\"message\":\"Forbidden\",\"payload\":{\"channels\":[\"h\"]},\"error\":true}") : nil
        }
        let client = try await Self.connected(recorder, transport: transport)
        let channel = PNChannel.channelWithName("h")
        client.requestFullHistoryForChannel(channel) { messages, reported, _, _, error in
            recorder.block("history", (messages, reported, error))
        }
        let entry = try await recorder.next(.block, "history")
        let (messages, reported, error) = try #require(entry.value as? ([PNMessage]?, PNChannel?, PNError?))
        #expect(messages == nil)
        #expect(reported == channel)
        #expect(error?.code == kPNAPIAccessForbiddenError)
        #expect(error?.associatedObject as? PNChannel == channel)
        #expect(recorder.all(.delegate, "historyDownloadDidFail").count == 1)
    }

    @Test func wrongKeyAnswersBecome109() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in
            request.url.path.hasPrefix("/publish/") ? .respond(400, "[0,\"Invalid Key\",\"14820999375199241\"]") : nil
        }
        let client = try await Self.connected(recorder, transport: transport)
        let message = client.sendMessage("x", toChannel: PNChannel.channelWithName("k")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        let failed = try await recorder.next(.block, "publish.2")
        let error = try #require(failed.value as? PNError)
        #expect(error.code == kPNInvalidSubscribeOrPublishKeyError)
        #expect(error.localizedDescription.hasSuffix(": Invalid Key"))
        #expect(error.associatedObject as? PNMessage === message)
    }
}
