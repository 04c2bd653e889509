import Dispatch

// The connection's deadlines (`HTTPServerLimits`): a request's header block and body each have one while they are
// read, an idle connection has one, and answers waiting for the client must move within the send timeout. All of it
// runs on the connection's loop thread.

extension HTTPConnection {
    /// Which read deadline runs.
    enum ReadTimer {
        case none
        /// A request's first bytes arrived; its header block is not complete.
        case header
        /// The header block is complete; the body is not.
        case body
        /// Nothing in progress: waiting for the next request.
        case idle
    }

    /// The earliest deadline in effect (monotonic nanoseconds), `UInt64.max` for none.
    var nextDeadline: UInt64 {
        switch self.phase {
        case .open:
            var earliest = self.readTimer == .none ? UInt64.max : self.readDeadline
            if self.sendDeadline != 0 { earliest = min(earliest, self.sendDeadline) }
            return earliest
        case .lingering:
            return self.lingerDeadline
        case .closed:
            return .max
        }
    }

    /// Acts on every deadline that passed by `now`: a request read too slowly is answered 408 (after the answers
    /// due before it) and the connection closes; an idle connection, or one whose client takes no answer bytes, is
    /// closed at once; a lingering one is closed.
    func expireTimers(now: UInt64) {
        switch self.phase {
        case .lingering:
            if self.lingerDeadline <= now { self.loop.closeConnection(self) }
        case .open:
            if self.sendDeadline != 0, self.sendDeadline <= now {
                self.loop.closeConnection(self)
                return
            }
            guard self.readTimer != .none, self.readDeadline <= now else { return }
            switch self.readTimer {
            case .idle:
                self.loop.closeConnection(self)
            case .header, .body:
                self.setReadTimer(.none, 0)
                self.input = []
                self.appendErrorAnswer(.requestTimeout)
                self.flush()
            case .none:
                break
            }
        case .closed:
            break
        }
    }

    /// Sets the read timer for the state the connection is in; a timer already running for the same state keeps its
    /// deadline (a header block's deadline runs from the request's first byte, not from its latest).
    func updateTimers() {
        guard self.phase == .open else { return }
        let wanted: ReadTimer
        if self.takesRequests, self.takesMoreWork, !self.input.isEmpty {
            wanted = self.parser.isReadingBody ? .body : .header
        } else if self.takesRequests, self.pendingCount == 0, self.input.isEmpty, self.output.isEmpty {
            wanted = .idle
        } else {
            wanted = .none
        }
        guard wanted != self.readTimer else { return }
        let timeout: UInt64?
        switch wanted {
        case .header: timeout = self.headerTimeout
        case .body: timeout = self.bodyTimeout
        case .idle: timeout = self.idleTimeout
        case .none: timeout = nil
        }
        // A timer whose timeout is off never fires, but an idle connection still counts as idle (it can be
        // reclaimed at the connection cap).
        let now = DispatchTime.now().uptimeNanoseconds
        self.setReadTimer(wanted, timeout.map { now + $0 } ?? .max, since: now)
    }

    /// Changes the read timer, keeping the loop's count of idle connections.
    func setReadTimer(_ timer: ReadTimer, _ deadline: UInt64, since: UInt64 = 0) {
        if self.readTimer == .idle, timer != .idle { self.loop.idleCountChanged(by: -1) }
        if self.readTimer != .idle, timer == .idle { self.loop.idleCountChanged(by: 1) }
        self.readTimer = timer
        self.readDeadline = deadline
        self.readTimerSince = since
    }
}
