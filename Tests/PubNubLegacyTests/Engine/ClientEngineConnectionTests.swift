import Foundation
import Testing

@testable import PubNubLegacy

/// Network loss, recovery and restore (docs/BEHAVIOR.md §2.7, S-21, S-22, S-23, S-26, S-27, S-53) on the in-memory
/// origin, whose network the test switches off and on. Probes run every 0.2 s here instead of 10 s.
@Suite struct ClientEngineConnectionTests {
    static func connected(
        _ recorder: EventRecorder,
        _ transport: FakeTransport,
        configure: (PNConfiguration) -> Void = { _ in }
    ) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configure(configuration)
        let client = PubNub.testing(
            configuration: configuration,
            recorder: recorder,
            transport: transport,
            timings: .probing(every: 0.2)
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: nil)
        try await recorder.next(.block, "connect")
        return client
    }

    @Test func networkLossReportsWillAndDidDisconnectThenReconnectsAndRestoresFromTheLastToken() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await Self.connected(recorder, transport)
        let name = ClientEngineSubscriptionTests.unique("loss")
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe")
        try await transport.waitForRequest(containing: "tt=\(ClientEngineSubscriptionTests.handshakeToken)")
        transport.setNetworkDown(true)
        let will = try await recorder.next(.delegate, "willDisconnectWithError")
        #expect(will.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        #expect(will.error?.category == .unexpectedDisconnect)
        let did = try await recorder.next(.delegate, "didDisconnectWithError")
        #expect(did.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        #expect(!client.isConnected())
        // S-26: a request during the outage fails at once with 104, and the delegate hears it (gate open).
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        let time = try await recorder.next(.block, "time")
        #expect(time.error?.code == kPNRequestExecutionFailedOnInternetFailureError)
        #expect(recorder.all(.delegate, "timeTokenReceiveDidFail").count == 1)
        transport.setNetworkDown(false)
        try await recorder.next(.delegate, "willConnect", within: 5)
        try await recorder.next(.delegate, "didConnect")
        let willRestore = try await recorder.next(.delegate, "willRestoreSubscription")
        #expect(willRestore.channelNames == [name])
        try await recorder.next(.delegate, "didRestoreSubscription")
        let restores = transport.targets.filter {
            $0.hasPrefix("/v2/subscribe/") && $0.contains("tt=\(ClientEngineSubscriptionTests.handshakeToken)")
        }
        #expect(restores.count >= 2)
        #expect(recorder.all(.delegate, "willDisconnectWithError").count == 1)
        #expect(recorder.all(.delegate, "didDisconnectWithError").count == 1)
        #expect(client.isConnected())
        #expect(client.subscribedChannels().map(\.name) == [name])
    }

    @Test func aRequestInFlightWhenTheNetworkDropsFailsWith104AndIsNotResent() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasPrefix("/publish/") ? .hold : nil }
        // The held publish's own timeout (106) is pushed past the test's deadlines: only the drop may end it (a
        // loaded whole run starved the test for 10 s between the send and the drop, and saw 106).
        let client = try await Self.connected(recorder, transport) { $0.nonSubscriptionRequestTimeout = 120 }
        client.sendMessage("in flight", toChannel: PNChannel.channelWithName("f")) { state, value in
            recorder.block("publish.\(state.rawValue)", value)
        }
        try await recorder.next(.block, "publish.0")
        transport.setNetworkDown(true)
        let failed = try await recorder.next(.block, "publish.2")
        #expect((failed.value as? PNError)?.code == kPNRequestExecutionFailedOnInternetFailureError)
        try await recorder.next(.delegate, "didDisconnectWithError")
        transport.setNetworkDown(false)
        try await recorder.next(.delegate, "didConnect", within: 5)
        #expect(transport.targets.filter { $0.hasPrefix("/publish/") }.count == 1)
    }

    @Test func unsubscribingDuringAnOutageShrinksTheRestoreWithoutTraffic() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await Self.connected(recorder, transport)
        let a = ClientEngineSubscriptionTests.unique("a")
        let b = ClientEngineSubscriptionTests.unique("b")
        client.subscribeOnChannels(PNChannel.channelsWithNames([a, b]))
        try await recorder.next(.delegate, "didSubscribe")
        transport.setNetworkDown(true)
        try await recorder.next(.delegate, "didDisconnectWithError")
        client.unsubscribeFromChannel(PNChannel.channelWithName(a)) { _, error in recorder.block("unsubscribe", error) }
        let done = try await recorder.next(.block, "unsubscribe")
        #expect(done.value == nil)
        transport.setNetworkDown(false)
        let restored = try await recorder.next(.delegate, "willRestoreSubscription", within: 5)
        #expect(restored.channelNames == [b])
        try await recorder.next(.delegate, "didRestoreSubscription")
        #expect(!transport.targets.contains { $0.contains("/leave") })
    }

    @Test func refusingToReconnectEndsDisconnected() async throws {
        let recorder = EventRecorder()
        recorder.reconnectAnswer.set(NSNumber(value: false))
        let transport = FakeTransport.origin()
        let client = try await Self.connected(recorder, transport)
        client.subscribeOnChannel(PNChannel.channelWithName(ClientEngineSubscriptionTests.unique("r")))
        try await recorder.next(.delegate, "didSubscribe")
        transport.setNetworkDown(true)
        try await recorder.next(.delegate, "didDisconnectWithError")
        transport.setNetworkDown(false)
        let deadline = Date().addingTimeInterval(5)
        while client.engine.connectionStateNow != .disconnected {
            if Date() > deadline { throw RecorderTimeout(wanted: "state disconnected", seen: []) }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(recorder.all(.delegate, "willConnect").count == 1)
        #expect(client.subscribedChannels().isEmpty)
    }

    static func tlsRefusingOrigin() -> FakeTransport {
        FakeTransport.origin { request in
            request.url.scheme == "https" ? .fail(.tls(code: -1202, description: "certificate untrusted")) : nil
        }
    }

    @Test func aTLSFailureIsReportedAndNeverDowngradedByDefault() async throws {
        let recorder = EventRecorder()
        let transport = Self.tlsRefusingOrigin()
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configuration.useSecureConnection = true
        let client = PubNub.testing(configuration: configuration, recorder: recorder, transport: transport)
        client.connectWithSuccessBlock(nil) { recorder.block("connectError", $0) }
        let failed = try await recorder.next(.block, "connectError", within: 15)
        #expect(failed.error?.category == .tlsFailure)
        #expect(transport.requests.allSatisfy { $0.url.scheme == "https" })
    }

    @Test func theTLSRequirementMayBeWaivedByConfiguration() async throws {
        let recorder = EventRecorder()
        let transport = Self.tlsRefusingOrigin()
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configuration.useSecureConnection = true
        configuration.ignoreSecureConnectionRequirement = true
        let client = PubNub.testing(configuration: configuration, recorder: recorder, transport: transport)
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: nil)
        try await recorder.next(.block, "connect")
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        let time = try await recorder.next(.block, "time")
        #expect(time.error == nil)
        #expect(transport.requests.last?.url.scheme == "http")
    }

    @Test func whereValidationCanBeRelaxedTheLadderRetriesWithRelaxedValidationBeforePlainHTTP() async throws {
        // Linux cannot relax validation, so the fake transport says it can, as on Apple platforms: the fake origin
        // accepts a relaxed https request (as an Apple URLSession that accepted the certificate would).
        let recorder = EventRecorder()
        let transport = FakeTransport.origin(canRelaxCertificateValidation: true) { request in
            request.url.scheme == "https" && !request.relaxedCertificateValidation
                ? .fail(.tls(code: -1202, description: "certificate untrusted")) : nil
        }
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configuration.useSecureConnection = true
        configuration.reduceSecurityLevelOnError = true
        configuration.ignoreSecureConnectionRequirement = true
        let client = PubNub.testing(configuration: configuration, recorder: recorder, transport: transport)
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect")
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        #expect(try await recorder.next(.block, "time").error == nil)
        // Strict first, then relaxed TLS for everything; never plain HTTP, since relaxed validation sufficed.
        #expect(transport.requests.first.map { $0.url.scheme == "https" && !$0.relaxedCertificateValidation } == true)
        #expect(
            transport.requests.dropFirst().allSatisfy { $0.url.scheme == "https" && $0.relaxedCertificateValidation }
        )
        #expect(recorder.names(.delegate) == ["willConnect", "didConnect", "didReceiveTimeToken"])
    }

    @Test func withoutRelaxationTheReduceSettingAloneReportsTheFailureAfterOneAttempt() async throws {
        let recorder = EventRecorder()
        let transport = Self.tlsRefusingOrigin()
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configuration.useSecureConnection = true
        configuration.reduceSecurityLevelOnError = true
        // The transport cannot relax validation (FakeTransport's default). A slow run must not add a timed-out
        // attempt, nor a reachability probe (`/time/0`, 10 s after the failure), among the requests counted below.
        let client = PubNub.testing(
            configuration: configuration,
            recorder: recorder,
            transport: transport,
            timings: EngineTimings.quietProbe.connectAttempts(timingOutAfter: 120)
        )
        client.connectWithSuccessBlock(nil) { recorder.block("connectError", $0) }
        let failed = try await recorder.next(.block, "connectError", within: 60)
        #expect(failed.error?.category == .tlsFailure && failed.error?.code == -1202)
        #expect(transport.requests.filter { $0.url.path == "/time/0" }.count == 1)
        #expect(transport.requests.allSatisfy { $0.url.scheme == "https" && !$0.relaxedCertificateValidation })
    }

    @Test func reapplyingAnEqualConfigurationKeepsTheFallbackWithoutAReset() async throws {
        let recorder = EventRecorder()
        let transport = Self.tlsRefusingOrigin()
        let configuration = PNConfiguration.testing(origin: "fake.origin:1")
        configuration.useSecureConnection = true
        configuration.ignoreSecureConnectionRequirement = true
        let client = PubNub.testing(configuration: configuration, recorder: recorder, transport: transport)
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: nil)
        try await recorder.next(.block, "connect")
        let same = PNConfiguration.testing(origin: "fake.origin:1")
        same.useSecureConnection = true
        same.ignoreSecureConnectionRequirement = true
        client.setConfiguration(same)
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        #expect(try await recorder.next(.block, "time").error == nil)
        #expect(transport.requests.last?.url.scheme == "http")
        #expect(recorder.names(.delegate) == ["willConnect", "didConnect", "didReceiveTimeToken"])
    }
}
