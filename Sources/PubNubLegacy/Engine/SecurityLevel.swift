import Foundation

/// How a client secures its requests: the rungs of the TLS fallback ladder of docs/BEHAVIOR.md §2.8, from the
/// strongest.
///
/// A client with `useSecureConnection` starts `strict`. Each TLS failure of a connect attempt steps down at most
/// one rung the configuration allows (`reduceSecurityLevelOnError`, `ignoreSecureConnectionRequirement`, both NO
/// by default: docs/DESIGN.md A12), and the next attempt runs at the new level. The level holds until the TLS-relevant
/// settings change, when it starts `strict` again.
enum SecurityLevel: Sendable, Equatable, CustomStringConvertible {
    /// TLS with full certificate validation.
    case strict
    /// TLS that accepts any server certificate (3.4's "BarelySecure": expired, self-signed, unknown root).
    case relaxed
    /// Plain HTTP on the same host (3.4's "InSecure").
    case plain

    var description: String {
        switch self {
        case .strict: return "strict TLS"
        case .relaxed: return "TLS without certificate validation"
        case .plain: return "plain HTTP"
        }
    }

    /// The level to retry at after a TLS failure at this level, or nil when the failure must be reported.
    ///
    /// - Parameters:
    ///   - reduceSecurityLevelOnError: the configuration allows relaxed certificate validation.
    ///   - ignoreSecureConnectionRequirement: the configuration allows plain HTTP.
    ///   - canRelax: the transport can relax certificate validation (Apple platforms only); without it the
    ///     relaxed rung is skipped, because a retry there would validate exactly as before.
    func next(
        reduceSecurityLevelOnError: Bool,
        ignoreSecureConnectionRequirement: Bool,
        canRelax: Bool
    ) -> SecurityLevel? {
        switch self {
        case .strict where reduceSecurityLevelOnError && canRelax:
            return .relaxed
        case .strict, .relaxed:
            return ignoreSecureConnectionRequirement ? .plain : nil
        case .plain:
            // Plain HTTP has no TLS to fail; nothing is weaker.
            return nil
        }
    }
}
