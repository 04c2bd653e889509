// Everywhere the Security framework is not (Linux): no URLSession route. The package's sockets carry every request,
// `https` with the system's OpenSSL, opened at the first `https` request (`SocketTransport`); where OpenSSL cannot be
// loaded, an `https` request fails with a TLS error that says why (`SocketFailure.openSSLUnavailable`). URLSession
// is not a fallback here: FoundationNetworking's libcurl needs a TLS library itself, and linking it cost every
// Linux process about 8 MB resident (BENCHMARKS.md, "Idle client"). The counterpart of
// `URLSessionTransport+Security.swift`.

#if !canImport(Security)
extension RoutingTransport {
    /// Never called here: `TransportRoute` gives every request to the sockets where URLSession is not the
    /// platform's transport (`TransportRoute.Platform.current`).
    static func sessionTransport(maximumConnections: Int, label: String) -> @Sendable () -> any HTTPTransport {
        { preconditionFailure("TransportRoute routed a request to URLSession on a platform without that route") }
    }
}
#endif
