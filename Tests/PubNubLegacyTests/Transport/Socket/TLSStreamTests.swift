import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// TLS on the socket transport (`TLSStream`, `TLSContext`, OpenSSL loaded at run time), against a TLS terminator with
/// certificates from a CA made at test time, in front of a LocalOrigin.
///
/// Linux only: Apple platforms keep URLSession for TLS, so the socket transport refuses `https` there.
@Suite(.enabled(if: OpenSSLTests.loaded)) struct TLSStreamTests {
    /// A LocalOrigin behind a terminator serving `identity` (signed by `authority`).
    final class Rig: @unchecked Sendable {
        // @unchecked: every member is a `let` of a thread-safe type, set in `init`.
        let authority: TestCertificateAuthority
        let origin: LocalOrigin
        let proxy: TLSProxy

        private init(authority: TestCertificateAuthority, origin: LocalOrigin, proxy: TLSProxy) {
            self.authority = authority
            self.origin = origin
            self.proxy = proxy
        }

        /// A rig whose terminator serves a certificate issued by `issue` (default: valid for 127.0.0.1) and relays to
        /// the origin, or to `upstream` when given.
        static func start(
            mode: TLSProxy.Mode = .relay,
            upstream: UInt16? = nil,
            issue: (TestCertificateAuthority) async throws -> TestCertificateAuthority.Identity = {
                try await $0.issue("origin")
            }
        ) async throws -> Rig {
            let authority = try await TestCertificateAuthority()
            do {
                let identity = try await issue(authority)
                let origin = try LocalOrigin.start()
                do {
                    let proxy = try await TLSProxy.start(
                        forwardingTo: upstream ?? origin.port,
                        identity: identity,
                        mode: mode
                    )
                    return Rig(authority: authority, origin: origin, proxy: proxy)
                } catch {
                    origin.stop()
                    throw error
                }
            } catch {
                authority.remove()
                throw error
            }
        }

        func stop() {
            self.proxy.stop()
            self.origin.stop()
            self.authority.remove()
        }

        /// `https://127.0.0.1:PORT/time/0` through the terminator, trusting this rig's CA unless told otherwise.
        func time(
            trust: TLSTrust? = nil,
            relaxed: Bool = false,
            timeout: TimeInterval = 20,
            host: String = "127.0.0.1"
        ) -> TransportRequest {
            var request = SocketTransportTests.get("https://\(host):\(self.proxy.port ?? 0)/time/0", timeout: timeout)
            request.trust = trust ?? TLSTrust(anchorCertificatesFile: self.authority.caFile.path)
            request.relaxedCertificateValidation = relaxed
            return request
        }
    }

    static let handshakeFailed = URLError.Code.secureConnectionFailed.rawValue
    static let untrusted = URLError.Code.serverCertificateUntrusted.rawValue

    /// The TLS failure's code and text, or a test failure naming what came instead.
    static func tlsFailure(
        _ result: Result<TransportResponse, TransportFailure>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (code: Int, text: String)? {
        guard case .failure(.tls(let code, let text)) = result else {
            Issue.record("expected a TLS failure, got \(result)", sourceLocation: sourceLocation)
            return nil
        }
        return (code, text)
    }

    // MARK: - Traffic

    @Test func requestsGoOverTLSAndShareOneKeptAliveConnection() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        #expect(transport.supportsTLS)
        for _ in 0..<3 {
            let answer = try await SocketTransportTests.outcome(transport, rig.time()).get()
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("["))
        }
        // A publish with a body too, on the same connection.
        var publish = SocketTransportTests.get(
            "https://127.0.0.1:\(rig.proxy.port ?? 0)/publish/demo/demo/0/tls/0?uuid=u",
            timeout: 20
        )
        publish.method = "POST"
        publish.body = Data("\"over TLS\"".utf8)
        publish.trust = TLSTrust(anchorCertificatesFile: rig.authority.caFile.path)
        let published = try await SocketTransportTests.outcome(transport, publish).get()
        #expect(published.status == 200)
        #expect(rig.origin.counters.publishes == 1)
        #expect(rig.proxy.connections == [.tls])
        #expect(transport.idleConnectionCount == 1)
        // The Host header names the default-less port, as for plain HTTP.
        #expect(rig.origin.requestLog.count == 4)
    }

    @Test func anIdleTLSConnectionTheServerClosedIsReplacedWithoutAFailure() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        _ = try await SocketTransportTests.outcome(transport, rig.time()).get()
        #expect(transport.idleConnectionCount == 1)
        rig.origin.closeAllConnections()
        // The terminator passes the close on; the next request goes out once it has reached the client's socket.
        try await eventually("the close to reach the idle TLS connection") { transport.staleIdleConnectionCount == 1 }
        let second = try await SocketTransportTests.outcome(transport, rig.time()).get()
        #expect(second.status == 200)
        #expect(rig.proxy.connections == [.tls, .tls])
    }

    @Test func relaxedAndStrictRequestsNeverShareAConnection() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        let caPin = try #require(PNConfiguration.pinDigest(try await rig.authority.pin(of: rig.authority.caFile)))
        let pinned = TLSTrust(anchorCertificatesFile: rig.authority.caFile.path, pinnedKeyDigests: [caPin])
        for _ in 0..<2 {
            for request in [rig.time(relaxed: true), rig.time(), rig.time(trust: pinned)] {
                #expect(try await SocketTransportTests.outcome(transport, request).get().status == 200)
            }
        }
        // Three kinds of checks, three connections, each reused by its own kind only: none was lent to a request
        // that asked for other checks.
        #expect(rig.proxy.connections == [.tls, .tls, .tls])
        #expect(transport.idleConnectionCount == 3)
    }

    @Test func writingToAConnectionTheServerResetFailsWithoutEndingTheProcess() async throws {
        // OpenSSL writes with `write`, which raises SIGPIPE on a reset connection; the workers block that signal.
        // The terminator completes the handshake, finds no origin and closes; the client is still writing a large
        // body, so its later writes meet the reset. The terminator relays to a port bound without listening, which
        // refuses connections and which no other server can take while the test runs (a stopped origin's port goes
        // back to the kernel: in a loaded parallel run another test's LocalOrigin took it and answered 413).
        let dead = LoopbackSocket.tcp()
        try #require(dead >= 0)
        defer { close(dead) }
        try #require(LoopbackSocket.bind(dead, port: 0) == 0)
        let port: UInt16 = try #require(LoopbackSocket.localPort(dead))
        let rig = try await Rig.start(upstream: port)
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        for _ in 0..<3 {
            var request = rig.time()
            request.method = "POST"
            request.body = Data(repeating: 0x20, count: 4_000_000)
            let result = await SocketTransportTests.outcome(transport, request)
            #expect(result == .failure(SocketFailure.connectionLost))
        }
    }

    // MARK: - Failures

    @Test func anExpiredCertificateIsRefusedWithBadDate() async throws {
        let rig = try await Rig.start { try await $0.issue("expired", daysFrom: -30, daysTo: -1) }
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let failure = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time()))
        #expect(failure?.code == URLError.Code.serverCertificateHasBadDate.rawValue)
        #expect(failure?.text.contains("The certificate of 127.0.0.1 has expired") == true, "\(failure?.text ?? "")")
        #expect(rig.origin.counters.requests == 0)
    }

    @Test func aCertificateNotYetValidIsRefused() async throws {
        let rig = try await Rig.start { try await $0.issue("future", daysFrom: 1, daysTo: 3) }
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let failure = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time()))
        #expect(failure?.code == URLError.Code.serverCertificateNotYetValid.rawValue)
        #expect(failure?.text.contains("is not valid yet") == true, "\(failure?.text ?? "")")
    }

    @Test func aCertificateForAnotherHostIsRefused() async throws {
        let rig = try await Rig.start { try await $0.issue("elsewhere", san: "DNS:wrong.example,IP:10.9.8.7") }
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let byAddress = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time()))
        #expect(byAddress?.code == Self.untrusted)
        #expect(byAddress?.text.contains("does not name 127.0.0.1") == true, "\(byAddress?.text ?? "")")
        // A host name is checked against the certificate's names the same way.
        let byName = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time(host: "localhost")))
        #expect(byName?.code == Self.untrusted)
        #expect(byName?.text.contains("does not name localhost") == true, "\(byName?.text ?? "")")
        #expect(rig.origin.counters.requests == 0)
    }

    @Test func aCertificateFromAnUnknownAuthorityIsRefused() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        // The system trust store does not know the test CA.
        let system = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time(trust: TLSTrust())))
        #expect(system?.code == Self.untrusted)
        #expect(
            system?.text.contains("is not issued by an authority in the system trust store") == true,
            "\(system?.text ?? "")"
        )
        // Nor does another test CA.
        let other = try await TestCertificateAuthority()
        defer { other.remove() }
        let foreign = TLSTrust(anchorCertificatesFile: other.caFile.path)
        let refused = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time(trust: foreign)))
        #expect(refused?.code == Self.untrusted)
        #expect(refused?.text.contains("an authority in the anchor certificates in \(other.caFile.path)") == true)
        #expect(rig.origin.counters.requests == 0)
    }

    @Test func aSelfSignedCertificateIsRefusedStrictAndAcceptedRelaxed() async throws {
        let rig = try await Rig.start { try await $0.issue("self", selfSigned: true) }
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let strict = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time()))
        #expect(strict?.code == Self.untrusted)
        #expect(strict?.text.contains("self-signed") == true, "\(strict?.text ?? "")")
        let relaxed = try await SocketTransportTests.outcome(transport, rig.time(relaxed: true)).get()
        #expect(relaxed.status == 200)
    }

    @Test func aMissingAnchorsFileFailsTheHandshakeNamingTheFile() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let missing = rig.authority.folder.appendingPathComponent("missing.pem").path
        let failure = Self.tlsFailure(
            await SocketTransportTests.outcome(transport, rig.time(trust: TLSTrust(anchorCertificatesFile: missing)))
        )
        #expect(failure?.code == Self.handshakeFailed)
        #expect(
            failure?.text.hasPrefix("TLS cannot be set up: the anchor certificates file \(missing) cannot be loaded")
                == true,
            "\(failure?.text ?? "")"
        )
    }

    /// Every certificate of an anchors file is an anchor, a CA's or not, as the Security framework's anchors are
    /// (`TrustEvaluation`): a file holding only the server's own certificate trusts that server, and no other.
    @Test func anAnchorsFileMayListTheServersOwnCertificate() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let other = try await rig.authority.issue("other")
        let onlyOther = TLSTrust(anchorCertificatesFile: other.certificate.path)
        let refused = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time(trust: onlyOther)))
        #expect(refused?.code == Self.untrusted)
        // The rig's terminator serves "origin"; trusting exactly that certificate works.
        let served = rig.authority.folder.appendingPathComponent("origin.pem")
        let answer = try await SocketTransportTests.outcome(
            transport,
            rig.time(trust: TLSTrust(anchorCertificatesFile: served.path))
        ).get()
        #expect(answer.status == 200)
    }

    // MARK: - Pins

    @Test func aPinOfTheServerOrOfItsAuthorityIsAcceptedAndAnyOtherRefused() async throws {
        let rig = try await Rig.start()
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let leafPin = try await rig.authority.pin(of: rig.authority.folder.appendingPathComponent("origin.pem"))
        let caPin = try await rig.authority.pin(of: rig.authority.caFile)
        let anchors = rig.authority.caFile.path
        for pin in [leafPin, caPin] {
            let digest = try #require(PNConfiguration.pinDigest(pin))
            let trust = TLSTrust(anchorCertificatesFile: anchors, pinnedKeyDigests: [digest])
            let answer = try await SocketTransportTests.outcome(transport, rig.time(trust: trust)).get()
            #expect(answer.status == 200)
        }
        let wrong = TLSTrust(anchorCertificatesFile: anchors, pinnedKeyDigests: [SHA256.hash("another key")])
        let failure = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time(trust: wrong)))
        #expect(failure?.code == Self.untrusted)
        #expect(failure?.text.contains("The public key of 127.0.0.1 matches none of the pinned keys") == true)
        // The failure names the server's own pin, so a configuration can be checked against it.
        #expect(failure?.text.contains(leafPin) == true, "\(failure?.text ?? "") vs \(leafPin)")
    }

    @Test func relaxedValidationStillEnforcesPinsAgainstTheServerKeyOnly() async throws {
        let rig = try await Rig.start { try await $0.issue("self", selfSigned: true) }
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let pin = try #require(
            PNConfiguration.pinDigest(
                try await rig.authority.pin(of: rig.authority.folder.appendingPathComponent("self.pem"))
            )
        )
        let pinned = TLSTrust(pinnedKeyDigests: [pin])
        #expect(
            try await SocketTransportTests.outcome(transport, rig.time(trust: pinned, relaxed: true)).get().status
                == 200
        )
        let other = TLSTrust(pinnedKeyDigests: [SHA256.hash("not it")])
        let failure = Self.tlsFailure(
            await SocketTransportTests.outcome(transport, rig.time(trust: other, relaxed: true))
        )
        #expect(failure?.text.contains("matches none of the pinned keys") == true)
    }

    // MARK: - Handshakes that do not finish

    @Test func aHandshakeCutByTheServerIsAHandshakeFailure() async throws {
        let rig = try await Rig.start(mode: .cutHandshake)
        defer { rig.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let failure = Self.tlsFailure(await SocketTransportTests.outcome(transport, rig.time()))
        #expect(failure?.code == Self.handshakeFailed)
        #expect(
            failure?.text.hasPrefix("The TLS handshake with 127.0.0.1 failed: the connection") == true,
            "\(failure?.text ?? "")"
        )
        try await rig.proxy.waitForConnection(.tlsCut)
    }

    @Test func tlsToAPlainHTTPPortIsAHandshakeFailure() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await SocketTransportTests.outcome(
            transport,
            SocketTransportTests.get("https://\(origin.address)/time/0")
        )
        let failure = Self.tlsFailure(result)
        #expect(failure?.code == Self.handshakeFailed)
        #expect(failure?.text.hasPrefix("The TLS handshake with 127.0.0.1 failed: ") == true, "\(failure?.text ?? "")")
        #expect(failure?.text.contains("the server does not speak TLS on this port") == true, "\(failure?.text ?? "")")
        #expect(failure?.text.contains("wrong version number") == true, "\(failure?.text ?? "")")
        #expect(origin.counters.requests == 0)
    }

    @Test func aStalledHandshakeTimesOutAndCanBeCancelled() async throws {
        // A server that accepts and never answers: it waits for an HTTP head, and a ClientHello never ends one.
        let server = try RawHTTPServer { _ in .hangUp }
        defer { server.stop() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let url = "https://127.0.0.1:\(server.port)/time/0"
        let timedOut = await SocketTransportTests.outcome(transport, SocketTransportTests.get(url, timeout: 0.5))
        #expect(timedOut == .failure(.timedOut))
        let log = CompletionLog()
        let task = transport.send(SocketTransportTests.get(url, timeout: 60), completion: log.completion(0))
        try await eventually("server.accepted >= 2", within: 20) { server.accepted >= 2 }
        task.cancel()
        try await log.waitFor(1)
        #expect(log.results(0) == [.failure(.cancelled)])
    }

}
