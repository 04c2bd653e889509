import Dispatch
import Foundation
import PlatformSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// One `poll()` loop on its own thread, serving the connections the acceptor hands it.
///
/// Other threads talk to it only through `enqueue` (adopt a descriptor, deliver an answer, close everything, stop),
/// which appends to a locked task list and wakes the loop through its self-pipe. Everything about a connection is
/// touched on the loop thread only, so the handler is always called without any lock held.
final class HTTPEventLoop: @unchecked Sendable {
    // @unchecked: `threadID` is written once by the loop thread before `started` opens (everyone who can reach the loop afterwards is ordered
    // after that); every other `var` is only touched on the loop thread.

    enum Task: Sendable {
        case adopt(Int32)
        /// A connection accepted at the connection cap: close this loop's connection idle longest and adopt it, or
        /// refuse it (503) when none is idle.
        case adoptOverCap(Int32)
        case deliver(HTTPConnectionSink, HTTPOutcome)
        case closeAll(Latch?)
        case stop
    }

    let handler: any HTTPHandler
    let started = Latch()
    let finished = Latch()
    private let limits: HTTPServerLimits
    private let counter: Locked<Int>
    /// The server's count of connections held back on output (`HTTPConnection.isHeldBackOnOutput`), shared by its
    /// loops; this loop adds the change of its own count as it builds each poll set.
    private let heldBack: Locked<Int>
    /// This loop's share of `heldBack` (loop thread).
    private var heldBackHere = 0
    private let wakePipe: HTTPWakePipe
    /// What other threads hand to the loop.
    private struct Inbox {
        var tasks: [Task] = []
        /// A wake byte was written and the loop has not taken the tasks since.
        var wakePending = false
        /// False once the loop stopped: `enqueue` refuses.
        var acceptsTasks = true
    }

    private let inbox = Locked(Inbox())
    private var threadID: pthread_t?

    /// Idle connections of this loop (see `HTTPConnection.ReadTimer.idle`), for the acceptor's choice at the cap.
    private let idle = Locked(0)

    private var running = true
    private var connections: [HTTPConnection] = []
    private var dirty: [HTTPConnection] = []
    /// The earliest connection deadline seen when the poll set was built (`UInt64.max`: none).
    private var earliestDeadline = UInt64.max
    private var pollFDs: [pollfd] = []
    private var pollConnections: [HTTPConnection] = []
    private let scratch: UnsafeMutableRawBufferPointer

    private static let scratchSize = 64 * 1024

    init(
        handler: any HTTPHandler,
        limits: HTTPServerLimits,
        counter: Locked<Int>,
        heldBack: Locked<Int>
    ) throws(HTTPServerError) {
        self.handler = handler
        self.limits = limits
        self.counter = counter
        self.heldBack = heldBack
        self.wakePipe = try HTTPWakePipe()
        self.scratch = .allocate(byteCount: Self.scratchSize, alignment: 16)
    }

    deinit {
        self.scratch.deallocate()
    }

    /// True when called on this loop's thread.
    var isCurrentThread: Bool {
        guard let threadID = self.threadID else { return false }
        return pthread_equal(threadID, pthread_self()) != 0
    }

    // MARK: - Cross-thread entry points

    /// Hands `task` to the loop. Returns false when the loop has stopped (the caller cleans up, e.g. closes an
    /// adopted descriptor).
    @discardableResult
    func enqueue(_ task: Task) -> Bool {
        self.inbox.withLock { inbox in
            guard inbox.acceptsTasks else { return false }
            inbox.tasks.append(task)
            if !inbox.wakePending {
                inbox.wakePending = true
                self.wakePipe.wake()
            }
            return true
        }
    }

    /// Carries a sink's outcome to its connection: directly when already on this thread, else as a task.
    func deliver(_ sink: HTTPConnectionSink, _ outcome: HTTPOutcome) {
        if self.isCurrentThread {
            self.apply(sink, outcome)
        } else {
            self.enqueue(.deliver(sink, outcome))
        }
    }

    // MARK: - Loop

    /// The thread body: runs until a `.stop` task, then closes every connection and opens `finished`.
    func run() {
        self.threadID = pthread_self()
        self.started.open()
        while self.running {
            self.pollOnce()
        }
        self.shutDown()
        self.finished.open()
    }

    private func pollOnce() {
        self.pollFDs.removeAll(keepingCapacity: true)
        self.pollConnections.removeAll(keepingCapacity: true)
        self.pollFDs.append(pollfd(fd: self.wakePipe.readFD, events: POSIXSocket.pollIn, revents: 0))
        var earliest = UInt64.max
        var heldBack = 0
        for connection in self.connections {
            self.pollFDs.append(pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0))
            self.pollConnections.append(connection)
            earliest = min(earliest, connection.nextDeadline)
            if connection.isHeldBackOnOutput { heldBack += 1 }
        }
        self.earliestDeadline = earliest
        if heldBack != self.heldBackHere {
            let change = heldBack - self.heldBackHere
            self.heldBack.withLock { $0 += change }
            self.heldBackHere = heldBack
        }
        let ready = POSIXSocket.poll(&self.pollFDs, timeout: self.pollTimeout())
        if ready > 0, self.pollFDs[0].revents != 0 {
            self.wakePipe.drain()  // before taking the tasks, so a wake written after the take is not lost
        }
        self.runTasks()
        if ready > 0 {
            for position in 1..<self.pollFDs.count where self.pollFDs[position].revents != 0 {
                let connection = self.pollConnections[position - 1]
                let events = self.pollFDs[position].revents
                if connection.phase == .closed { continue }
                if events & (POSIXSocket.pollIn | POSIXSocket.pollError) != 0 {
                    connection.readable(into: self.scratch)
                }
                if connection.phase == .open, events & POSIXSocket.pollOut != 0 {
                    connection.writable()
                }
            }
        }
        self.pollConnections.removeAll(keepingCapacity: true)
        self.flushDirty()
        if self.earliestDeadline != .max { self.expireTimers() }
    }

    private func runTasks() {
        let taken = self.inbox.withLock { inbox in
            let taken = inbox.tasks
            inbox.tasks.removeAll(keepingCapacity: true)
            inbox.wakePending = false
            return taken
        }
        for task in taken {
            switch task {
            case .adopt(let fd):
                self.adopt(fd)
            case .adoptOverCap(let fd):
                self.adoptOverCap(fd)
            case .deliver(let sink, let outcome):
                self.apply(sink, outcome)
            case .closeAll(let latch):
                self.closeAll()
                latch?.open()
            case .stop:
                self.running = false
            }
        }
    }

    private func flushDirty() {
        while !self.dirty.isEmpty {
            let batch = self.dirty
            self.dirty.removeAll(keepingCapacity: true)
            for connection in batch {
                connection.isDirty = false
                if connection.phase == .open { connection.flush() }
            }
        }
    }

    private func pollTimeout() -> Int32 {
        guard self.earliestDeadline != .max else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard self.earliestDeadline > now else { return 0 }
        return Int32(clamping: (self.earliestDeadline - now) / 1_000_000 + 1)
    }

    /// Lets every connection act on the deadlines that passed (timeouts, the end of lingering).
    private func expireTimers() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard self.earliestDeadline <= now else { return }
        // Acting may close connections (which reorders `connections`), so walk a snapshot of the due ones.
        let due = self.connections.filter { $0.nextDeadline <= now }
        for connection in due { connection.expireTimers(now: now) }
        self.flushDirty()
    }

    // MARK: - Idle connections

    /// How many of this loop's connections are idle; read by the acceptor from its thread.
    var idleCount: Int { self.idle.withLock { $0 } }

    /// Called by a connection whose read timer enters or leaves the idle state.
    func idleCountChanged(by delta: Int) {
        self.idle.withLock { $0 += delta }
    }

    // MARK: - Connections (loop thread)

    private func adopt(_ fd: Int32) {
        let connection = HTTPConnection(fd: fd, loop: self, limits: self.limits)
        connection.index = self.connections.count
        self.connections.append(connection)
        connection.started()
    }

    /// At the connection cap: the connection idle longest makes room for `fd`; without an idle one, `fd` is
    /// answered 503 and closed (it lingers like any connection the server closes after an answer).
    private func adoptOverCap(_ fd: Int32) {
        var oldest: HTTPConnection?
        for connection in self.connections
        where connection.phase == .open && connection.readTimer == .idle
            && connection.readTimerSince < (oldest?.readTimerSince ?? .max)
        {
            oldest = connection
        }
        if let oldest {
            self.closeConnection(oldest)
            self.adopt(fd)
            return
        }
        let connection = HTTPConnection(fd: fd, loop: self, limits: self.limits)
        connection.index = self.connections.count
        self.connections.append(connection)
        connection.appendErrorAnswer(.tooManyConnections)
        connection.flush()
    }

    private func apply(_ sink: HTTPConnectionSink, _ outcome: HTTPOutcome) {
        let connection = sink.connection
        guard connection.phase == .open else { return }  // answers to closed connections are dropped
        sink.outcome = outcome
        connection.answerArrived(outcome)
    }

    func markDirty(_ connection: HTTPConnection) {
        guard !connection.isDirty else { return }
        connection.isDirty = true
        self.dirty.append(connection)
    }

    /// Shuts down the sending side (the client sees end of stream after the last answer) and keeps reading for
    /// `lingerMilliseconds` so unread client bytes do not turn the close into a reset.
    func beginLinger(_ connection: HTTPConnection) {
        guard connection.phase == .open else { return }
        POSIXSocket.shutdownWrite(connection.fd)
        connection.phase = .lingering
        let linger = UInt64(max(0, self.limits.lingerMilliseconds)) * 1_000_000
        connection.lingerDeadline = DispatchTime.now().uptimeNanoseconds + linger
        connection.markGone()
    }

    /// Closes the descriptor at once; requests not answered get their `onClose` handlers run.
    func closeConnection(_ connection: HTTPConnection) {
        guard connection.phase != .closed else { return }
        let wasOpen = connection.phase == .open
        connection.phase = .closed
        POSIXSocket.closeDescriptor(connection.fd)
        let index = connection.index
        let last = self.connections.removeLast()
        if last !== connection {
            self.connections[index] = last
            last.index = index
        }
        connection.index = -1
        self.counter.withLock { $0 -= 1 }
        if wasOpen { connection.markGone() }
    }

    private func closeAll() {
        for connection in self.connections { self.closeConnection(connection) }
    }

    private func shutDown() {
        self.closeAll()
        let heldBackHere = self.heldBackHere
        self.heldBack.withLock { $0 -= heldBackHere }
        self.heldBackHere = 0
        let leftover = self.inbox.withLock { inbox in
            inbox.acceptsTasks = false
            let leftover = inbox.tasks
            inbox.tasks = []
            return leftover
        }
        for task in leftover {
            switch task {
            case .adopt(let fd), .adoptOverCap(let fd):
                POSIXSocket.closeDescriptor(fd)
                self.counter.withLock { $0 -= 1 }
            case .closeAll(let latch):
                latch?.open()
            case .deliver, .stop:
                break
            }
        }
        self.wakePipe.close()
    }
}
