import Foundation
import PlatformSupport

/// An HTTP/1.1 server on POSIX sockets: one thread accepts, `limits.eventLoopCount` threads (2 by default) run
/// non-blocking `poll()` loops over the connections, and every parsed request goes to `handler` on a loop thread.
///
/// - Keep-alive, and pipelining: requests on one connection are handed to the handler in order and their answers
///   are written in that order, whichever order the handler answers them in.
/// - Bodies need `Content-Length` (up to `limits.maxBodyBytes`); `Transfer-Encoding: chunked` is answered 411,
///   other transfer codings 501. POST, PUT and PATCH without `Content-Length` are answered 411.
/// - `Connection: close` closes the connection after that answer; HTTP/1.0 closes unless it asks for keep-alive.
/// - Framing errors get a JSON answer (`{"status":400,"error":true,"message":…,"service":"Balancer"}`, 414 with
///   PubNub's exact body) and then the connection closes; other connections are not affected.
/// - A client that closes its connection abandons its unanswered requests: their sinks report `isClosed` and run
///   their `onClose` handlers on the loop thread.
/// - `respondRaw` and `close()` on a sink take their turn in request order like answers: whatever is due to earlier
///   requests on the connection is written first.
/// - Bounded (`HTTPServerLimits`): a request's header block and body must each arrive within their timeouts (else
///   408 and close); an idle keep-alive connection is closed after the idle timeout; a connection whose client takes
///   no answer bytes for the send timeout is closed; at `maxConnections` a new connection takes the place of the one
///   idle longest, or is answered 503 when none is idle. A parked request (a long-poll) is never timed out by the
///   server: the handler decides when to answer it.
/// - A connection stops handing requests to the handler while the answers it holds exceed
///   `limits.maxBufferedOutputBytes`, so a client that pipelines and reads nothing cannot make it produce more.
/// - Not supported: chunked request bodies, `Expect: 100-continue` (no interim 100 is sent; the body is read when
///   the client sends it).
/// - Writes never raise SIGPIPE.
public final class HTTPServer: @unchecked Sendable {
    // @unchecked: the mutable lifecycle state lives in `state` (a `Locked`); every other stored property is an
    // immutable `let`. `lifecycle` only serialises `start()`, `stopAccepting()` and `resumeAccepting()` (each takes
    // it with `defer` for its whole call, across the socket and thread work); it guards no data, so it is not a box.

    private enum Phase {
        case idle
        case running(acceptor: HTTPAcceptor, loops: [HTTPEventLoop])
        case stopping(done: Latch, loops: [HTTPEventLoop], acceptor: HTTPAcceptor)
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var boundPort: UInt16?
        var isAccepting = false
        /// A bound, non-listening socket holding the port while `stopAccepting()` is in effect (see
        /// `POSIXSocket.reserve`), so a refusal cannot lose the port to another program.
        var reservation: Int32?
    }

    /// The address the server listens on, as given to `init`.
    public let host: String
    /// The limits the server enforces.
    public let limits: HTTPServerLimits
    private let requestedPort: UInt16
    private let handler: any HTTPHandler
    private let lifecycle = NSLock()
    private let state = Locked(State())
    private let counter = Locked(0)
    private let heldBack = Locked(0)

    /// Creates a stopped server; nothing is bound until `start()`.
    ///
    /// - Parameters:
    ///   - host: Numeric IPv4 or IPv6 address (or `localhost`) to listen on; loopback by default. Names are not
    ///     resolved, so starting never waits for DNS.
    ///   - port: Port to listen on; 0 lets the kernel choose (read it from `port` after `start()`).
    ///   - limits: Parsing limits and thread count.
    ///   - handler: Answers every request; called on the server's loop threads, never while a lock is held.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 0,
        limits: HTTPServerLimits = .init(),
        handler: any HTTPHandler
    ) {
        self.host = host
        self.requestedPort = port
        self.limits = limits
        self.handler = handler
    }

    deinit {
        self.stop()
    }

    /// The port the server listens on: the kernel-chosen one once started with port 0, else the requested one.
    public var port: UInt16 {
        self.state.withLock { $0.boundPort } ?? self.requestedPort
    }

    /// Connections currently open (accepted and not yet closed), including ones the server is closing.
    public var connectionCount: Int {
        self.counter.withLock { $0 }
    }

    /// Connections that stopped reading requests because the answers they hold reached
    /// `HTTPServerLimits.maxBufferedOutputBytes` and the client has not taken them, as of each loop's last poll; for
    /// tests that check that no further request is handled until the client reads.
    var heldBackConnectionCount: Int {
        self.heldBack.withLock { $0 }
    }

    /// True while the listening socket is open (between `start()` / `resumeAccepting()` and `stop()` /
    /// `stopAccepting()`).
    public var isAccepting: Bool {
        self.state.withLock { $0.isAccepting }
    }

    // MARK: - Lifecycle

    /// Binds `host`:`port`, listens, and starts the accepting and event-loop threads. Returns once the server
    /// accepts connections.
    ///
    /// Raises the process's soft open-files limit to its hard limit first, so many parked connections fit.
    ///
    /// - Throws: `HTTPServerError.addressInUse` when the port is taken, `.invalidHost` when `host` cannot be
    ///   listened on, `.socketFailed` for other socket errors, `.alreadyStarted` when running, `.stopped` after
    ///   `stop()` (a server is started once; create a new one on the same port instead).
    public func start() throws(HTTPServerError) {
        self.lifecycle.lock()
        defer { self.lifecycle.unlock() }
        switch self.state.withLock({ $0.phase }) {
        case .idle: break
        case .running: throw .alreadyStarted
        case .stopping, .stopped: throw .stopped
        }
        POSIXSocket.raiseOpenFileLimit()
        let (listener, boundPort) = try POSIXSocket.listen(host: self.host, port: self.requestedPort)
        var loops: [HTTPEventLoop] = []
        let acceptor: HTTPAcceptor
        do {
            for _ in 0..<max(1, self.limits.eventLoopCount) {
                loops.append(
                    try HTTPEventLoop(
                        handler: self.handler,
                        limits: self.limits,
                        counter: self.counter,
                        heldBack: self.heldBack
                    )
                )
            }
            acceptor = try HTTPAcceptor(
                listener: listener,
                loops: loops,
                counter: self.counter,
                maxConnections: max(0, self.limits.maxConnections)
            )
        } catch {
            POSIXSocket.closeDescriptor(listener)
            throw error
        }
        for (number, loop) in loops.enumerated() {
            NamedThread.start("origin.loop\(number)") { loop.run() }
            loop.started.wait()  // the loop knows its thread before any answer can be delivered to it
        }
        NamedThread.start("origin.accept") { acceptor.run() }
        self.state.withLock {
            $0.phase = .running(acceptor: acceptor, loops: loops)
            $0.boundPort = boundPort
            $0.isAccepting = true
        }
    }

    /// Stops the server: closes the listening socket and every connection (unanswered requests get their
    /// `onClose` handlers run, on the loop threads), and ends every server thread. Returns once all of that is
    /// done; the port can then be bound again. Idempotent, and safe to call concurrently.
    ///
    /// When called on one of the server's own threads (from a handler or an `onClose` handler) it cannot wait for
    /// that thread, so it starts the stop and returns at once; a `stop()` from any other thread, then or later,
    /// returns only when everything has ended.
    public func stop() {
        enum Action {
            case nothing
            case wait(Latch, [HTTPEventLoop], HTTPAcceptor)
            case perform(Latch, [HTTPEventLoop], HTTPAcceptor)
        }
        let action = self.state.withLock { state -> Action in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return .nothing
            case .stopped:
                return .nothing
            case .stopping(let done, let loops, let acceptor):
                return .wait(done, loops, acceptor)
            case .running(let acceptor, let loops):
                let done = Latch()
                state.phase = .stopping(done: done, loops: loops, acceptor: acceptor)
                state.isAccepting = false
                return .perform(done, loops, acceptor)
            }
        }
        self.releaseReservation()
        switch action {
        case .nothing:
            return
        case .wait(let done, let loops, let acceptor):
            if !acceptor.isCurrentThread, !loops.contains(where: { $0.isCurrentThread }) { done.wait() }
        case .perform(let done, let loops, let acceptor):
            acceptor.requestStop()
            for loop in loops { loop.enqueue(.stop) }
            let finish: @Sendable () -> Void = { [state = self.state] in
                acceptor.finished.wait()
                for loop in loops { loop.finished.wait() }
                state.withLock { $0.phase = .stopped }
                done.open()
            }
            if acceptor.isCurrentThread || loops.contains(where: { $0.isCurrentThread }) {
                // This thread ends only after its callback returns, so another thread waits for the end on its
                // behalf; concurrent `stop()` callers wait for that.
                NamedThread.start("origin.stop", finish)
            } else {
                finish()
            }
        }
    }

    // MARK: - Fault injection

    /// Closes the listening socket while keeping existing connections: new connections are refused (the client
    /// sees "connection refused") until `resumeAccepting()`. Returns once the socket is closed; no-op when not
    /// accepting.
    public func stopAccepting() {
        self.lifecycle.lock()
        defer { self.lifecycle.unlock() }
        guard case .running(let acceptor, _) = self.state.withLock({ $0.phase }) else { return }
        acceptor.closeListener()
        // Right after the close (a listening socket and a reservation cannot share the port), so the port is free
        // only for that instant. `lifecycle` serialises this with `resumeAccepting()`.
        let held = self.state.withLock { $0.reservation != nil }
        let reservation = held ? nil : POSIXSocket.reserve(host: self.host, port: self.port)
        self.state.withLock { state in
            state.isAccepting = false
            if let reservation { state.reservation = reservation }
        }
    }

    /// Closes the port reservation of `stopAccepting()`, if any.
    private func releaseReservation() {
        if let fd = self.state.withLock({ state -> Int32? in
            defer { state.reservation = nil }
            return state.reservation
        }) {
            POSIXSocket.closeDescriptor(fd)
        }
    }

    /// Binds the same host and port again after `stopAccepting()` and accepts new connections. No-op when already
    /// accepting.
    ///
    /// - Throws: `HTTPServerError.addressInUse` when something else took the port meanwhile and still holds it after
    ///   2 s of retrying, `.notStarted` before `start()`, `.stopped` after `stop()`, `.socketFailed` for other socket
    ///   errors.
    public func resumeAccepting() throws(HTTPServerError) {
        self.lifecycle.lock()
        defer { self.lifecycle.unlock() }
        let (phase, isAccepting) = self.state.withLock { ($0.phase, $0.isAccepting) }
        let acceptor: HTTPAcceptor
        switch phase {
        case .idle: throw .notStarted
        case .stopping, .stopped: throw .stopped
        case .running(let running, _): acceptor = running
        }
        guard !isAccepting else { return }
        let (listener, _) = try Self.retryingWhilePortInUse { () throws(HTTPServerError) in
            try POSIXSocket.listen(host: self.host, port: self.port)
        }
        guard acceptor.replaceListener(listener) else {
            POSIXSocket.closeDescriptor(listener)
            throw .stopped
        }
        self.state.withLock { $0.isAccepting = true }
        self.releaseReservation()
    }

    /// Runs `attempt` again, every 20 ms for up to `patience` seconds, while it fails with `.addressInUse`; any other
    /// outcome, or the last failure, is returned or thrown. For listening again on a port given up for an instant
    /// (`stopAccepting()`, a restart), which a short-lived socket may take in that instant — a connect to this very
    /// port, refused or connected to itself, or another server's bind to a free port — and let go within moments.
    static func retryingWhilePortInUse<Value>(
        patience: Double = 2,
        _ attempt: () throws(HTTPServerError) -> Value
    ) throws(HTTPServerError) -> Value {
        let giveUp = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, patience) * 1e9)
        while true {
            do {
                return try attempt()
            } catch .addressInUse where DispatchTime.now().uptimeNanoseconds < giveUp {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// Closes every open connection at once, without answers, and keeps listening. Unanswered requests get their
    /// `onClose` handlers run on the loop threads. Returns once every loop has closed its connections, except when
    /// called on a loop thread (from a handler), where it returns at once and the closing happens right after.
    public func closeAllConnections() {
        guard case .running(_, let loops) = self.state.withLock({ $0.phase }) else { return }
        var latches: [Latch] = []
        for loop in loops {
            if loop.isCurrentThread {
                loop.enqueue(.closeAll(nil))
            } else {
                let latch = Latch()
                if loop.enqueue(.closeAll(latch)) { latches.append(latch) }
            }
        }
        for latch in latches { latch.wait() }
    }
}
