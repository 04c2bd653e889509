import Foundation

/// Which transport carries a request: the package's own keep-alive sockets (`SocketTransport`) or URLSession
/// (`URLSessionTransport`, Apple platforms only). Decided from the URL and one platform fact, without I/O, so Linux
/// tests cover the Apple rule too (`RoutingTransport` carries the decision out).
///
/// - Apple platforms: every request to another machine goes through URLSession, plain `http` included, so it gets
///   what the system gives URLSession and not BSD sockets — App Transport Security's policy, cellular bring-up,
///   VPN on demand, the system's proxies. Sockets carry only loopback traffic (`LocalOrigin` during development),
///   and only plain `http` (they have no TLS there).
/// - Elsewhere (Linux): the sockets carry everything, `https` with OpenSSL, which they open at the first `https`
///   request (a client that only speaks plain `http` never loads it). Where OpenSSL cannot be loaded, an `https`
///   request fails with a TLS error naming why; there is no URLSession fallback (FoundationNetworking is not linked:
///   README "Platforms").
enum TransportRoute: Equatable, Sendable {
    case sockets
    case urlSession

    /// The platform fact the route depends on.
    struct Platform: Equatable, Sendable {
        /// URLSession carries every request that leaves the machine, and `https` to this one (Apple platforms);
        /// false: there is no URLSession route, the sockets carry everything.
        var remoteThroughURLSession: Bool

        /// This platform: URLSession where the package judges server trust through it
        /// (`SessionTrust.judgesServerTrust`: Apple platforms).
        static var current: Platform {
            Platform(remoteThroughURLSession: SessionTrust.judgesServerTrust)
        }
    }

    /// The route of `request` on `platform`. Where the sockets carry everything (Linux) the request's URL is not
    /// parsed.
    static func decide(for request: TransportRequest, on platform: Platform) -> TransportRoute {
        guard platform.remoteThroughURLSession else { return .sockets }
        return Self.decide(for: request.url, on: platform)
    }

    /// The route of a request to `url` on `platform`.
    static func decide(for url: URL, on platform: Platform) -> TransportRoute {
        guard platform.remoteThroughURLSession else { return .sockets }
        if !Self.isLoopback(url.host) { return .urlSession }
        return url.scheme?.lowercased() == "http" ? .sockets : .urlSession
    }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1` (bracketed or not).
    static func isLoopback(_ host: String?) -> Bool {
        guard var host = host?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "localhost." || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        let octets = parts.compactMap { part -> Int? in
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else {
                return nil
            }
            return Int(part).flatMap { $0 <= 255 ? $0 : nil }
        }
        return octets.count == 4 && octets[0] == 127
    }

    /// Whether plain-`http` requests to `origin` (`host` or `host:port`, as `PNConfiguration.origin` holds it) go
    /// over the sockets here, which publish pipelining needs (`PNConfiguration.publishPipelineDepth`).
    static func plainHTTPUsesSockets(origin: String, on platform: Platform) -> Bool {
        guard let url = URL(string: "http://\(origin)/") else { return false }
        return Self.decide(for: url, on: platform) == .sockets
    }
}
