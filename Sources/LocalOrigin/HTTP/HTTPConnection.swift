import Foundation
import PlatformSupport

/// One accepted TCP connection, owned by one event loop.
///
/// Requests are parsed in arrival order and each gets a sink in `slots`; answers are written strictly in slot
/// order, whichever order the handler answers in. After a framing error, a timeout, `Connection: close`,
/// `respondRaw(…, thenClose: true)` or `close()`, the connection stops taking requests, writes what is due, shuts
/// down its sending side and drains the client's remaining bytes for a moment ("lingers") before closing, so the
/// client reads the last answer instead of a reset.
///
/// Timers (`HTTPServerLimits`): while a request is being read, its header block and its body each have a deadline;
/// while nothing is in progress the connection is idle and has one; while answers wait for the client to take them,
/// the socket must accept some bytes within the send timeout. The loop reads `nextDeadline` and calls
/// `expireTimers(now:)`.
final class HTTPConnection: @unchecked Sendable {
    // @unchecked: every sink's `state`/`closeHandlers` is only touched inside `isGone.withLock`; all other `var`s are
    // only touched on `loop`'s thread.

    enum Phase {
        /// Reading requests and writing answers.
        case open
        /// Sending side shut down; reading and discarding until end of stream or `lingerDeadline`.
        case lingering
        /// Descriptor closed.
        case closed
    }

    let fd: Int32
    let loop: HTTPEventLoop
    /// True once the connection can no longer deliver answers. Its lock also guards every sink's `state` and
    /// `closeHandlers`, so a sink's answer and the connection going away are decided in one order.
    let isGone = Locked(false)

    // MARK: Loop-thread state

    var phase = Phase.open
    /// Position in the loop's connection list.
    var index = -1
    /// Already listed in the loop's list of connections with answers to write.
    var isDirty = false
    /// True while the connection itself parses and dispatches: answers given synchronously by the handler do not mark
    /// it dirty one by one; it marks itself once done, behind the connections the handler answered meanwhile.
    var isProcessing = false
    var lingerDeadline: UInt64 = 0
    /// The read deadline in effect and when it passes (monotonic nanoseconds); changed only through `setReadTimer`
    /// (HTTPConnection+Timers.swift), which keeps the loop's idle count.
    var readTimer = ReadTimer.none
    var readDeadline: UInt64 = 0
    /// When the read timer in effect was set (for finding the connection idle longest).
    var readTimerSince: UInt64 = 0
    /// When the client must have taken some answer bytes; 0 when nothing waits to be sent.
    private(set) var sendDeadline: UInt64 = 0

    private(set) var parser: HTTPParser
    /// Unconsumed input, starting at the first byte of the request being parsed.
    var input: [UInt8] = []
    /// False after a request that ends the connection (framing error, `Connection: close`): later bytes are
    /// read and discarded.
    private(set) var takesRequests = true
    private var slots: [HTTPConnectionSink?] = []
    private var slotHead = 0
    private(set) var output: [UInt8] = []
    private var outputSent = 0
    /// Body bytes of answers that arrived but are not yet in `output` (waiting for their turn).
    private var waitingAnswerBytes = 0
    private var closeAfterOutput = false
    private let maxPipelined: Int
    /// Held answer bytes at which the connection stops handing requests to the handler and stops reading.
    private let maxHeldBytes: Int
    let headerTimeout: UInt64?
    let bodyTimeout: UInt64?
    let idleTimeout: UInt64?
    private let sendTimeout: UInt64?

    init(fd: Int32, loop: HTTPEventLoop, limits: HTTPServerLimits) {
        self.fd = fd
        self.loop = loop
        self.parser = HTTPParser(limits: limits)
        self.maxPipelined = max(1, limits.maxPipelinedRequests)
        self.maxHeldBytes = max(1, limits.maxBufferedOutputBytes)
        self.headerTimeout = HTTPServerLimits.nanoseconds(limits.headerTimeoutMilliseconds)
        self.bodyTimeout = HTTPServerLimits.nanoseconds(limits.bodyTimeoutMilliseconds)
        self.idleTimeout = HTTPServerLimits.nanoseconds(limits.idleTimeoutMilliseconds)
        self.sendTimeout = HTTPServerLimits.nanoseconds(limits.sendTimeoutMilliseconds)
    }

    var pendingCount: Int { self.slots.count - self.slotHead }

    /// Answer bytes the connection holds: serialised but unsent, plus answers waiting for their turn.
    private var heldBytes: Int { self.output.count - self.outputSent + self.waitingAnswerBytes }

    /// True while the connection may hand another request to the handler (and so reads): the pipeline has room and
    /// the answers it holds are below the bound.
    var takesMoreWork: Bool { self.pendingCount < self.maxPipelined && self.heldBytes < self.maxHeldBytes }

    /// True while the connection holds requests back because of its output: the answers it holds reached their
    /// bound, so it neither reads nor hands requests to the handler, and some are unsent because the client has not
    /// taken them (it waits for POLLOUT). It stays so until the client reads.
    var isHeldBackOnOutput: Bool {
        self.phase == .open && self.takesRequests && self.heldBytes >= self.maxHeldBytes
            && self.output.count > self.outputSent
    }

    /// The poll events this connection waits for.
    var pollEvents: Int16 {
        switch self.phase {
        case .open:
            var events: Int16 = 0
            let unsent = self.output.count - self.outputSent
            if unsent > 0 { events |= POSIXSocket.pollOut }
            if !self.takesRequests || self.takesMoreWork { events |= POSIXSocket.pollIn }
            return events
        case .lingering:
            return POSIXSocket.pollIn
        case .closed:
            return 0
        }
    }

    // MARK: - Reading

    /// Reads what the socket has and dispatches every complete request. `scratch` is the loop's read buffer.
    func readable(into scratch: UnsafeMutableRawBufferPointer) {
        let count = POSIXSocket.receive(self.fd, scratch)
        if count < 0 {
            if POSIXSocket.isTransient(POSIXSocket.lastError) { return }
            self.loop.closeConnection(self)
            return
        }
        if count == 0 {
            self.peerClosed()
            return
        }
        guard self.phase == .open, self.takesRequests else { return }  // lingering or discarding
        let bytes = UnsafeBufferPointer(start: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        self.isProcessing = true
        if self.input.isEmpty {
            let consumed = self.process(bytes)
            if self.takesRequests, consumed < count {
                self.input.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed...]))
            }
        } else {
            self.input.append(contentsOf: bytes)
            self.processInput()
        }
        self.isProcessing = false
        // Written with the loop's other answers, in the order they were decided: a publish's own answer after the
        // parked long-polls it answered, so the subscriber's worker is woken first (a reader woken on this loop's
        // core runs before the loop writes its next answer).
        self.loop.markDirty(self)
    }

    /// A sink's outcome arrived (on the loop thread): count what it holds until it is written.
    func answerArrived(_ outcome: HTTPOutcome) {
        switch outcome {
        case .response(let response): self.waitingAnswerBytes += response.body.count
        case .raw(let bytes, _): self.waitingAnswerBytes += bytes.count
        case .close: break
        }
        if !self.isProcessing { self.loop.markDirty(self) }
    }

    /// End of stream from the client. Answers already decided are sent on a best-effort basis; requests still
    /// waiting for the handler are abandoned (their sinks close), which is how a long-poll client hangs up.
    private func peerClosed() {
        if self.phase == .open { self.writeAnswers() }
        self.loop.closeConnection(self)
    }

    private func processInput() {
        let consumed = self.input.withUnsafeBufferPointer { self.process($0) }
        if !self.takesRequests {
            self.input = []
        } else if consumed > 0 {
            self.input.removeFirst(consumed)
        }
    }

    /// Parses and dispatches requests from `bytes` (which starts at a request's first byte) until more bytes are
    /// needed, the pipeline is full, the answers held reach their bound, or the connection stops taking requests.
    /// Returns the bytes consumed.
    private func process(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var offset = 0
        while self.takesRequests, self.takesMoreWork {
            switch self.parser.parse(UnsafeBufferPointer(rebasing: bytes[offset...])) {
            case .needMore:
                return offset
            case .request(let request, let keepAlive, let consumed):
                offset += consumed
                self.setReadTimer(.none, 0)  // the next request's timers start with its own first byte
                if !keepAlive { self.takesRequests = false }
                let sink = HTTPConnectionSink(connection: self, keepAlive: keepAlive, isHead: request.method == "HEAD")
                self.slots.append(sink)
                // No lock is held here: the handler may answer at once, on this thread, or later from anywhere.
                self.loop.handler.handle(request, sink: sink)
            case .failure(let error):
                self.takesRequests = false
                self.appendErrorAnswer(error)
                return offset
            }
        }
        return offset
    }

    // MARK: - Writing

    /// Writes every answer whose turn has come, then resumes parsing buffered requests if the pipeline had filled
    /// or the held answers had reached their bound; finally sets the timers for the state it leaves.
    func flush() {
        defer { self.updateTimers() }
        while self.phase == .open {
            self.writeAnswers()
            guard self.phase == .open else { return }
            if self.closeAfterOutput {
                if self.output.count == self.outputSent { self.loop.beginLinger(self) }
                return
            }
            // The pipeline was full (or the answers held too large) and has room again: parse what is buffered.
            guard self.takesRequests, !self.input.isEmpty, self.takesMoreWork else { return }
            let before = self.slots.count
            self.isProcessing = true
            self.processInput()
            self.isProcessing = false
            if self.slots.count == before { return }
        }
    }

    /// Serialises the answers at the head of the queue into `output` and sends as much as the socket takes.
    private func writeAnswers() {
        while !self.closeAfterOutput, self.slotHead < self.slots.count,
            let sink = self.slots[self.slotHead], let outcome = sink.outcome
        {
            if case .close = outcome {
                // Left in the queue, so closing marks it closed and runs its `onClose` handlers like the others.
                self.closeAfterOutput = true
                break
            }
            self.slots[self.slotHead] = nil
            self.slotHead += 1
            switch outcome {
            case .response(let response):
                self.waitingAnswerBytes -= response.body.count
                response.write(to: &self.output, keepAlive: sink.keepAlive, includeBody: !sink.isHead)
                if !sink.keepAlive { self.closeAfterOutput = true }
            case .raw(let bytes, let thenClose):
                self.waitingAnswerBytes -= bytes.count
                self.output.append(contentsOf: bytes)
                if thenClose || !sink.keepAlive { self.closeAfterOutput = true }
            case .close:
                break
            }
        }
        if self.slotHead == self.slots.count {
            self.slots.removeAll(keepingCapacity: true)
            self.slotHead = 0
        }
        self.send()
    }

    /// Sends unsent output until done or the socket is full (then the loop polls for POLLOUT).
    func send() {
        var progressed = false
        defer {
            // The send timeout runs from the last byte the client took (or from when output started waiting).
            if self.phase == .open, self.outputSent < self.output.count, let sendTimeout = self.sendTimeout {
                if progressed || self.sendDeadline == 0 {
                    self.sendDeadline = DispatchTime.now().uptimeNanoseconds + sendTimeout
                }
            } else {
                self.sendDeadline = 0
            }
        }
        while self.outputSent < self.output.count {
            let sent = self.output.withUnsafeBytes { buffer in
                POSIXSocket.send(self.fd, UnsafeRawBufferPointer(rebasing: buffer[self.outputSent...]))
            }
            if sent > 0 {
                self.outputSent += sent
                progressed = true
                continue
            }
            let code = POSIXSocket.lastError
            if sent < 0, code == EINTR { continue }
            if sent < 0, POSIXSocket.isTransient(code) { return }
            self.loop.closeConnection(self)
            return
        }
        if self.output.capacity > 256 * 1024 {
            self.output = []  // do not keep a large answer's buffer for the connection's lifetime
        } else {
            self.output.removeAll(keepingCapacity: true)
        }
        self.outputSent = 0
    }

    /// Called when POLLOUT fired: continue sending, and finish closing if that was the last output.
    func writable() {
        self.send()
        if self.phase == .open, self.output.isEmpty {
            if self.closeAfterOutput {
                self.loop.beginLinger(self)
            } else {
                self.flush()
            }
        }
    }

    /// Queues a server-made error answer (framing error, timeout, refusal) in request order and stops taking
    /// requests; the connection closes once it is written.
    func appendErrorAnswer(_ error: HTTPParseError) {
        self.takesRequests = false
        let sink = HTTPConnectionSink(connection: self, error: error)
        if case .response(let response)? = sink.outcome { self.waitingAnswerBytes += response.body.count }
        self.slots.append(sink)
    }

    /// Called when the connection starts: it waits for its first request.
    func started() {
        self.updateTimers()
    }

    // MARK: - Closing

    /// Marks the connection gone for every sink, runs the `onClose` handlers of requests not answered (on this,
    /// the loop thread, after the lock is released) and drops buffers.
    func markGone() {
        self.setReadTimer(.none, 0)
        self.sendDeadline = 0
        let pending = self.slots[self.slotHead...]
        let handlers = self.isGone.withLock { isGone -> [@Sendable () -> Void] in
            isGone = true
            var handlers: [@Sendable () -> Void] = []
            for case let sink? in pending where sink.state == .pending || sink.state == .closeRequested {
                sink.state = .closed
                handlers.append(contentsOf: sink.closeHandlers)
                sink.closeHandlers = []
            }
            return handlers
        }
        self.slots = []
        self.slotHead = 0
        self.input = []
        self.output = []
        self.outputSent = 0
        self.waitingAnswerBytes = 0
        for handler in handlers { handler() }
    }
}
