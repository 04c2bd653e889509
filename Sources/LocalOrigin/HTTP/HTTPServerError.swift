import PlatformSupport

/// Why `HTTPServer.start()` or `HTTPServer.resumeAccepting()` could not open the listening socket, or why the call
/// is not allowed in the server's current state.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `host` is not an address this machine can listen on (unresolvable name, or not a local address).
    case invalidHost(host: String, reason: String)
    /// Another socket already listens on `host`:`port`.
    case addressInUse(host: String, port: UInt16)
    /// A socket call failed; `code` is the `errno` value.
    case socketFailed(operation: String, code: Int32)
    /// `start()` was called on a server that is already running.
    case alreadyStarted
    /// The server was stopped; a stopped server cannot be started again (create a new one on the same port).
    case stopped
    /// The call needs a running server (`start()` first).
    case notStarted

    /// A one-line English description, e.g. `127.0.0.1:8090 is already in use`.
    public var description: String {
        switch self {
        case .invalidHost(let host, let reason):
            return "cannot listen on host \"\(host)\": \(reason)"
        case .addressInUse(let host, let port):
            return "\(host):\(port) is already in use"
        case .socketFailed(let operation, let code):
            return "\(operation) failed: \(POSIXSocket.describe(code)) (errno \(code))"
        case .alreadyStarted:
            return "the server is already started"
        case .stopped:
            return "the server was stopped; create a new HTTPServer"
        case .notStarted:
            return "the server is not started"
        }
    }
}
