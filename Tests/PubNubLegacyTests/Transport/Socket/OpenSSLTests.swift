import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The run-time loader of OpenSSL.
@Suite struct OpenSSLTests {
    /// True where the socket transport speaks TLS: Linux with OpenSSL.
    static var loaded: Bool {
        (try? OpenSSL.shared.get()) != nil
    }

    @Test func everyFunctionResolvesOnLinux() {
        #if os(Linux)
        // FoundationNetworking links OpenSSL, so the library is there wherever this package runs on Linux.
        if case .failure(let failure) = OpenSSL.shared {
            Issue.record("OpenSSL did not load: \(failure)")
        }
        #else
        #expect(!Self.loaded)
        #endif
    }

    @Test func aMissingLibraryIsNamed() {
        let result = OpenSSL.load(candidates: [("libssl-missing.so.9", "libcrypto-missing.so.9")])
        guard case .failure(let failure) = result else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(failure.reason.hasPrefix("libssl-missing.so.9 cannot be loaded"), "\(failure)")
    }

    @Test func aMissingFunctionIsNamed() throws {
        #if os(Linux)
        let library = try #require(dlopen("libssl.so.3", RTLD_NOW))
        let result = OpenSSL.resolve { name in name == "SSL_set1_host" ? nil : dlsym(library, name) }
        guard case .failure(let failure) = result else {
            Issue.record("resolved without SSL_set1_host")
            return
        }
        #expect(failure.reason == "the function SSL_set1_host is missing")
        #endif
    }

    @Test func withoutOpenSSLTLSGoesToURLSessionAndTheFallbackIsLoggedOnce() async throws {
        let lines = Locked<[String]>([])
        let notice = TLSFallbackNotice(reason: { "libssl.so.3 cannot be loaded" }) { line in
            lines.withLock { $0.append(line) }
        }
        let sockets = SocketTransport(maximumConnections: 1, label: "test", openSSL: nil)
        #expect(!sockets.supportsTLS)
        let session = FakeTransport { _ in .respond(200, "session") }
        let routing = RoutingTransport(sockets: sockets, platform: .current(socketsCarryTLS: sockets.supportsTLS)) {
            notice.fellBack()
            return session
        }
        defer { routing.invalidate() }
        for _ in 0..<2 {
            let answer = await SocketTransportTests.outcome(routing, SocketTransportTests.get("https://a.example/"))
            #expect(try answer.get().body == Data("session".utf8))
        }
        notice.fellBack()
        #expect(session.requests.count == 2)
        #expect(lines.current == ["libssl.so.3 cannot be loaded"])
        // Where nothing failed (Apple platforms), nothing is said.
        let silent = TLSFallbackNotice(reason: { nil }) { line in lines.withLock { $0.append(line) } }
        silent.fellBack()
        #expect(lines.current.count == 1)
    }
}
