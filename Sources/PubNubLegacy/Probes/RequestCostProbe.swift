import Dispatch
import Foundation
import PlatformSupport

// A hook for the package's benchmark (`LegacyDemo bench`): what one request costs on the socket transport when it
// opens its connection (TCP connect, TLS handshake for `https`, request, answer) and when it reuses a kept-alive
// one. The public API cannot separate the two: a client keeps its connections alive on its own.

/// Times `GET /time/0` requests on the client's own socket transport.
package enum RequestCostProbe {
    /// Why a timed request did not succeed.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Sends `count` requests to `origin` (`HOST:PORT`) that each open a new connection, then `count` on one kept-alive
    /// connection, one at a time, and returns the milliseconds from each send to its answer. With `secure`, TLS
    /// verifies the server against `anchorCertificatesFile` (nil: the system trust store). The TLS context is made
    /// by a warm-up request first, so a new connection's time is TCP connect + handshake + request, as for a client
    /// that already ran. Blocks the calling thread; throws on the first request that fails.
    package static func measure(
        origin: String,
        secure: Bool,
        anchorCertificatesFile: String?,
        count: Int
    ) throws -> (newConnection: [Double], keptAlive: [Double]) {
        let transport = SocketTransport(maximumConnections: 1, label: "request-cost")
        defer { transport.invalidate() }
        guard let url = URL(string: "\(secure ? "https" : "http")://\(origin)/time/0?uuid=request-cost") else {
            throw Failure(description: "\(origin) does not form a URL")
        }
        var request = TransportRequest(method: "GET", url: url, body: nil, timeout: 10)
        request.trust = TLSTrust(anchorCertificatesFile: anchorCertificatesFile)
        _ = try self.time(request, on: transport)
        var newConnection: [Double] = []
        for _ in 0..<count {
            transport.closeIdleConnections()
            newConnection.append(try self.time(request, on: transport))
        }
        var keptAlive: [Double] = []
        for _ in 0..<count {
            keptAlive.append(try self.time(request, on: transport))
        }
        return (newConnection, keptAlive)
    }

    private static func time(_ request: TransportRequest, on transport: SocketTransport) throws -> Double {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<TransportResponse, TransportFailure>?>(nil)
        let started = DispatchTime.now().uptimeNanoseconds
        transport.send(request) { result in
            outcome.set(result)
            done.signal()
        }
        guard done.wait(timeout: .now() + request.timeout + 5) == .success, let result = outcome.current else {
            throw Failure(description: "no answer from \(request.url) within \(Int(request.timeout) + 5) s")
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        switch result {
        case .success(let response) where response.status == 200:
            return elapsed
        case .success(let response):
            throw Failure(description: "\(request.url) answered \(response.status)")
        case .failure(let failure):
            throw Failure(description: "\(request.url) failed: \(failure)")
        }
    }
}
