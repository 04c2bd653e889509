/// Why a fault-injection call on `LocalOrigin` was refused or failed.
public enum OriginFaultError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The fault, its scope or its count is not acceptable; `reason` says which rule it breaks.
    case invalidFault(reason: String)
    /// The text is not a fault spec or control command of the command-line grammar; `reason` says where.
    case syntax(reason: String)
    /// The origin was stopped; it cannot be faulted or restarted any more.
    case stopped
    /// `restart` was called on one of the origin's own threads (from a request observer): it would have to wait
    /// for its own thread to end.
    case onServerThread
    /// The listening socket could not be opened again (after `refuseConnections` was cleared, or on restart).
    case server(HTTPServerError)

    /// A one-line English description.
    public var description: String {
        switch self {
        case .invalidFault(let reason): return "invalid fault: \(reason)"
        case .syntax(let reason): return reason
        case .stopped: return "the origin is stopped"
        case .onServerThread: return "restart cannot be called on one of the origin's own threads"
        case .server(let error): return "cannot listen again: \(error)"
        }
    }
}
