import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Each failure class, with the codes `URLSessionTransport` reports for the same situation.

extension SocketTransportTests {
    static func networkCode(_ result: Result<TransportResponse, TransportFailure>) -> Int? {
        if case .failure(.network(let code, _)) = result { return code }
        return nil
    }

    @Test func aClosedPortCannotConnect() async throws {
        let refusing = try #require(RefusingPort())
        let address = refusing.address
        defer { withExtendedLifetime(refusing) {} }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get("http://\(address)/time/0"))
        #expect(Self.networkCode(result) == NSURLErrorCannotConnectToHost)
    }

    @Test func refusedConnectionsCannotConnectUntilTheOriginListensAgain() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let fault = try origin.inject(.refuseConnections(dropExisting: true))
        let refused = await Self.outcome(transport, Self.get("http://\(origin.address)/time/0"))
        #expect(Self.networkCode(refused) == NSURLErrorCannotConnectToHost)
        try origin.clearFault(fault)
        let answer = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(answer.status == 200)
    }

    @Test func anUnknownHostCannotBeFound() async throws {
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get("http://no-such-host.invalid/time/0"))
        #expect(Self.networkCode(result) == NSURLErrorCannotFindHost)
    }

    @Test(arguments: OriginFault.CutPoint.allCases)
    func aResponseCutShortIsAConnectionLost(point: OriginFault.CutPoint) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.closeMidResponse(point), count: 1)
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get("http://\(origin.address)/time/0"))
        #expect(Self.networkCode(result) == NSURLErrorNetworkConnectionLost)
        #expect(origin.requestLog.count == 1)
    }

    @Test func aConnectionClosedWithoutAnAnswerIsAConnectionLostAndNotResent() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        // Warm the pool, so the request goes out on a reused connection.
        _ = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        try origin.inject(.neverAnswer, on: .operation(.publish), count: 1)
        let log = CompletionLog()
        transport.send(Self.get("http://\(origin.address)/publish/p/s/0/ch/0/1"), completion: log.completion(0))
        try await eventually("origin.faultCounters.unanswered == 1", within: 20) {
            origin.faultCounters.unanswered == 1
        }
        try origin.clearFaults()
        try await log.waitFor(1)
        #expect(Self.networkCode(log.results(0)[0]) == NSURLErrorNetworkConnectionLost)
        // A later request through the one slot is answered after any re-send of the publish would have gone out.
        let later = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(later.status == 200)
        #expect(origin.faultCounters.unanswered == 1)
        #expect(origin.counters.publishes == 0)
    }

    @Test func aServerErrorIsAnAnswer() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.serverError(status: 503), count: 1)
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let answer = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(answer.status == 503)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("\"status\":503"))
        let next = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(next.status == 200)
    }

    @Test func malformedAndNonUTF8BodiesArriveAsSent() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.malformedJSON, count: 1)
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let malformed = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(String(decoding: malformed.body, as: UTF8.self) == "[[{\"truncated\":")
        try origin.inject(.nonUTF8, count: 1)
        let bytes = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(bytes.body.contains(0xFF))
    }

    @Test func noAnswerWithinTheTimeoutIsATimeout() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.neverAnswer, count: 1)
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get("http://\(origin.address)/time/0", timeout: 0.3))
        #expect(result == .failure(.timedOut))
        // A slow answer that keeps within the idle timeout is not one.
        try origin.inject(.delay(0.2), count: 1)
        let slow = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0", timeout: 2)).get()
        #expect(slow.status == 200)
    }

    @Test func theOriginRestartingDropsPooledConnectionsQuietly() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        _ = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        try origin.restart(keepingStore: true)
        try await eventually("the restart's close to reach the idle connection") {
            transport.staleIdleConnectionCount == 1
        }
        let answer = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
        #expect(answer.status == 200)
    }

    @Test func aURLThatIsNotHTTPIsRefusedAsynchronously() async throws {
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let result = await Self.outcome(transport, Self.get("ftp://127.0.0.1:9/"))
        #expect(result == .failure(SocketFailure.unsupportedURL))
    }

    @Test func withoutOpenSSLAnHTTPSURLIsRefusedAsynchronouslyWithATLSErrorNamingWhy() async throws {
        let failure = OpenSSL.LoadFailure(reason: "libssl.so.1.1 cannot be loaded (no such file)")
        let transport = SocketTransport(maximumConnections: 1, label: "test", openSSL: { .failure(failure) })
        defer { transport.invalidate() }
        #expect(!transport.supportsTLS && !transport.canRelaxCertificateValidation)
        let result = await Self.outcome(transport, Self.get("https://127.0.0.1:9/"))
        #expect(result == .failure(SocketFailure.openSSLUnavailable(failure)))
        guard case .failure(.tls(let code, let description)) = result else {
            Issue.record("expected a TLS failure, got \(result)")
            return
        }
        #expect(code == URLError.Code.secureConnectionFailed.rawValue)
        #expect(description.contains("libssl.so.1.1 cannot be loaded (no such file)"), "\(description)")
    }

    /// OpenSSL is asked for at the first `https` request, never for plain `http` (a plain-http process does not map
    /// libssl and libcrypto: BENCHMARKS.md "Idle client").
    @Test func openSSLIsAskedForOnlyByHTTPSRequests() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let asked = Locked(0)
        let transport = SocketTransport(maximumConnections: 1, label: "test") {
            asked.withLock { $0 += 1 }
            return .failure(OpenSSL.LoadFailure(reason: "not in this test"))
        }
        defer { transport.invalidate() }
        for _ in 0..<3 {
            let answer = try await Self.outcome(transport, Self.get("http://\(origin.address)/time/0")).get()
            #expect(answer.status == 200)
        }
        #expect(asked.current == 0)
        let refused = await Self.outcome(transport, Self.get("https://\(origin.address)/time/0"))
        guard case .failure(.tls) = refused else {
            Issue.record("expected a TLS failure, got \(refused)")
            return
        }
        #expect(asked.current > 0)
        #expect(origin.counters.requests == 3)
    }
}
