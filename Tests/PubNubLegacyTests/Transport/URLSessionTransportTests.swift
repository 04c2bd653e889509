import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

@Suite struct URLSessionTransportTests {
    /// Sends `request` and waits for its one outcome.
    static func outcome(
        _ transport: URLSessionTransport,
        _ request: TransportRequest
    ) async -> Result<TransportResponse, TransportFailure> {
        await withCheckedContinuation { continuation in
            transport.send(request) { continuation.resume(returning: $0) }
        }
    }

    @Test func answersCarryStatusAndBody() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = URLSessionTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let url = try #require(URL(string: "http://\(origin.address)/time/0?uuid=t"))
        let answer = try await Self.outcome(transport, TransportRequest(method: "GET", url: url, body: nil, timeout: 5))
            .get()
        #expect(answer.status == 200)
        #expect((try? ResponseParser.time(answer).get()) != nil)
        let missing = try #require(URL(string: "http://\(origin.address)/nowhere"))
        let notFound = try await Self.outcome(
            transport,
            TransportRequest(method: "GET", url: missing, body: nil, timeout: 5)
        ).get()
        #expect(notFound.status == 404)
    }

    @Test func aClosedPortIsANetworkFailure() async throws {
        let origin = try LocalOrigin.start()
        let address = origin.address
        origin.stop()
        let transport = URLSessionTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let url = try #require(URL(string: "http://\(address)/time/0"))
        let result = await Self.outcome(transport, TransportRequest(method: "GET", url: url, body: nil, timeout: 5))
        guard case .failure(.network) = result else {
            Issue.record("expected a network failure, got \(result)")
            return
        }
    }

    @Test func sendingAfterInvalidateReportsCancelledInsteadOfTrapping() async throws {
        let transport = URLSessionTransport(maximumConnections: 2, label: "test")
        transport.invalidate()
        transport.invalidate()
        let url = try #require(URL(string: "http://127.0.0.1:9/time/0"))
        let result = await Self.outcome(transport, TransportRequest(method: "GET", url: url, body: nil, timeout: 5))
        #expect(result == .failure(.cancelled))
    }
}
