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
        // The test machines have OpenSSL 3 (libssl.so.3); a system without it gets TLS failures naming why.
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

    /// The failure names every pair tried, not only the last: the OpenSSL 3 that failed is what a user must fix.
    @Test func everyLibraryTriedIsNamed() {
        let result = OpenSSL.load(candidates: [("libssl-a.so.9", "libcrypto-a.so.9"), ("libssl-b.so.9", "x.so")])
        guard case .failure(let failure) = result else {
            Issue.record("a missing library loaded")
            return
        }
        let parts = failure.reason.components(separatedBy: "; ")
        #expect(parts.count == 2, "\(failure)")
        #expect(parts.first?.hasPrefix("libssl-a.so.9 cannot be loaded") == true, "\(failure)")
        #expect(parts.last?.hasPrefix("libssl-b.so.9 cannot be loaded") == true, "\(failure)")
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

    /// A whole client that only speaks plain `http` — connect, subscribe, publish, history, time — never asks its
    /// lanes for OpenSSL, so the process never maps libssl and libcrypto (3.4 MB of an idle client's resident memory,
    /// BENCHMARKS.md "Idle client"); its first `https` request does ask.
    @Test func aPlainHTTPClientNeverAsksForOpenSSL() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let asked = Locked(0)
        let openSSL: TLSContextCache.Library = {
            asked.withLock { $0 += 1 }
            return OpenSSL.shared
        }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: .testing(origin: origin.address),
            delegate: recorder,
            eventSinks: [recorder],
            serviceLane: RoutingTransport(maximumConnections: 4, label: "service", openSSL: openSSL),
            longPollLane: RoutingTransport(
                maximumConnections: 2,
                label: "long-poll",
                reusesConnections: false,
                openSSL: openSSL
            )
        )
        defer { client.disconnect() }
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        try await recorder.next(.block, "connect")
        let channel = PNChannel.channelWithName(LocalOriginClientTests.unique("plain"))
        client.subscribeOnChannel(channel) { state, _, _ in recorder.block("subscribe", state) }
        try await recorder.next(.block, "subscribe")
        client.sendMessage("over plain HTTP", toChannel: channel) { state, _ in
            recorder.block("publish.\(state.rawValue)")
        }
        try await recorder.next(.block, "publish.1")
        try await recorder.waitForCount(1, .delegate, "didReceiveMessage")
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time")
        #expect(asked.current == 0, "a plain-http client asked for OpenSSL")
        #expect(client.engine.canRelaxCertificateValidationNow, "asking whether TLS can be relaxed loads OpenSSL")
        #expect(asked.current > 0)
    }
}
