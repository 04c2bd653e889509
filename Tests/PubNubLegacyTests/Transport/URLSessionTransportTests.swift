import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        let refusing = try #require(RefusingPort())
        let address = refusing.address
        defer { withExtendedLifetime(refusing) {} }
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

    /// -1200 on every platform (FoundationNetworking's `NSURLErrorSecureConnectionFailed` is -1201).
    static let handshakeFailed = URLError.Code.secureConnectionFailed.rawValue

    @Test(arguments: Array(-1206 ... -1200))
    func theTLSCodesOfURLLoadingAreTLSFailures(code: Int) {
        let error = NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: "tls"])
        #expect(URLSessionTransport.classify(error) == .tls(code: code, description: "tls"))
    }

    @Test func theTLSConstantsOfThisPlatformAreTLSFailuresToo() {
        // FoundationNetworking numbers its NSURLError TLS constants one below Apple's; they still count as TLS.
        let constants = [
            NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
            NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
            NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
            NSURLErrorClientCertificateRequired,
        ]
        for code in constants {
            let error = NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: "tls"])
            #expect(URLSessionTransport.classify(error) == .tls(code: code, description: "tls"))
        }
        let network = NSError(domain: NSURLErrorDomain, code: NSURLErrorCannotConnectToHost)
        guard case .network = URLSessionTransport.classify(network) else {
            Issue.record("connection refused must stay network-class")
            return
        }
    }

    @Test(
        arguments: [
            ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", -1200),
            ("SSL certificate problem: self-signed certificate", -1202),
            (
                "SSL: no alternative certificate subject name matches target host name 'x'",
                -1202
            ),
            ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:1", -1200),
            (
                "gnutls_handshake() failed: GnuTLS, An unexpected TLS packet was received.",
                -1200
            ),
        ]
    )
    func libcurlTLSTextsBecomeTheAppleCodes(text: String, code: Int) {
        // FoundationNetworking reports libcurl's TLS failures as NSURLErrorUnknown with the TLS library's text.
        let error = NSError(
            domain: NSURLErrorDomain,
            code: NSURLErrorUnknown,
            userInfo: [NSLocalizedDescriptionKey: text]
        )
        #expect(URLSessionTransport.classify(error) == .tls(code: code, description: text))
    }

    @Test func otherUnknownErrorsStayOther() {
        let text = "Failure when receiving data from the peer"
        let error = NSError(
            domain: NSURLErrorDomain,
            code: NSURLErrorUnknown,
            userInfo: [NSLocalizedDescriptionKey: text]
        )
        #expect(URLSessionTransport.classify(error) == .other(domain: NSURLErrorDomain, code: -1, description: text))
    }

    @Test func httpsToAPlainHTTPPortIsATLSFailure() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = URLSessionTransport(maximumConnections: 2, label: "test")
        defer { transport.invalidate() }
        let url = try #require(URL(string: "https://\(origin.address)/time/0"))
        let result = await Self.outcome(transport, TransportRequest(method: "GET", url: url, body: nil, timeout: 5))
        guard case .failure(.tls(let code, _)) = result else {
            Issue.record("expected a TLS failure, got \(result)")
            return
        }
        #expect(code == Self.handshakeFailed)
        #expect(origin.counters.requests == 0)
    }
}
