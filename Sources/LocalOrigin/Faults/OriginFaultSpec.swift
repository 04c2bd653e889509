/// A fault with its scope and count, as written on the command line (`LegacyDemo origin --fault SPEC`) and in the
/// `fault SPEC` control command.
///
/// Grammar: `KIND [SCOPE] [count=N]`, words separated by spaces, in any order after `KIND`.
/// - `KIND`: `refuse` (new connections refused), `refuse-drop` (and open ones closed), `never` (never answered),
///   `delay=SECONDS`, `cut=status|headers|body` (answer cut there, then closed), `500`…`599` (server error),
///   `403` (access denied), `malformed` (truncated JSON), `non-utf8`, `html` (captive portal), `stall` (subscribes
///   held forever) or `stall=SECONDS`. See `OriginFault` for exactly what each sends.
/// - `SCOPE`: `all` (the default); operations separated by commas, from `subscribe`, `publish`, `time`,
///   `presence`, `history`, `other`; or `path=PREFIX` (raw request-target prefix, e.g. `path=/v2/presence/`).
/// - `count=N`: only the next N matching requests (N ≥ 1); without it, until cleared.
///
/// Examples: `503 subscribe`, `refuse`, `delay=2.5 publish count=3`, `cut=body time,history`, `stall=15`.
public struct OriginFaultSpec: Sendable, Equatable, CustomStringConvertible {
    /// What the fault does.
    public var fault: OriginFault
    /// Which requests it applies to.
    public var scope: OriginFaultScope
    /// How many requests it takes; `nil` until cleared.
    public var count: Int?

    /// A spec from its parts (not validated; `LocalOrigin.inject` checks them).
    public init(fault: OriginFault, scope: OriginFaultScope = .all, count: Int? = nil) {
        self.fault = fault
        self.scope = scope
        self.count = count
    }

    /// Parses `text` in the grammar above and checks the result as `LocalOrigin.inject` would.
    ///
    /// - Throws: `OriginFaultError.syntax` for text outside the grammar, `.invalidFault` for values it rejects
    ///   (a 5xx status out of range, a negative delay, `count=0`, a scoped `refuse`).
    public init(parsing text: String) throws(OriginFaultError) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]
        guard let kind = words.popFirst() else { throw .syntax(reason: "missing fault kind") }
        self.fault = try OriginFaultSpec.fault(kind)
        self.scope = .all
        self.count = nil
        var scopeSeen = false
        for word in words {
            if word.hasPrefix("count=") {
                guard self.count == nil else { throw .syntax(reason: "count given twice") }
                guard let count = Int(word.dropFirst("count=".count)) else {
                    throw .syntax(reason: "count must be a whole number: \(word)")
                }
                self.count = count
                continue
            }
            guard !scopeSeen else { throw .syntax(reason: "scope given twice: \(word)") }
            scopeSeen = true
            self.scope = try OriginFaultSpec.scope(word)
        }
        if let problem = self.fault.problem(scope: self.scope, count: self.count) {
            throw .invalidFault(reason: problem)
        }
    }

    /// The spec in the grammar above; the scope is left out when it is `all`. Parsing it gives this spec back.
    public var description: String {
        var words = [self.fault.description]
        if self.scope != .all { words.append(self.scope.description) }
        if let count = self.count { words.append("count=\(count)") }
        return words.joined(separator: " ")
    }

    // MARK: - Words

    private static func fault(_ word: String) throws(OriginFaultError) -> OriginFault {
        let (name, value) = self.split(word)
        switch (name, value) {
        case ("refuse", nil): return .refuseConnections(dropExisting: false)
        case ("refuse-drop", nil): return .refuseConnections(dropExisting: true)
        case ("never", nil): return .neverAnswer
        case ("delay", let value?): return .delay(try self.seconds(value, in: word))
        case ("cut", let value?):
            guard let point = OriginFault.CutPoint(rawValue: value) else {
                throw .syntax(reason: "cut takes status, headers or body: \(word)")
            }
            return .closeMidResponse(point)
        case ("403", nil): return .accessDenied
        case ("malformed", nil): return .malformedJSON
        case ("non-utf8", nil): return .nonUTF8
        case ("html", nil): return .htmlPage
        case ("stall", nil): return .stallSubscribe(nil)
        case ("stall", let value?): return .stallSubscribe(try self.seconds(value, in: word))
        default:
            if value == nil, name.count == 3, name.allSatisfy(\.isASCII), let status = Int(name), status >= 500 {
                return .serverError(status: status)
            }
            throw .syntax(reason: "unknown fault kind: \(word)")
        }
    }

    private static func scope(_ word: String) throws(OriginFaultError) -> OriginFaultScope {
        if word == "all" { return .all }
        if word.hasPrefix("path=") {
            let prefix = String(word.dropFirst("path=".count))
            guard !prefix.isEmpty else { throw .syntax(reason: "path= needs a prefix") }
            return .pathPrefix(prefix)
        }
        var operations = Set<OriginOperation>()
        for name in word.split(separator: ",", omittingEmptySubsequences: false) {
            guard let operation = OriginOperation(rawValue: String(name)) else {
                throw .syntax(reason: "unknown scope: \(word)")
            }
            operations.insert(operation)
        }
        return .operations(operations)
    }

    private static func split(_ word: String) -> (name: String, value: String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private static func seconds(_ text: String, in word: String) throws(OriginFaultError) -> Double {
        guard let seconds = Double(text) else { throw .syntax(reason: "not a number of seconds: \(word)") }
        return seconds
    }
}
