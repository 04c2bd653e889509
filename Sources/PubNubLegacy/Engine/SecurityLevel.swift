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
    ///   - canRelax: the transport can relax certificate validation (not URLSession on Linux); without it the
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

/// The decisions of the TLS fallback ladder (docs/BEHAVIOR.md §2.8, docs/DESIGN.md A12): the rung requests use now,
/// the step down after a TLS failure of a connect attempt, the restart at `strict` when the settings it stands on
/// change, and the failure a connection-failed error reports. No I/O: the engine sends the attempts and asks here.
struct SecurityLadder: Equatable {
    /// The rung requests use now.
    private(set) var level = SecurityLevel.strict
    /// Why the last connect attempt failed, for the connection-failed error; nil after a silent downgrade.
    private(set) var lastFailure: TransportFailure?

    /// `new` settings replaced `old` (nil: the first ones): back to `strict` when they change what the ladder
    /// stands on (origin, TLS, the fallback permissions, the trust).
    mutating func settingsApplied(old: ClientSettings?, new: ClientSettings) {
        if old.map({ $0.restartsSecurityLadder(toApply: new) }) ?? true {
            self.level = .strict
        }
    }

    /// Whether applying `new` over `old` while connected must reconnect: a client that fell back keeps its weaker
    /// level only while the settings that allowed it hold, so a change of them reconnects at `strict` again.
    func requiresReconnect(old: ClientSettings, new: ClientSettings) -> Bool {
        self.level != .strict && old.restartsSecurityLadder(toApply: new)
    }

    /// A connect attempt failed with `failure` under `settings`. Returns the rung to retry at silently (a TLS
    /// failure with a lower rung the settings and the transport allow), which is then the level; nil when the
    /// failure takes its ordinary course and is remembered for the report. `canRelax` — whether the transport can
    /// accept any certificate (the relaxed rung is skipped without it) — is asked only for a TLS failure of a
    /// secure client that may relax: on Linux the answer loads OpenSSL, which a plain-`http` client never needs.
    mutating func attemptFailed(
        _ failure: TransportFailure,
        settings: ClientSettings?,
        canRelax: @autoclosure () -> Bool
    ) -> SecurityLevel? {
        self.lastFailure = failure
        guard case .tls = failure, let settings, settings.secure,
            let lower = self.level.next(
                reduceSecurityLevelOnError: settings.reduceSecurityLevelOnError,
                ignoreSecureConnectionRequirement: settings.ignoreSecureConnectionRequirement,
                canRelax: self.level == .strict && settings.reduceSecurityLevelOnError && canRelax()
            )
        else {
            return nil
        }
        self.level = lower
        self.lastFailure = nil
        return lower
    }

    /// The connect attempt got no answer within its time: that is the cause to report unless a later attempt
    /// fails otherwise (the cancelled request's own outcome is not a cause).
    mutating func attemptTimedOut() {
        self.lastFailure = .timedOut
    }

    /// The connect failed for good: the failure to report and forget. nil, or a network-class failure, means the
    /// network condition (102); a TLS, other or oversized-response failure is reported as the transport's own error.
    mutating func takeLastFailure() -> TransportFailure? {
        defer { self.lastFailure = nil }
        return self.lastFailure
    }
}
