/// Which requests an injected `OriginFault` applies to.
public enum OriginFaultScope: Sendable, Hashable, CustomStringConvertible {
    /// Every request.
    case all
    /// Requests of these operations (see `OriginOperation`); the set must not be empty.
    case operations(Set<OriginOperation>)
    /// Requests whose raw request-target (still percent-encoded, query included) starts with this text, e.g.
    /// `/v2/presence/` or `/publish/pub-c/sub-c/0/alerts/`. Must not be empty.
    case pathPrefix(String)

    /// Requests of `operation` only.
    public static func operation(_ operation: OriginOperation) -> OriginFaultScope {
        .operations([operation])
    }

    /// True when `request` (already classified as `operation`) is in scope.
    func matches(target: String, operation: OriginOperation) -> Bool {
        switch self {
        case .all: return true
        case .operations(let operations): return operations.contains(operation)
        case .pathPrefix(let prefix): return target.hasPrefix(prefix)
        }
    }

    /// Why the scope cannot be used, or `nil`.
    var problem: String? {
        switch self {
        case .all: return nil
        case .operations(let operations): return operations.isEmpty ? "the operation list is empty" : nil
        case .pathPrefix(let prefix): return prefix.isEmpty ? "the path prefix is empty" : nil
        }
    }

    /// The scope in the command-line grammar of `OriginFaultSpec`: `all`, `subscribe,time` (operations in the order
    /// of `OriginOperation.allCases`), `path=/v2/presence/`.
    public var description: String {
        switch self {
        case .all:
            return "all"
        case .operations(let operations):
            return OriginOperation.allCases.filter(operations.contains).map(\.rawValue).joined(separator: ",")
        case .pathPrefix(let prefix):
            return "path=\(prefix)"
        }
    }
}

/// What a request asks of the origin, as far as fault scoping is concerned. Classified from the path alone, the
/// way the origin routes it (docs/PROTOCOL.md §3).
public enum OriginOperation: String, Sendable, Hashable, CaseIterable {
    /// `/subscribe/…` (v1) and `/v2/subscribe/…`.
    case subscribe
    /// `/publish/…`, GET and POST.
    case publish
    /// `/time/…`.
    case time
    /// `/v2/presence/…`: leave, heartbeat, here-now, where-now, state.
    case presence
    /// `/history/…`, `/v2/history/…` and `/v3/history/…`.
    case history
    /// Anything else: channel groups, push, access manager, unknown paths.
    case other
}
