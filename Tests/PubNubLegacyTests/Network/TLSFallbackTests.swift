import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The TLS fallback ladder (docs/BEHAVIOR.md §2.8, docs/DESIGN.md A12; S-11, S-12, S-13) over real sockets. A client
/// with `useSecureConnection` speaks TLS to a LocalOrigin, which only speaks plain HTTP: the handshake fails ("wrong
/// version number" from OpenSSL). The LocalOrigin answers the ClientHello bytes as a framing error (400, then close)
/// without handing anything to the origin, so its request log and request counter stay empty until a plain request
/// arrives. S-11 puts a TLS terminator with a self-signed certificate in front of the origin.
///
/// Where the client's TLS can skip validation (the socket transport's OpenSSL on Linux, URLSession on Apple
/// platforms) the relaxed rung is tried; Linux without OpenSSL has no TLS at all (every rung but plain fails).
@Suite struct TLSFallbackTests {
    /// The TLS codes as Apple platforms number them (FoundationNetworking's `NSURLError…` constants are one lower).
    static let handshakeFailed = URLError.Code.secureConnectionFailed.rawValue
    static let certificateUntrusted = URLError.Code.serverCertificateUntrusted.rawValue

    /// A client with TLS on toward `origin`, listened to on all four channels and, for the payloads, as a sink.
    final class Harness: @unchecked Sendable {
        // @unchecked: every member is a `let` of a thread-safe type, set in `init`.
        let client: PubNub
        let center: PNObservationCenter
        let four: FourChannelRecorder
        let sink = EventRecorder()
        let origin: String

        init(
            origin: String,
            timings: EngineTimings = .standard,
            configure: (PNConfiguration) -> Void = { _ in }
        ) {
            let configuration = PNConfiguration.testing(origin: origin)
            configuration.useSecureConnection = true
            configure(configuration)
            self.origin = origin
            self.client = PubNub(
                configuration: configuration,
                delegate: nil,
                eventSinks: [self.sink],
                timings: timings
            )
            self.center = PNObservationCenter(client: self.client)
            self.four = FourChannelRecorder(client: self.client, center: self.center)
        }

        func stop() {
            self.four.stop()
            self.client.disconnect()
        }

        /// Calls `connect` with the recorder's blocks and waits for the block's answer (either).
        func connect() async throws {
            self.client.connectWithSuccessBlock(self.four.connectSuccess, errorBlock: self.four.connectFailure)
            try await eventually("B:connect; seen: \(self.four.entries.map(\.description))", within: 20) {
                self.four.entries.contains { $0.channel == .block && $0.label.hasPrefix("connect") }
            }
            // Everything the engine decided so far is delivered before the caller looks.
            self.client.engine.flush()
        }

        /// The four channels' entries as `channel:label[key]`.
        var entries: [String] { self.four.entries.map(\.description) }

        /// S-03: will-connect (delegate, notification), then did-connect on all four channels, all with the origin.
        var normalConnect: [String] {
            let key = FourChannelRecorder.key(self.origin)
            return [
                "D:willConnect[\(key)]", "N:\(kPNClientWillConnectToOriginNotification.rawValue)[\(key)]",
                "D:didConnect[\(key)]", "O:connection:up[\(key)]",
                "N:\(kPNClientDidConnectToOriginNotification.rawValue)[\(key)]", "B:connect[\(key)]",
            ]
        }

        /// Will-connect, then connection-failed with `error` on all four channels.
        func failedConnect(_ error: PNError) -> [String] {
            let key = FourChannelRecorder.key(self.origin)
            let failure = FourChannelRecorder.key(error)
            return [
                "D:willConnect[\(key)]", "N:\(kPNClientWillConnectToOriginNotification.rawValue)[\(key)]",
                "D:connectionDidFail[\(failure)]", "O:connection:error[\(failure)]",
                "N:\(kPNClientConnectionDidFailWithErrorNotification.rawValue)[\(failure)]",
                "B:connect.error[\(failure)]",
            ]
        }

        /// The one connection-failed error the sink saw.
        func connectionError() throws -> PNError {
            let failures = self.sink.all(.sink, "connectionDidFail")
            #expect(failures.count == 1)
            return try #require(failures.first?.error)
        }
    }

    /// Checks that `error` is the TLS failure of S-13: TLS category, URL-loading domain and `code`, none of the
    /// network codes.
    static func expectTLSFailure(_ error: PNError, code: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.category == .tlsFailure, sourceLocation: sourceLocation)
        #expect(error.domain == NSURLErrorDomain, sourceLocation: sourceLocation)
        #expect(error.code == code, sourceLocation: sourceLocation)
        let networkCodes = [
            kPNClientConnectionFailedOnInternetFailureError, kPNClientConnectionClosedOnInternetFailureError,
            kPNRequestExecutionFailedOnInternetFailureError,
        ]
        #expect(!networkCodes.contains(error.code), sourceLocation: sourceLocation)
    }

    // MARK: - TLS against a plain-HTTP port

    @Test func s13TheTLSFailureIsReportedOnEveryChannelAndNoPlainRequestIsSent() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let harness = Harness(origin: origin.address)
        defer { harness.stop() }
        try await harness.connect()
        let error = try harness.connectionError()
        Self.expectTLSFailure(error, code: Self.handshakeFailed)
        #expect(harness.entries == harness.failedConnect(error))
        #expect(!harness.client.isConnected())
        #expect(origin.requestLog.isEmpty)
        #expect(origin.counters.requests == 0)
    }

    @Test func s12WithTheRequirementWaivedTheClientConnectsOverPlainHTTPWithTheEventsOfANormalConnect() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let harness = Harness(origin: origin.address) { $0.ignoreSecureConnectionRequirement = true }
        defer { harness.stop() }
        try await harness.connect()
        #expect(harness.entries == harness.normalConnect)
        #expect(harness.client.isConnected())
        // The connect's Time request reached the origin in plain HTTP, on the origin's own port.
        #expect(origin.requestLog.map(\.target).contains { $0.hasPrefix("/time/0") })

        // Subscribe and publish work at the fallen-back level.
        let recorder = harness.sink
        let channel = PNChannel.channelWithName(LocalOriginClientTests.unique("tls"))
        harness.client.subscribeOnChannel(channel)
        try await recorder.next(.sink, "didSubscribe", within: 10)
        harness.client.sendMessage("over plain HTTP", toChannel: channel) { state, value in
            recorder.block("send.\(state.rawValue)", value)
        }
        try await recorder.waitForCount(1, .block, "send.\(PNMessageState.PNMessageSent.rawValue)", within: 10)
        try await recorder.waitForCount(1, .sink, "didReceiveMessage", within: 10)
        #expect(recorder.all(.sink, "didReceiveMessage").first?.message?.message as? String == "over plain HTTP")
        #expect(recorder.all(.sink, "connectionDidFail").isEmpty)
        #expect(recorder.all(.sink, "error").isEmpty)
    }

    @Test func reducedValidationAloneCannotRescueAHandshakeWithAPlainHTTPPort() async throws {
        // The relaxed rung only accepts any certificate; a port that does not speak TLS fails the handshake at that
        // rung too. So the failure is reported exactly as with both flags NO, and nothing plain is sent.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let harness = Harness(origin: origin.address) { $0.reduceSecurityLevelOnError = true }
        defer { harness.stop() }
        try await harness.connect()
        let error = try harness.connectionError()
        Self.expectTLSFailure(error, code: Self.handshakeFailed)
        #expect(harness.entries == harness.failedConnect(error))
        #expect(origin.requestLog.isEmpty)
        #expect(origin.counters.requests == 0)
    }

    @Test func aConfigurationThatChangesTheTLSSettingsStartsSecureAgain() async throws {
        // After a fallback, a hard reset to another configuration (here: the same origin with the requirement no
        // longer waived) tries TLS again; it fails and the connection is reported lost instead of staying plain.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        // The test counts the origin's requests: the reachability probe (every 10 s once connected) would add one
        // when a loaded machine stretches the test past 10 s.
        let harness = Harness(origin: origin.address, timings: .quietProbe) {
            $0.ignoreSecureConnectionRequirement = true
        }
        defer { harness.stop() }
        try await harness.connect()
        #expect(harness.client.isConnected())
        let plainRequests = origin.counters.requests
        let strict = PNConfiguration.testing(origin: origin.address)
        strict.useSecureConnection = true
        harness.client.setConfiguration(strict)
        let failed = try await harness.sink.next(.sink, "connectionDidFail", within: 20)
        Self.expectTLSFailure(try #require(failed.error), code: Self.handshakeFailed)
        #expect(!harness.client.isConnected())
        #expect(origin.counters.requests == plainRequests)
    }

    @Test func theRelaxedRungIsTriedAndAHandshakeThatNeverCompletesIsReportedThenOrFallsBackToPlain() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(forwardingTo: origin.port, mode: .cutHandshake)
        defer { proxy.stop() }
        // The test counts the proxy's connections: a reachability probe after the failed connect (every 10 s) would
        // add a handshake when a loaded machine stretches the test past 10 s.
        let reduced = Harness(origin: proxy.address, timings: .quietProbe) { $0.reduceSecurityLevelOnError = true }
        defer { reduced.stop() }
        let canRelax = reduced.client.engine.canRelaxCertificateValidationNow
        #if os(Linux)
        #expect(canRelax == OpenSSLTests.loaded)
        #endif
        try await reduced.connect()
        let error = try reduced.connectionError()
        Self.expectTLSFailure(error, code: Self.handshakeFailed)
        #expect(reduced.entries == reduced.failedConnect(error))
        // Strict, then relaxed where the transport can relax: each handshake cut; nothing plain.
        try await eventually("proxy.connections.count >= (canRelax ? 2 : 1)", within: 20) {
            proxy.connections.count >= (canRelax ? 2 : 1)
        }
        #expect(proxy.connections == Array(repeating: .tlsCut, count: canRelax ? 2 : 1))
        #expect(origin.counters.requests == 0)

        // Both steps allowed: the last rung is plain HTTP on the same port, with the events of a normal connect.
        let both = Harness(origin: proxy.address, timings: .quietProbe) {
            $0.reduceSecurityLevelOnError = true
            $0.ignoreSecureConnectionRequirement = true
        }
        defer { both.stop() }
        try await both.connect()
        #expect(both.entries == both.normalConnect)
        try await proxy.waitForConnection(.plain)
        #expect(proxy.connections.filter { $0 == .tlsCut }.count == (canRelax ? 4 : 2))
    }

    // MARK: - A self-signed certificate (S-11)

    @Test func s11ASelfSignedCertificateIsAcceptedOverTLSWhereValidationCanBeRelaxed() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(forwardingTo: origin.port)
        defer { proxy.stop() }
        let harness = Harness(origin: proxy.address) { $0.reduceSecurityLevelOnError = true }
        defer { harness.stop() }
        let canRelax = harness.client.engine.canRelaxCertificateValidationNow
        #if os(Linux)
        // The socket transport's OpenSSL can relax validation; without OpenSSL there is no TLS to relax.
        #expect(canRelax == OpenSSLTests.loaded)
        #endif
        try await harness.connect()
        if canRelax {
            // The strict handshake refused the certificate, the relaxed one accepted it: S-03 events, still TLS,
            // and traffic flows at that level.
            #expect(harness.entries == harness.normalConnect)
            try await proxy.waitForConnection(.tlsRejected)
            try await proxy.waitForConnection(.tls)
            harness.client.requestServerTimeTokenWithCompletionBlock(harness.four.timeBlock)
            let time = try await harness.sink.next(.sink, "didReceiveTimeToken", within: 10)
            #expect(time.value != nil)
            #expect(origin.requestLog.map(\.target).contains { $0.hasPrefix("/time/0") })
        } else {
            let error = try harness.connectionError()
            Self.expectTLSFailure(error, code: Self.certificateUntrusted)
            #expect(harness.entries == harness.failedConnect(error))
            try await proxy.waitForConnection(.tlsRejected)
            #expect(origin.counters.requests == 0)
            #expect(!proxy.connections.contains(.tls))
        }
        // Not one plain request of this client (another test's client may have reached this port: `plainConnections`).
        #expect(proxy.plainConnections(of: [PercentEncoding.escape(harness.client.clientIdentifier() ?? "")]).isEmpty)
    }

    @Test func s11WithTheRequirementWaivedARefusedCertificateFallsBackToPlainHTTPOnTheSamePort() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(forwardingTo: origin.port)
        defer { proxy.stop() }
        let harness = Harness(origin: proxy.address) { $0.ignoreSecureConnectionRequirement = true }
        defer { harness.stop() }
        try await harness.connect()
        #expect(harness.entries == harness.normalConnect)
        // Strict validation refused the certificate, then plain requests went to the same port. (The proxy prints
        // a refusal when the client's alert arrives, which can be after the plain connection was accepted, so
        // the order of its lines proves nothing; the engine only goes plain after a TLS failure.)
        try await proxy.waitForConnection(.tlsRejected)
        try await proxy.waitForConnection(.plain)
        #expect(!proxy.connections.contains(.tls))
        harness.client.requestServerTimeTokenWithCompletionBlock(harness.four.timeBlock)
        let time = try await harness.sink.next(.sink, "didReceiveTimeToken", within: 10)
        #expect(time.value != nil)
        // The terminator names the request of each plain connection, and this client's carry its uuid: what the
        // tests that must see none of this client's plain requests rely on (`TLSProxy.plainConnections(of:)`).
        let uuid = PercentEncoding.escape(harness.client.clientIdentifier() ?? "")
        let lines = proxy.plainRequestLines
        #expect(lines.contains { $0.hasPrefix("GET /time/0?") && TLSProxy.uuid(inRequestLine: $0) == uuid }, "\(lines)")
        #expect(TLSProxy.plainConnections(in: lines, of: [uuid]).count == lines.count)
        #expect(TLSProxy.plainConnections(in: lines, of: ["someone-else"]).count == lines.filter { $0.isEmpty }.count)
    }
}
