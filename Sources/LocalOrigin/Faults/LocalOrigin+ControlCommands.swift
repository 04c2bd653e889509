// The text control surface of fault injection, shared by `LegacyDemo origin --control-stdin` and anything else that
// drives an origin by lines of text (a script, a test harness in another language).

extension LocalOrigin {
    /// Carries out one control command and returns its one-line acknowledgement, which starts with `ok` when the
    /// command was carried out and with `error` when it was not (the origin is then unchanged, except for a
    /// restart that failed to listen again).
    ///
    /// Commands (words separated by spaces):
    /// - `fault SPEC` — `inject` the fault of `OriginFaultSpec` grammar; answers `ok fault ID SPEC`.
    /// - `clear` — `clearFaults()`; answers `ok cleared`.
    /// - `clear ID` — `clearFault(_:)`; answers `ok cleared ID`, or `error no fault ID` when nothing had that id.
    /// - `drop` — `closeAllConnections()`; answers `ok dropped`.
    /// - `restart keep` / `restart empty` — `restart(keepingStore:)`; answers `ok restarted HOST:PORT keep|empty`.
    /// - `faults` — lists the faults in effect: `ok faults ID SPEC; ID SPEC…`, or `ok faults none`.
    /// - `counters` — `ok counters requests=N publishes=N stored=N deliveries=N parked=N faulted=N refusals=N
    ///   restarts=N` (`counters` and `faultCounters`).
    ///
    /// Callable from any thread except the origin's own (a restart cannot run there; it answers `error`).
    public func performControlCommand(_ line: String) -> String {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let command = words.first else { return "error empty command" }
        let rest = words.dropFirst()
        do throws(FaultError) {
            switch command {
            case "fault":
                let spec = try OriginFaultSpec(parsing: rest.joined(separator: " "))
                let id = try self.inject(spec.fault, on: spec.scope, count: spec.count)
                return "ok fault \(id) \(spec)"
            case "clear" where rest.isEmpty:
                try self.clearFaults()
                return "ok cleared"
            case "clear" where rest.count == 1:
                guard let number = Int(rest[rest.startIndex]) else {
                    return "error not a fault id: \(rest[rest.startIndex])"
                }
                return try self.clearFault(FaultID(rawValue: number))
                    ? "ok cleared \(number)" : "error no fault \(number)"
            case "drop" where rest.isEmpty:
                self.closeAllConnections()
                return "ok dropped"
            case "restart" where rest.count == 1 && (rest.first == "keep" || rest.first == "empty"):
                let keep = rest.first == "keep"
                try self.restart(keepingStore: keep)
                return "ok restarted \(self.address) \(keep ? "keep" : "empty")"
            case "faults" where rest.isEmpty:
                let active = self.activeFaults
                return "ok faults " + (active.isEmpty ? "none" : active.map(\.description).joined(separator: "; "))
            case "counters" where rest.isEmpty:
                let origin = self.counters
                let faults = self.faultCounters
                return "ok counters requests=\(origin.requests) publishes=\(origin.publishes) "
                    + "stored=\(origin.messagesStored) deliveries=\(origin.deliveries) parked=\(origin.parkedPolls) "
                    + "faulted=\(faults.requestsFaulted) refusals=\(faults.refusals) restarts=\(faults.restarts)"
            default:
                return "error unknown command: \(words.joined(separator: " "))"
            }
        } catch {
            return "error \(error)"
        }
    }
}
