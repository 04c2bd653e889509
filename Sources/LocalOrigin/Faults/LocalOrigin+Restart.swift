import Foundation
import PlatformSupport

// Stop and start again on the same port, as a server process restart looks to a client: every connection is closed
// without an answer, connections are refused until the new listening socket is open, and then the origin answers
// again at the same address — with its messages kept (so a client can prove catch-up from its last timetoken) or
// starting empty.

extension LocalOrigin {
    /// Stops the server — every connection closed without an answer, requests held by faults dropped — and starts
    /// a new one on the same host and port, then returns once it accepts connections. `address` does not change.
    ///
    /// - With `keepingStore` true the PubNub state is kept whole: every message the origin acknowledged stays in
    ///   history and reachable from any earlier subscribe cursor, and timetokens keep increasing strictly across the
    ///   restart; counters, the request log, presence and channel groups carry on too.
    /// - With `keepingStore` false the origin starts empty (no messages, presence, groups or push registrations;
    ///   counters and the request log start again), as a fresh origin would. Its timetokens come from the clock, so
    ///   they are later than the old ones.
    ///
    /// Faults in effect stay in effect (a refusal is applied to the new listening socket right after it opens) and
    /// `faultCounters` carries on; request observers stay registered. Concurrent restarts run one after the other.
    /// Callable from any thread except the origin's own (request observers run there).
    ///
    /// - Throws: `OriginFaultError.onServerThread` when called from a request observer; `.stopped` when the origin
    ///   was stopped before or during the restart; `.server` when the port cannot be listened on again (something
    ///   else took it and still holds it after 2 s of retrying) — the origin then refuses connections until a later
    ///   restart succeeds or it is stopped.
    public func restart(keepingStore: Bool) throws(FaultError) {
        guard !LocalOrigin.isServerThread else { throw .onServerThread }
        let done = Latch()
        defer { done.open() }  // on every way out; opening twice is harmless
        let (oldServer, oldHandler) = try self.beginRestart(done)
        // The port is held from the moment the old listener closes until the new one listens: a bind without a
        // listen that the kernel never hands to anyone asking for a free port, nor to an outgoing connection (a
        // loaded test run once had its port taken in that window). The new server binds beside it.
        oldServer.stopAccepting()
        let reservation = POSIXSocket.reserve(host: oldServer.host, port: oldServer.port)
        defer { reservation.map(POSIXSocket.closeDescriptor) }
        oldServer.stop()
        var handler = oldHandler
        if !keepingStore {
            handler = OriginHandler(settings: self.settings)
            handler.addRequestObserver(self.relayToObservers)
            self.faults.replaceOrigin(handler)
        }
        let server = HTTPServer(host: oldServer.host, port: oldServer.port, limits: self.limits, handler: self.faults)
        var failure: HTTPServerError?
        do {
            try HTTPServer.retryingWhilePortInUse { () throws(HTTPServerError) in try server.start() }
        } catch {
            failure = error
        }
        let outcome = self.control.withLock { control -> (stop: Bool, refusing: Bool, drop: Bool) in
            control.handler = handler
            if failure == nil { control.server = server }  // else the stopped old server keeps host and port
            var stopWhenDone = true
            if case .restarting(_, let flag) = control.phase { stopWhenDone = flag }
            if stopWhenDone {
                control.phase = .stopped
                return (true, false, false)
            }
            control.phase = failure == nil ? .running : .down
            let refusal = self.faults.refusal
            guard failure == nil, refusal.refusing else { return (false, false, false) }
            server.stopAccepting()
            return (false, true, refusal.dropExisting)
        }
        done.open()
        if !keepingStore {
            // Only now: stopping a handler waits for its timer queue, where an observer may be waiting for `done`.
            oldHandler.stop()
        }
        if outcome.stop {
            server.stop()
            self.faults.stop()
            handler.stop()
            throw .stopped
        }
        if let failure { throw .server(failure) }
        if outcome.refusing { self.faults.countRefusal() }
        if outcome.drop { server.closeAllConnections() }
        self.faults.countRestart()
    }

    /// Marks the restart under way (waiting for another one to end first) and returns the parts to replace.
    private func beginRestart(_ done: Latch) throws(FaultError) -> (HTTPServer, OriginHandler) {
        enum Step {
            case go(HTTPServer, OriginHandler)
            case wait(Latch)
            case stopped
        }
        while true {
            let step = self.control.withLock { control -> Step in
                switch control.phase {
                case .stopped:
                    return .stopped
                case .restarting(let other, _):
                    return .wait(other)
                case .running, .down:
                    control.phase = .restarting(done: done, stopWhenDone: false)
                    return .go(control.server, control.handler)
                }
            }
            switch step {
            case .go(let server, let handler): return (server, handler)
            case .wait(let other): other.wait()
            case .stopped: throw .stopped
            }
        }
    }
}
