import PlatformSupport

/// What a handler decided for one request; carried to the connection's event loop.
enum HTTPOutcome: Sendable {
    case response(HTTPResponse)
    case raw([UInt8], thenClose: Bool)
    case close
}

/// The `HTTPResponseSink` of one request on one connection.
///
/// The first `respond`, `respondRaw` or `close` wins; it is decided under the connection's lock on the caller's
/// thread and then carried to the event loop, which writes answers in request order. `close()` also takes its turn
/// in that order: answers to earlier requests on the connection are written first, then the connection closes.
final class HTTPConnectionSink: HTTPResponseSink, @unchecked Sendable {
    // @unchecked: `state` and `closeHandlers` are only read or written inside `connection.isGone.withLock`; `outcome` is
    // only touched on the connection's event-loop thread; the `let`s are immutable.

    enum State {
        /// Not answered yet.
        case pending
        /// `respond` or `respondRaw` was called.
        case answered
        /// `close()` was called; the connection closes when this request's turn comes.
        case closeRequested
        /// The connection closed before an answer; `onClose` handlers have run (or were run at registration).
        case closed
    }

    let connection: HTTPConnection
    /// False when the connection must close after this answer (the client asked, or a framing error).
    let keepAlive: Bool
    /// HEAD: the answer's headers announce the body's length, but the body is not sent.
    let isHead: Bool
    var state: State
    var closeHandlers: [@Sendable () -> Void] = []
    /// Set on the loop thread once the answer arrived there; the connection writes it when its turn comes.
    var outcome: HTTPOutcome?

    init(connection: HTTPConnection, keepAlive: Bool, isHead: Bool) {
        self.connection = connection
        self.keepAlive = keepAlive
        self.isHead = isHead
        self.state = .pending
    }

    /// A sink already answered with a framing error (used on the loop thread only).
    init(connection: HTTPConnection, error: HTTPParseError) {
        self.connection = connection
        self.keepAlive = false
        self.isHead = false
        self.state = .answered
        self.outcome = .response(error.response)
    }

    func respond(_ response: HTTPResponse) {
        self.decide(.response(response))
    }

    func respondRaw(_ bytes: [UInt8], thenClose: Bool) {
        self.decide(.raw(bytes, thenClose: thenClose))
    }

    func close() {
        self.decide(.close)
    }

    var isClosed: Bool {
        self.connection.isGone.withLock { isGone in
            switch self.state {
            case .closed, .closeRequested: return true
            case .pending, .answered: return isGone
            }
        }
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = self.connection.isGone.withLock { _ -> Bool in
            switch self.state {
            case .pending, .closeRequested:
                self.closeHandlers.append(handler)
                return false
            case .closed:
                return true
            case .answered:
                // Answered before the connection closed: the handler will never be due.
                return false
            }
        }
        if runNow { handler() }
    }

    private func decide(_ outcome: HTTPOutcome) {
        let decided = self.connection.isGone.withLock { isGone -> [@Sendable () -> Void]? in
            guard self.state == .pending, !isGone else { return nil }
            var dropped: [@Sendable () -> Void] = []
            if case .close = outcome {
                self.state = .closeRequested
            } else {
                self.state = .answered
                swap(&dropped, &self.closeHandlers)
            }
            return dropped
        }
        guard var dropped = decided else { return }
        // Released here, outside the lock: a closure's captures may run user code in their deinit.
        dropped.removeAll()
        self.connection.loop.deliver(self, outcome)
    }
}
