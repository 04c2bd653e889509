import Foundation
import LocalOrigin
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

    @Test func withoutOpenSSLAnHTTPSURLIsRefusedAsynchronously() async throws {
        let transport = SocketTransport(maximumConnections: 1, label: "test", openSSL: nil)
        defer { transport.invalidate() }
        #expect(!transport.supportsTLS && !transport.canRelaxCertificateValidation)
        let result = await Self.outcome(transport, Self.get("https://127.0.0.1:9/"))
        #expect(result == .failure(SocketFailure.unsupportedURL))
    }
}
