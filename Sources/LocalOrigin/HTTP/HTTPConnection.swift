import Foundation

/// One accepted TCP connection, owned by one event loop.
///
/// Requests are parsed in arrival order and each gets a sink in `slots`; answers are written strictly in slot
/// order, whichever order the handler answers in. After a framing error, `Connection: close`, `respondRaw(…,
/// thenClose: true)` or `close()`, the connection stops taking requests, writes what is due, shuts down its
/// sending side and drains the client's remaining bytes for a moment ("lingers") before closing, so the client
/// reads the last answer instead of a reset.
final class HTTPConnection: @unchecked Sendable {
    // @unchecked: `isGone` (and every sink's `state`/`closeHandlers`) is only touched while holding `lock`; all other
    // `var`s are only touched on `loop`'s thread.

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
    let lock = NSLock()
    /// True once the connection can no longer deliver answers (guarded by `lock`).
    var isGone = false

    // MARK: Loop-thread state

    var phase = Phase.open
    /// Position in the loop's connection list.
    var index = -1
    /// Already listed in the loop's list of connections with answers to write.
    var isDirty = false
    /// True while the connection itself parses and dispatches, so answers given synchronously by the handler are
    /// written in one batch afterwards instead of marking the connection dirty.
    var isProcessing = false
    var lingerDeadline: UInt64 = 0

    private var parser: HTTPParser
    /// Unconsumed input, starting at the first byte of the request being parsed.
    private var input: [UInt8] = []
    /// False after a request that ends the connection (framing error, `Connection: close`): later bytes are
    /// read and discarded.
    private var takesRequests = true
    private var slots: [HTTPConnectionSink?] = []
    private var slotHead = 0
    private var output: [UInt8] = []
    private var outputSent = 0
    private var closeAfterOutput = false
    private let maxPipelined: Int

    /// Most unsent output before the connection stops reading new requests (the client is not reading answers).
    private static let maxBufferedOutput = 1 << 20

    init(fd: Int32, loop: HTTPEventLoop, limits: HTTPServerLimits) {
        self.fd = fd
        self.loop = loop
        self.parser = HTTPParser(limits: limits)
        self.maxPipelined = max(1, limits.maxPipelinedRequests)
    }

    private var pendingCount: Int { self.slots.count - self.slotHead }

    /// The poll events this connection waits for.
    var pollEvents: Int16 {
        switch self.phase {
        case .open:
            var events: Int16 = 0
            let unsent = self.output.count - self.outputSent
            if unsent > 0 { events |= HTTPSocket.pollOut }
            let reading =
                !self.takesRequests
                || (self.pendingCount < self.maxPipelined && unsent < Self.maxBufferedOutput)
            if reading { events |= HTTPSocket.pollIn }
            return events
        case .lingering:
            return HTTPSocket.pollIn
        case .closed:
            return 0
        }
    }

    // MARK: - Reading

    /// Reads what the socket has and dispatches every complete request. `scratch` is the loop's read buffer.
    func readable(into scratch: UnsafeMutableRawBufferPointer) {
        let count = HTTPSocket.receive(self.fd, scratch)
        if count < 0 {
            if HTTPSocket.isTransient(HTTPSocket.lastError) { return }
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
        self.flush()
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
    /// needed, the pipeline is full, or the connection stops taking requests. Returns the bytes consumed.
    private func process(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var offset = 0
        while self.takesRequests, self.pendingCount < self.maxPipelined {
            switch self.parser.parse(UnsafeBufferPointer(rebasing: bytes[offset...])) {
            case .needMore:
                return offset
            case .request(let request, let keepAlive, let consumed):
                offset += consumed
                if !keepAlive { self.takesRequests = false }
                let sink = HTTPConnectionSink(connection: self, keepAlive: keepAlive, isHead: request.method == "HEAD")
                self.slots.append(sink)
                // No lock is held here: the handler may answer at once, on this thread, or later from anywhere.
                self.loop.handler.handle(request, sink: sink)
            case .failure(let error):
                self.takesRequests = false
                self.slots.append(HTTPConnectionSink(connection: self, error: error))
                return offset
            }
        }
        return offset
    }

    // MARK: - Writing

    /// Called on the loop thread when a sink's outcome arrived.
    func answerArrived() {
        if !self.isProcessing { self.loop.markDirty(self) }
    }

    /// Writes every answer whose turn has come, then resumes parsing buffered requests if the pipeline had filled.
    func flush() {
        while self.phase == .open {
            self.writeAnswers()
            guard self.phase == .open else { return }
            if self.closeAfterOutput {
                if self.output.count == self.outputSent { self.loop.beginLinger(self) }
                return
            }
            // The pipeline was full and has room again: parse the requests already buffered.
            guard self.takesRequests, !self.input.isEmpty, self.pendingCount < self.maxPipelined,
                self.output.count - self.outputSent < Self.maxBufferedOutput
            else { return }
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
                response.write(to: &self.output, keepAlive: sink.keepAlive, includeBody: !sink.isHead)
                if !sink.keepAlive { self.closeAfterOutput = true }
            case .raw(let bytes, let thenClose):
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
        while self.outputSent < self.output.count {
            let sent = self.output.withUnsafeBytes { buffer in
                HTTPSocket.send(self.fd, buffer.baseAddress! + self.outputSent, buffer.count - self.outputSent)
            }
            if sent > 0 {
                self.outputSent += sent
                continue
            }
            let code = HTTPSocket.lastError
            if sent < 0, code == EINTR { continue }
            if sent < 0, HTTPSocket.isTransient(code) { return }
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

    // MARK: - Closing

    /// Marks the connection gone for every sink, runs the `onClose` handlers of requests not answered (on this,
    /// the loop thread, after the lock is released) and drops buffers.
    func markGone() {
        var handlers: [@Sendable () -> Void] = []
        self.lock.lock()
        self.isGone = true
        for case let sink? in self.slots[self.slotHead...] where sink.state == .pending || sink.state == .closeRequested
        {
            sink.state = .closed
            handlers.append(contentsOf: sink.closeHandlers)
            sink.closeHandlers = []
        }
        self.lock.unlock()
        self.slots = []
        self.slotHead = 0
        self.input = []
        self.output = []
        self.outputSent = 0
        for handler in handlers { handler() }
    }
}
