import Foundation
import LocalOrigin
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct RoutingTransportTests {
    static func request(_ url: String) -> TransportRequest {
        TransportRequest(method: "GET", url: URL(string: url)!, body: nil, timeout: 5)
    }

    @Test func plainGoesToSocketsAndTLSToALazilyCreatedSecondTransport() async throws {
        let plain = FakeTransport { _ in .respond(200, "plain") }
        let secure = FakeTransport { _ in .respond(200, "secure") }
        let created = Locked(0)
        let routing = RoutingTransport(plain: plain) {
            created.withLock { $0 += 1 }
            return secure
        }
        defer { routing.invalidate() }
        let first = try await SocketTransportTests.outcome(routing, Self.request("http://a.example/time/0")).get()
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

    @Test func invalidateReachesBothAndLaterTLSRequestsAreCancelled() async throws {
        let created = Locked(0)
        let routing = RoutingTransport(plain: FakeTransport { _ in .hold }) {
            created.withLock { $0 += 1 }
            return FakeTransport { _ in .hold }
        }
        let log = CompletionLog()
        routing.send(Self.request("http://a.example/"), completion: log.completion(0))
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

    @Test func aSocketTransportThatSpeaksTLSCarriesHTTPSAndNoSessionIsMade() async throws {
        let plain = FakeTransport { _ in .respond(200, "sockets") }
        let routing = RoutingTransport(plain: plain, plainCarriesTLS: true) {
            Issue.record("no URLSession transport should be made")
            return FakeTransport { _ in .respond(200, "session") }
        }
        defer { routing.invalidate() }
        for url in ["http://a.example/", "https://a.example/"] {
            let answer = try await SocketTransportTests.outcome(routing, Self.request(url)).get()
            #expect(String(decoding: answer.body, as: UTF8.self) == "sockets")
        }
        #expect(plain.requests.count == 2)
    }

    @Test(.enabled(if: OpenSSLTests.loaded)) func theDefaultLanesCarryTLSOverSocketsWhereOpenSSLIs() async throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let proxy = try await TLSProxy.start(forwardingTo: origin.port, identity: try authority.issue("origin"))
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
}
