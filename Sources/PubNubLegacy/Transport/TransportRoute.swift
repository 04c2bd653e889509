import Foundation

/// Which transport carries a request: the package's own keep-alive sockets (`SocketTransport`) or URLSession
/// (`URLSessionTransport`). Decided from the URL and two platform facts, without I/O, so Linux tests cover the Apple
/// rule too (`RoutingTransport` carries the decision out).
///
/// - Apple platforms: every request to another machine goes through URLSession, plain `http` included, so it gets
///   what the system gives URLSession and not BSD sockets — App Transport Security's policy, cellular bring-up,
///   VPN on demand, the system's proxies. Sockets carry only loopback traffic (`LocalOrigin` during development),
///   and only plain `http` (they have no TLS there).
/// - Elsewhere (Linux): plain `http` over the sockets; `https` over the sockets when they speak TLS (OpenSSL
///   loaded), else URLSession.
enum TransportRoute: Equatable, Sendable {
    case sockets
    case urlSession

    /// The platform facts the route depends on.
    struct Platform: Equatable, Sendable {
        /// URLSession carries every request that leaves the machine (Apple platforms).
        var remoteThroughURLSession: Bool
        /// The sockets speak TLS (OpenSSL loaded, `SocketTransport.supportsTLS`).
        var socketsCarryTLS: Bool

        /// This platform, with the sockets' TLS as given: URLSession for remote requests where the package judges
        /// server trust through it (`SessionTrust.judgesServerTrust`: Apple platforms).
        static func current(socketsCarryTLS: Bool) -> Platform {
            Platform(remoteThroughURLSession: SessionTrust.judgesServerTrust, socketsCarryTLS: socketsCarryTLS)
        }
    }

    /// The route of a request to `url` on `platform`.
    static func decide(for url: URL, on platform: Platform) -> TransportRoute {
        if platform.remoteThroughURLSession && !Self.isLoopback(url.host) { return .urlSession }
        switch url.scheme?.lowercased() {
        case "http": return .sockets
        case "https" where platform.socketsCarryTLS: return .sockets
        default: return .urlSession
        }
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
