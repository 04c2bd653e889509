import Foundation
import PlatformSupport

// Pipelined publishes (`PNConfiguration.publishPipelineDepth`): requests written one after another on one keep-alive
// connection without waiting for the answers, which HTTP/1.1 servers send in request order (docs/PROTOCOL.md §1).

/// `HTTPTransport` that writes every request on one keep-alive `http://` connection as soon as it is sent, and
/// matches the answers to the requests in the order they were written.
///
/// Two threads share the connection: a writer that opens it and writes the requests in `send` order, and a reader
/// that reads the answers and completes the request at the head of the line with each. A connection that breaks,
/// closes (`Connection: close`, end of stream) or goes `timeout` without an answer fails every request written on it
/// whose answer had not arrived, with the failure a lost connection gives (`SocketFailure.connectionLost`) or
/// `.timedOut` — never by sending it again: such a request may have reached the server. Requests not yet written when
/// that happens go out on a new connection.
///
/// Plain `http` only: a TLS session cannot be written and read from two threads, so an `https` request fails with
/// `SocketFailure.unsupportedURL` (the engine sends those on its ordinary lane instead).
///
/// A cancelled request completes with `.cancelled` at once; if it was written, its answer is read and dropped so the
/// others stay matched. Completions run exactly once, never inside `send` and never under a lock: on the reader
/// thread (answers and failures of written requests), the writer thread (a connection that could not be opened) or
/// `TransportReports.queue` (cancellations).
final class PipelinedTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: every `var` in each `Line` is read and written only inside `monitor`'s lock (as the `State` is).

    /// How long the writer waits for another request before its thread ends (and its line is retired), unless
    /// `init` is given another.
    static let defaultWriterLinger: TimeInterval = 5
    /// Longest single wait of the reader while nothing is outstanding, so a retired line's reader ends soon.
    private static let idleSliceMilliseconds: Int32 = 1_000

    /// One connection: the requests written on it whose answers have not arrived, oldest first.
    private final class Line: @unchecked Sendable {
        let connection: SocketConnection
        var written: [SocketTask] = []
        /// No more requests are written on it (broken, closed by the server, or retired).
        var retired = false
        /// The writer no longer uses it.
        var writerLeft = false
        /// Threads still using the connection (writer and reader); the last to leave closes it.
        var users = 2

        init(connection: SocketConnection) {
            self.connection = connection
        }
    }

    private struct State {
        var invalidated = false
        var pending: [SocketTask] = []
        var writerRunning = false
        /// The line new requests are written on.
        var line: Line?
        /// Every line whose reader has not ended, `line` and retired ones still awaiting answers alike: what
        /// `invalidate()` cancels.
        var reading: [Line] = []
    }

    private let label: String
    private let writerLinger: TimeInterval
    private let monitor = Monitor(State())
    /// Cancellation reports handed to `TransportReports.queue` and not yet delivered (`SocketTask`).
    private let scheduledReports = Locked(0)

    /// - Parameters:
    ///   - label: Names the threads, for debugging.
    ///   - writerLinger: How long the writer waits for another request before its thread ends and its line is
    ///     retired (the line's reader goes on until the answers of what was written on it are in).
    init(label: String, writerLinger: TimeInterval = PipelinedTransport.defaultWriterLinger) {
        self.label = label
        self.writerLinger = writerLinger
    }

    /// True while the writer thread runs, for tests.
    var isWriterRunning: Bool {
        self.monitor.withLock { $0.writerRunning }
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        guard let target = HTTPTarget(urlText: request.urlText), !target.secure else {
            let task = SocketTask(
                request: request,
                target: HTTPTarget.none,
                scheduledReports: self.scheduledReports,
                completion: completion
            )
            task.finish(.failure(SocketFailure.unsupportedURL))
            return task
        }
        let task = SocketTask(
            request: request,
            target: target,
            scheduledReports: self.scheduledReports,
            completion: completion
        )
        enum Step { case cancel, signal, spawn }
        let step = self.monitor.withLock { state -> Step in
            if state.invalidated { return .cancel }
            state.pending.append(task)
            if state.writerRunning { return .signal }
            state.writerRunning = true
            return .spawn
        }
        switch step {
        case .cancel:
            task.cancel()
        case .signal:
            self.monitor.signal()
        case .spawn:
            NamedThread.start("pn.\(self.label).w") { [self] in self.writeLoop() }
        }
        return task
    }

    func invalidate() {
        let (pending, written) = self.monitor.withLock { state -> ([SocketTask], [SocketTask]) in
            state.invalidated = true
            let pending = state.pending
            state.pending = []
            var written: [SocketTask] = []
            // The current line and every retired one still awaiting answers: a line the writer left (it lingered
            // out, or moved to another origin) keeps its written requests until their answers come.
            for line in state.reading {
                // Taken out under the lock, so the reader (woken below) cannot report them as lost first.
                written += line.written
                line.written = []
                line.retired = true
                // Wakes the reader (it sees the end of the stream); the descriptor stays open until its reader left
                // `reading`, which it does under this lock before it leaves the line.
                POSIXSocket.shutdownBoth(line.connection.descriptor)
            }
            return (pending, written)
        }
        self.monitor.broadcast()
        for task in pending + written { task.cancel() }
    }

    // MARK: - Writer

    private func writeLoop() {
        POSIXSocket.blockBrokenPipeSignal()
        while let batch = self.nextPending() {
            var tasks = batch.filter { !$0.isFinished }
            guard let first = tasks.first, let line = self.line(for: first) else { continue }
            if tasks.contains(where: { $0.poolKey != first.poolKey }) {
                // Another origin (the settings changed): those go out after these, on their own connection.
                let others = tasks.drop { $0.poolKey == first.poolKey }
                tasks = Array(tasks.prefix(tasks.count - others.count))
                self.monitor.withLock { $0.pending.insert(contentsOf: others, at: 0) }
            }
            let registered = self.monitor.withLock { state -> Bool in
                guard !line.retired else { return false }
                // Registered before a byte is written, so the reader can never see an answer it cannot match.
                line.written.append(contentsOf: tasks)
                return true
            }
            guard registered else {
                // The line broke between opening and writing: nothing was written, so they go out on the next one.
                self.monitor.withLock { $0.pending.insert(contentsOf: tasks, at: 0) }
                continue
            }
            // Everything waiting goes out in one write: fewer system calls, and the server reads them together.
            var bytes: [UInt8] = []
            for task in tasks {
                bytes.append(contentsOf: SocketPool.head(of: task))
                if let body = task.request.body { bytes.append(contentsOf: body) }
            }
            let milliseconds = Self.milliseconds(first.request.timeout)
            let failure = bytes.withUnsafeBytes { line.connection.stream.write($0, milliseconds: milliseconds) }
            if failure != nil {
                // The reader fails every written request of the line, these included.
                self.monitor.withLock { _ in
                    line.retired = true
                    POSIXSocket.shutdownBoth(line.connection.descriptor)
                }
            }
        }
    }

    /// Every request not yet written, oldest first, or nil when the writer should end (invalidated, or idle for
    /// `writerLinger`); an ending writer retires its line.
    private func nextPending() -> [SocketTask]? {
        self.monitor.wait { state, wake -> MonitorStep<[SocketTask]?> in
            if !state.pending.isEmpty {
                defer { state.pending.removeAll(keepingCapacity: true) }
                return .done(state.pending)
            }
            // The linger starts again after every wake that found nothing to write.
            if wake != .timedOut && !state.invalidated {
                return .waitUntil(Date(timeIntervalSinceNow: self.writerLinger))
            }
            state.writerRunning = false
            if let line = state.line {
                state.line = nil
                self.retireLocked(line)
                self.leaveLocked(line, writer: true)
            }
            return .done(nil)
        }
    }

    /// The connection to write `task` on: the current one when it is usable, else a new one (with its reader). Nil
    /// when none could be opened; `task` then has its failure.
    private func line(for task: SocketTask) -> Line? {
        let current = self.monitor.withLock { state -> Line? in
            guard let line = state.line else { return nil }
            let idle = line.written.isEmpty
            let usable =
                !line.retired && line.connection.poolKey == task.poolKey
                && (!idle || line.connection.isHealthyWhileIdle)
            if usable { return line }
            state.line = nil
            self.retireLocked(line)
            self.leaveLocked(line, writer: true)
            return nil
        }
        if let current { return current }
        let opened = SocketConnection.open(
            to: task.target,
            timeout: task.request.timeout,
            task: task,
            contexts: nil
        )
        switch opened {
        case .failure(let failure):
            task.finishOnWorker(.failure(failure))
            return nil
        case .success(let connection):
            let line = Line(connection: connection)
            let kept = self.monitor.withLock { state -> Bool in
                guard !state.invalidated else { return false }
                state.line = line
                state.reading.append(line)
                return true
            }
            guard kept else {
                connection.close()
                task.cancel()
                return nil
            }
            let limits = task.request.limits
            NamedThread.start("pn.\(self.label).r") { [self] in self.readLoop(line, limits: limits) }
            return line
        }
    }

    /// No more requests go on `line`; the server sees the end of the requests and closes after its last answer.
    private func retireLocked(_ line: Line) {
        guard !line.retired else { return }
        line.retired = true
        POSIXSocket.shutdownWrite(line.connection.descriptor)
    }

    /// One thread stops using `line`; the last closes it. Called inside `monitor`'s lock.
    private func leaveLocked(_ line: Line, writer: Bool) {
        if writer {
            guard !line.writerLeft else { return }
            line.writerLeft = true
        }
        line.users -= 1
        if line.users == 0 { line.connection.close() }
    }

    // MARK: - Reader

    /// Reads the answers of `line` within `limits`: those of the request that opened it (a client's publishes
    /// share theirs, `PNConfiguration.maximumResponseBodySize`).
    private func readLoop(_ line: Line, limits: ResponseLimits) {
        POSIXSocket.blockBrokenPipeSignal()
        var reader = HTTPResponseReader(limits: limits)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { buffer.deallocate() }
        // A worker that reports its answers: the engine handles each on this thread (`WorkerThread.hand(to:_:)`), no
        // queue thread is woken per answer; the listener calls stay on the delivery queue's thread, so the answers
        // behind never wait for app code.
        let failure = WorkerThread.run(for: self, makesListenerCalls: false) { worker in
            self.readAnswers(line, worker: worker, reader: &reader, buffer: buffer, limits: limits)
        }
        let orphans = self.monitor.withLock { _ -> [SocketTask] in
            // The writer sees the line retired and moves to a new one before writing again.
            line.retired = true
            let orphans = line.written
            line.written = []
            return orphans
        }
        for task in orphans { task.finishOnWorker(.failure(failure)) }
        self.monitor.withLock { state in
            state.reading.removeAll { $0 === line }
            self.leaveLocked(line, writer: false)
        }
    }

    /// Completes written requests with their answers until the connection ends; returns why it ended (the failure
    /// of the requests still written on it).
    private func readAnswers(
        _ line: Line,
        worker: WorkerThread,
        reader: inout HTTPResponseReader,
        buffer: UnsafeMutableRawBufferPointer,
        limits: ResponseLimits
    ) -> TransportFailure {
        while true {
            let (head, retired) = self.monitor.withLock { _ in (line.written.first, line.retired) }
            if retired && head == nil { return SocketFailure.connectionLost }
            let milliseconds = head.map { Self.milliseconds($0.request.timeout) } ?? Self.idleSliceMilliseconds
            let count: Int
            switch line.connection.stream.read(into: buffer, milliseconds: milliseconds) {
            case .failure(.timedOut) where head == nil: continue
            case .failure(let failure): return failure
            case .success(let received): count = received
            }
            do {
                var progress: HTTPResponseReader.Progress
                if count == 0 {
                    // End of stream: a close-delimited body ends here; anything else is cut.
                    progress = try reader.finish()
                    if case .complete(let response, _) = progress { self.answer(line, with: response, on: worker) }
                    return SocketFailure.connectionLost
                }
                progress = try reader.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                while case .complete(let response, _) = progress {
                    guard self.answer(line, with: response, on: worker) else {
                        return SocketFailure.badServerResponse
                    }
                    guard reader.keepAlive else { return SocketFailure.connectionLost }
                    progress = try reader.next()
                }
            } catch {
                return SocketFailure.from(error, limits: limits)
            }
        }
    }

    /// Completes the oldest written request of `line` with `response`, reported by `worker`; false when none was
    /// waiting (an unasked answer).
    @discardableResult
    private func answer(_ line: Line, with response: TransportResponse, on worker: WorkerThread) -> Bool {
        let task = self.monitor.withLock { _ -> SocketTask? in
            line.written.isEmpty ? nil : line.written.removeFirst()
        }
        guard let task else { return false }
        worker.report { task.finishOnWorker(.success(response)) }
        return true
    }

    private static func milliseconds(_ timeout: TimeInterval) -> Int32 {
        Int32((SocketConnection.seconds(timeout) * 1_000).rounded(.up))
    }
}
