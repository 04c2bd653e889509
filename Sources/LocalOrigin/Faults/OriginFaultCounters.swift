/// A snapshot of the faults a `LocalOrigin` has carried out since it started; every value only grows. Requests are
/// counted when a fault takes them, whether or not the client is still there to see the result.
public struct OriginFaultCounters: Sendable, Equatable {
    /// Times a `refuseConnections` fault closed the listening socket (on injection, and again after a restart).
    public var refusals = 0
    /// Requests held without an answer by `neverAnswer`.
    public var unanswered = 0
    /// Requests whose answers `delay` held back.
    public var delayed = 0
    /// Requests whose answers `closeMidResponse` cut.
    public var cutMidResponse = 0
    /// Requests answered by `serverError`.
    public var serverErrors = 0
    /// Requests answered 403 by `accessDenied`.
    public var accessDenied = 0
    /// Requests answered by `malformedJSON`.
    public var malformedJSON = 0
    /// Requests answered by `nonUTF8`.
    public var nonUTF8 = 0
    /// Requests answered by `htmlPage`.
    public var htmlPages = 0
    /// Subscribe requests held by `stallSubscribe`.
    public var stalledSubscribes = 0
    /// Completed `LocalOrigin.restart(keepingStore:)` calls.
    public var restarts = 0

    /// Requests some fault took: every counter except `refusals` and `restarts`.
    public var requestsFaulted: Int {
        self.unanswered + self.delayed + self.cutMidResponse + self.serverErrors + self.accessDenied
            + self.malformedJSON + self.nonUTF8 + self.htmlPages + self.stalledSubscribes
    }

    /// All zero.
    public init() {}

    /// Counts one request taken by `fault`.
    mutating func count(_ fault: OriginFault) {
        switch fault {
        case .refuseConnections: self.refusals += 1
        case .neverAnswer: self.unanswered += 1
        case .delay: self.delayed += 1
        case .closeMidResponse: self.cutMidResponse += 1
        case .serverError: self.serverErrors += 1
        case .accessDenied: self.accessDenied += 1
        case .malformedJSON: self.malformedJSON += 1
        case .nonUTF8: self.nonUTF8 += 1
        case .htmlPage: self.htmlPages += 1
        case .stallSubscribe: self.stalledSubscribes += 1
        }
    }
}

/// The identity of one injected fault, for `LocalOrigin.clearFault(_:)`. Numbers start at 1 and are never reused
/// by the same origin.
public struct OriginFaultID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number, as the control command `clear N` takes it.
    public let rawValue: Int

    /// The fault numbered `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The number in decimal.
    public var description: String { String(self.rawValue) }
}

/// One fault in effect, as listed by `LocalOrigin.activeFaults`.
public struct InjectedFault: Sendable, Equatable, CustomStringConvertible {
    /// Its identity, for `clearFault(_:)`.
    public var id: OriginFaultID
    /// What it does.
    public var fault: OriginFault
    /// Which requests it applies to.
    public var scope: OriginFaultScope
    /// Requests it will still take; `nil` until cleared.
    public var remaining: Int?

    /// Creates a record.
    public init(id: OriginFaultID, fault: OriginFault, scope: OriginFaultScope, remaining: Int?) {
        self.id = id
        self.fault = fault
        self.scope = scope
        self.remaining = remaining
    }

    /// `ID SPEC`, e.g. `3 503 subscribe count=2`.
    public var description: String {
        "\(self.id) \(OriginFaultSpec(fault: self.fault, scope: self.scope, count: self.remaining))"
    }
}
