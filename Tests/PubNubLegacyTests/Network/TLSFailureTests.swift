import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every kind of TLS failure, met by a client's connect against a TLS terminator with certificates from a CA made at
/// test time: reported as one clear `PNError` (category `.tlsFailure`, URL-loading domain, Apple's code, a text
/// that says what was wrong) on all four channels, with nothing sent in plain HTTP (docs/BEHAVIOR.md §2.8,
/// docs/DESIGN.md A12: both fallback flags NO).
@Suite(.enabled(if: OpenSSLTests.loaded)) struct TLSFailureTests {
    enum Kind: String, CaseIterable, Sendable {
        case expired
        case notYetValid
        case wrongHost
        case unknownAuthority
        case pinMismatch
        case pinMismatchEvenRelaxed
        case handshakeCut
    }

    @Test(arguments: Kind.allCases)
    func eachTLSFailureIsReportedOnEveryChannelAsAClearTLSError(_ kind: Kind) async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let stranger = try await TestCertificateAuthority()
        defer { stranger.remove() }
        let identity: TestCertificateAuthority.Identity
        switch kind {
        case .expired: identity = try await authority.issue("origin", daysFrom: -10, daysTo: -2)
        case .notYetValid: identity = try await authority.issue("origin", daysFrom: 2, daysTo: 5)
        case .wrongHost: identity = try await authority.issue("origin", san: "DNS:origin.example")
        case .unknownAuthority, .pinMismatch, .pinMismatchEvenRelaxed, .handshakeCut:
            identity = try await authority.issue("origin")
        }
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(
            forwardingTo: origin.port,
            identity: identity,
            mode: kind == .handshakeCut ? .cutHandshake : .relay
        )
        defer { proxy.stop() }
        let otherKey = try await stranger.pin(of: stranger.caFile)
        let harness = TLSFallbackTests.Harness(origin: proxy.address) { configuration in
            configuration.anchorCertificatesFile = (kind == .unknownAuthority ? stranger : authority).caFile.path
            if kind == .pinMismatch || kind == .pinMismatchEvenRelaxed {
                configuration.pinnedPublicKeyHashes = [otherKey]
            }
            configuration.reduceSecurityLevelOnError = kind == .pinMismatchEvenRelaxed
        }
        defer { harness.stop() }
        try await harness.connect()
        let error = try harness.connectionError()
        let (code, text): (URLError.Code, String) =
            switch kind {
            case .expired: (.serverCertificateHasBadDate, "The certificate of 127.0.0.1 has expired")
            case .notYetValid: (.serverCertificateNotYetValid, "The certificate of 127.0.0.1 is not valid yet")
            case .wrongHost: (.serverCertificateUntrusted, "The certificate of 127.0.0.1 does not name 127.0.0.1")
            case .unknownAuthority:
                (
                    .serverCertificateUntrusted,
                    "The certificate of 127.0.0.1 is not issued by an authority in the anchor certificates in "
                        + stranger.caFile.path
                )
            case .pinMismatch, .pinMismatchEvenRelaxed:
                (.serverCertificateUntrusted, "The public key of 127.0.0.1 matches none of the pinned keys")
            case .handshakeCut: (.secureConnectionFailed, "The TLS handshake with 127.0.0.1 failed: the connection")
            }
        TLSFallbackTests.expectTLSFailure(error, code: code.rawValue)
        #expect(error.localizedDescription.hasPrefix(text), "\(error.localizedDescription)")
        #expect(harness.entries == harness.failedConnect(error))
        #expect(!harness.client.isConnected())
        #expect(origin.counters.requests == 0)
        // Not one plain request of this client (another test's client may have reached this port: `plainConnections`).
        #expect(proxy.plainConnections(of: [PercentEncoding.escape(harness.client.clientIdentifier() ?? "")]).isEmpty)
        if kind == .pinMismatchEvenRelaxed {
            // The relaxed rung was tried (a second TLS connection) and refused the key as well.
            try await eventually("proxy.connections.count >= 2", within: 20) { proxy.connections.count >= 2 }
            #expect(proxy.connections == [.tls, .tls])
        }
    }

    @Test func aTrustedCertificateConnectsAndTheTrustChangeOfAConfigurationAppliesToTheNextConnection()
        async throws
    {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(forwardingTo: origin.port, identity: try await authority.issue("origin"))
        defer { proxy.stop() }
        let pin = try await authority.pin(of: authority.caFile)
        let harness = TLSFallbackTests.Harness(origin: proxy.address) { configuration in
            configuration.anchorCertificatesFile = authority.caFile.path
            configuration.pinnedPublicKeyHashes = [pin]
        }
        defer { harness.stop() }
        try await harness.connect()
        #expect(harness.entries == harness.normalConnect)
        #expect(harness.client.isConnected())
        // Without the anchors, the system trust store refuses the test CA. The change applies in place (same origin
        // and TLS setting), and a connection verified against other trust is never reused: the next request opens
        // a new one, which fails with TLS.
        let configuration = PNConfiguration.testing(origin: proxy.address)
        configuration.useSecureConnection = true
        configuration.pinnedPublicKeyHashes = [pin]
        harness.client.setConfiguration(configuration)
        let connections = proxy.connections.count
        harness.client.requestServerTimeTokenWithCompletionBlock(harness.four.timeBlock)
        let failed = try await harness.sink.next(.sink, "timeTokenReceiveDidFail", within: 20)
        let error = try #require(failed.error)
        TLSFallbackTests.expectTLSFailure(error, code: URLError.Code.serverCertificateUntrusted.rawValue)
        #expect(error.localizedDescription.contains("the system trust store"), "\(error.localizedDescription)")
        // The terminator prints the refused connection's line once the client's alert reached it, which may be
        // after the client reported the failure.
        try await eventually("the terminator to report a new connection") { proxy.connections.count > connections }
    }
}
