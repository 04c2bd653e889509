import Foundation
import LocalOrigin
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct RoutingTransportTests {
    static func request(_ url: String) -> TransportRequest {
        TransportRequest(method: "GET", url: URL(string: url)!, body: nil, timeout: 5)
    }

    /// Linux (the sockets carry everything) and Apple platforms (URLSession carries what leaves the machine).
    static let linux = TransportRoute.Platform(remoteThroughURLSession: false)
    static let apple = TransportRoute.Platform(remoteThroughURLSession: true)

    @Test func onApplePlatformsTheSessionTransportIsCreatedAtTheFirstRequestRoutedToIt() async throws {
        let plain = FakeTransport { _ in .respond(200, "plain") }
        let secure = FakeTransport { _ in .respond(200, "secure") }
        let created = Locked(0)
        let routing = RoutingTransport(sockets: plain, platform: Self.apple) {
            created.withLock { $0 += 1 }
            return secure
        }
        defer { routing.invalidate() }
        let first = try await SocketTransportTests.outcome(routing, Self.request("http://127.0.0.1/time/0")).get()
        #expect(String(decoding: first.body, as: UTF8.self) == "plain")
        #expect(created.current == 0)
        for _ in 0..<2 {
            let answer = try await SocketTransportTests.outcome(routing, Self.request("https://a.example/time/0")).get()
            #expect(String(decoding: answer.body, as: UTF8.self) == "secure")
        }
        #expect(created.current == 1)
        #expect(plain.requests.count == 1)
        #expect(secure.requests.count == 2)
    }

    @Test func invalidateReachesBothAndLaterSessionRequestsAreCancelled() async throws {
        let created = Locked(0)
        let routing = RoutingTransport(sockets: FakeTransport { _ in .hold }, platform: Self.apple) {
            created.withLock { $0 += 1 }
            return FakeTransport { _ in .hold }
        }
        let log = CompletionLog()
        routing.send(Self.request("http://127.0.0.1/"), completion: log.completion(0))
        routing.send(Self.request("https://a.example/"), completion: log.completion(1))
        routing.invalidate()
        try await log.waitFor(2)
        #expect(log.results(0) == [.failure(.cancelled)])
        #expect(log.results(1) == [.failure(.cancelled)])
        let later = await SocketTransportTests.outcome(routing, Self.request("https://b.example/"))
        #expect(later == .failure(.cancelled))
        #expect(created.current == 1)
    }

    @Test func theDefaultLanesCarryPlainHTTPOverSockets() async throws {
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("via sockets"), close: false) }
        defer { server.stop() }
        let routing = RoutingTransport(maximumConnections: 2, label: "test")
        defer { routing.invalidate() }
        let answer = try await SocketTransportTests.outcome(routing, Self.request(server.url("/").absoluteString)).get()
        #expect(String(decoding: answer.body, as: UTF8.self) == "via sockets")
        // libcurl would not announce the protocol version header this way; the socket transport's head has it.
        #expect(server.requests.first?.head.contains("Accept-Encoding: identity") == true)
    }

    @Test func onLinuxTheSocketsCarryEverythingAndNoSessionIsMade() async throws {
        let plain = FakeTransport { _ in .respond(200, "sockets") }
        let routing = RoutingTransport(sockets: plain, platform: Self.linux) {
            Issue.record("no URLSession transport should be made")
            return FakeTransport { _ in .respond(200, "session") }
        }
        defer { routing.invalidate() }
        for url in ["http://a.example/", "https://a.example/", "https://127.0.0.1:8443/"] {
            let answer = try await SocketTransportTests.outcome(routing, Self.request(url)).get()
            #expect(String(decoding: answer.body, as: UTF8.self) == "sockets")
        }
        #expect(plain.requests.count == 3)
    }

    /// Where OpenSSL cannot be loaded, the default lanes refuse `https` with a TLS error that says why — at once, and
    /// through no other transport (Linux has no URLSession fallback) — and still carry plain `http`.
    @Test func withoutOpenSSLTheDefaultLanesRefuseHTTPSWithATLSErrorNamingWhy() async throws {
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("plain"), close: false) }
        defer { server.stop() }
        let routing = RoutingTransport(maximumConnections: 2, label: "test") {
            .failure(OpenSSL.LoadFailure(reason: "libssl.so.3 cannot be loaded (no such file)"))
        }
        defer { routing.invalidate() }
        let secure = server.url("/time/0").absoluteString.replacingOccurrences(of: "http://", with: "https://")
        let refused = await SocketTransportTests.outcome(routing, Self.request(secure))
        guard case .failure(.tls(let code, let description)) = refused else {
            Issue.record("expected a TLS failure, got \(refused)")
            return
        }
        #expect(code == -1200)
        #expect(description.contains("OpenSSL") && description.contains("libssl.so.3 cannot be loaded (no such file)"))
        #expect(server.requests.isEmpty, "nothing was sent")
        #expect(!routing.canRelaxCertificateValidation)
        let plain = try await SocketTransportTests.outcome(routing, Self.request(server.url("/").absoluteString)).get()
        #expect(String(decoding: plain.body, as: UTF8.self) == "plain")
    }

    @Test(.enabled(if: OpenSSLTests.loaded)) func theDefaultLanesCarryTLSOverSocketsWhereOpenSSLIs() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(forwardingTo: origin.port, identity: try await authority.issue("origin"))
        defer { proxy.stop() }
        let routing = RoutingTransport(maximumConnections: 2, label: "test")
        defer { routing.invalidate() }
        #expect(routing.canRelaxCertificateValidation)
        var request = Self.request("https://\(proxy.address)/time/0")
        request.trust = TLSTrust(anchorCertificatesFile: authority.caFile.path)
        let answer = try await SocketTransportTests.outcome(routing, request).get()
        #expect(answer.status == 200)
        // The socket transport's head, not libcurl's, reached the origin.
        #expect(origin.requestLog.count == 1)
        #expect(proxy.connections == [.tls])
    }

    // MARK: - The route (TransportRoute)

    @Test(
        arguments: [
            // Apple platforms: everything that leaves the machine through URLSession, plain http included.
            ("http://pubsub.pubnub.com/time/0", apple, TransportRoute.urlSession),
            ("https://pubsub.pubnub.com/time/0", apple, .urlSession),
            ("http://10.0.0.2:8090/time/0", apple, .urlSession),
            ("http://127.0.0.1:8090/time/0", apple, .sockets),
            ("http://localhost:8090/time/0", apple, .sockets),
            ("http://[::1]:8090/time/0", apple, .sockets),
            ("https://127.0.0.1:8443/time/0", apple, .urlSession),  // no TLS on the sockets there
            // Linux: the sockets, for everything (https needs OpenSSL there, and fails with a TLS error without it).
            ("http://pubsub.pubnub.com/time/0", linux, .sockets),
            ("https://pubsub.pubnub.com/time/0", linux, .sockets),
            ("https://127.0.0.1:8443/time/0", linux, .sockets),
        ]
    )
    func eachRequestTakesItsPlatformsRoute(url: String, platform: TransportRoute.Platform, route: TransportRoute) {
        #expect(TransportRoute.decide(for: URL(string: url)!, on: platform) == route)
    }

    @Test func loopbackIsLocalhostTheIPv4LoopbackNetworkAndIPv6Loopback() {
        for host in ["127.0.0.1", "127.255.255.254", "127.1.2.3", "localhost", "LocalHost", "::1", "[::1]"] {
            #expect(TransportRoute.isLoopback(host), "\(host)")
        }
        for host in [
            "128.0.0.1", "10.0.0.1", "127.0.0", "127.0.0.1.5", "1270.0.0.1", "127.0.0.256", "localhost.example.com",
            "example.localhost.com", "::2", "", "pubsub.pubnub.com",
        ] {
            #expect(!TransportRoute.isLoopback(host), "\(host)")
        }
        #expect(!TransportRoute.isLoopback(nil))
    }

    @Test func publishesArePipelinedOnlyWhereTheOriginIsReachedOverTheSockets() {
        #expect(TransportRoute.plainHTTPUsesSockets(origin: "pubsub.pubnub.com", on: Self.linux))
        #expect(TransportRoute.plainHTTPUsesSockets(origin: "127.0.0.1:8090", on: Self.apple))
        #expect(TransportRoute.plainHTTPUsesSockets(origin: "[::1]:8090", on: Self.apple))
        #expect(!TransportRoute.plainHTTPUsesSockets(origin: "pubsub.pubnub.com", on: Self.apple))
        #expect(!TransportRoute.plainHTTPUsesSockets(origin: "192.168.1.20:8090", on: Self.apple))
    }

    /// The Apple rule carried out: a remote plain-http request reaches the URLSession transport, a loopback one the
    /// sockets.
    @Test func onApplePlatformsOnlyLoopbackTrafficUsesTheSockets() async throws {
        let sockets = FakeTransport { _ in .respond(200, "sockets") }
        let routing = RoutingTransport(sockets: sockets, platform: Self.apple) {
            FakeTransport { _ in .respond(200, "session") }
        }
        defer { routing.invalidate() }
        for (url, carrier) in [
            ("http://pubsub.pubnub.com/time/0", "session"), ("http://127.0.0.1:8090/time/0", "sockets"),
            ("https://pubsub.pubnub.com/time/0", "session"), ("http://localhost:8090/time/0", "sockets"),
        ] {
            let answer = try await SocketTransportTests.outcome(routing, Self.request(url)).get()
            #expect(String(decoding: answer.body, as: UTF8.self) == carrier, "\(url)")
        }
        #expect(sockets.requests.count == 2)
    }
}
