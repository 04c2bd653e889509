// Fault injection on a running origin (issue 6): tests and `LegacyDemo origin --fault` make the origin misbehave in
// the ways a client must survive, over real sockets. The PubNub logic is untouched: a `FaultInjector` sits between
// the socket server and the `OriginHandler`.

extension LocalOrigin {
    /// A misbehaviour the origin can show (see `OriginFault`).
    public typealias Fault = OriginFault
    /// Which requests a fault applies to (see `OriginFaultScope`).
    public typealias Scope = OriginFaultScope
    /// What a request asks of the origin, for scoping (see `OriginOperation`).
    public typealias Operation = OriginOperation
    /// The identity of an injected fault.
    public typealias FaultID = OriginFaultID
    /// Why a fault-injection call failed.
    public typealias FaultError = OriginFaultError
    /// What faults have done so far.
    public typealias FaultCounters = OriginFaultCounters

    /// Puts `fault` in effect for the requests in `scope` — the next `count` of them, or all until cleared when
    /// `count` is `nil` — and returns its identity. Returns once the fault is in effect: the next request in scope
    /// that the origin reads gets it (a `refuseConnections` fault has closed the listening socket, and with
    /// `dropExisting` every open connection too).
    ///
    /// Several faults may be in effect at once. Each request gets at most one: the first fault, in injection order,
    /// whose scope matches it (`stallSubscribe` matches subscribe requests only; `refuseConnections` acts on the
    /// listening socket and matches no request). A count-limited fault that has taken its `count` requests is no
    /// longer in effect, but whatever it still holds is released only by clearing it, by its connection closing,
    /// or by a stop or restart. Faults stay in effect across `restart(keepingStore:)`, which re-applies a refusal
    /// to the new listening socket.
    ///
    /// Callable from any thread, request observers included.
    ///
    /// - Throws: `OriginFaultError.invalidFault` for a fault, scope or count `OriginFault` does not accept (a
    ///   status outside 500…599, a negative or over-long delay, `count` below 1, a scoped or counted refusal, an
    ///   empty operation set or path prefix); `.stopped` after `stop()`.
    @discardableResult
    public func inject(_ fault: Fault, on scope: Scope = .all, count: Int? = nil) throws(FaultError) -> FaultID {
        if let problem = fault.problem(scope: scope, count: count) { throw .invalidFault(reason: problem) }
        let injected = self.control.withLock { control -> (id: FaultID, closedListener: Bool, drop: HTTPServer?)? in
            if case .stopped = control.phase { return nil }
            let id = self.faults.add(fault, scope: scope, count: count)
            // While restarting, the restart applies the refusal to its new server; while down nothing listens.
            guard case .refuseConnections(let dropExisting) = fault, case .running = control.phase else {
                return (id, false, nil)
            }
            let wasAccepting = control.server.isAccepting
            control.server.stopAccepting()
            return (id, wasAccepting, dropExisting ? control.server : nil)
        }
        guard let injected else { throw .stopped }
        if injected.closedListener { self.faults.countRefusal() }
        // Outside the lock: closing connections runs their close handlers, which may reach request observers.
        injected.drop?.closeAllConnections()
        return injected.id
    }

    /// Ends fault `id` and returns whether it was in effect or still held something (false for an unknown or
    /// already cleared id). Requests it held without an answer (`neverAnswer`) have their connections closed
    /// without an answer — the origin never sees them; subscribes it stalls go to the origin now and are answered
    /// from its current state; answers it delays keep their due time. When it was the last refusal, the origin
    /// listens again on the same port. Callable from any thread, request observers included.
    ///
    /// - Throws: `OriginFaultError.server` when the port cannot be listened on again (something else took it); the
    ///   fault is cleared all the same and the origin keeps refusing connections until `restart`.
    @discardableResult
    public func clearFault(_ id: FaultID) throws(FaultError) -> Bool {
        try self.clear(id)
    }

    /// Ends every fault, as `clearFault(_:)` does for one. A no-op after `stop()`. Callable from any thread,
    /// request observers included.
    ///
    /// - Throws: `OriginFaultError.server` when the port cannot be listened on again (see `clearFault(_:)`).
    public func clearFaults() throws(FaultError) {
        try self.clear(nil)
    }

    /// Closes every open connection now without an answer — parked long-polls and requests held by faults included —
    /// and keeps listening: clients see their connections end (a close by the server, not a refusal) and can
    /// connect again at once. Combined with a request fault it cuts one kind of traffic off while the rest goes on;
    /// e.g. `neverAnswer` on `.operations([.subscribe, .time])` and then this: subscribers lose their long-polls and
    /// cannot get back in, while other clients still publish. Returns once the connections are closed, except when
    /// called on a server thread (from a request observer), where they close right after. A no-op once stopped or
    /// while a restart is under way (which closes them anyway).
    public func closeAllConnections() {
        let server = self.control.withLock { control -> HTTPServer? in
            guard case .running = control.phase else { return nil }
            return control.server
        }
        server?.closeAllConnections()  // outside the lock: close handlers may reach request observers
    }

    /// The faults in effect, in the order they are tried; empty after `stop()`.
    public var activeFaults: [InjectedFault] {
        self.faults.activeFaults
    }

    /// A snapshot of what faults have done since the origin started (restarts included).
    public var faultCounters: FaultCounters {
        self.faults.counters
    }

    @discardableResult
    private func clear(_ id: FaultID?) throws(FaultError) -> Bool {
        let (found, release, failure) = self.control.withLock {
            control -> (Bool, @Sendable () -> Void, HTTPServerError?) in
            let (found, release) = self.faults.clear(id)
            guard case .running = control.phase, !self.faults.refusal.refusing, !control.server.isAccepting else {
                return (found, release, nil)
            }
            do throws(HTTPServerError) {
                try control.server.resumeAccepting()
                return (found, release, nil)
            } catch {
                return (found, release, error)
            }
        }
        release()  // outside the lock: it closes connections and hands stalled requests to the origin
        if let failure { throw .server(failure) }
        return found
    }
}
