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

/// The thread that owns the listening socket: accepts connections and deals them round-robin to the event loops.
///
/// The listening descriptor is only ever closed on this thread (a descriptor closed under another thread's `poll`
/// could be reused by an unrelated socket), so other threads ask for changes through `commands` and the wake pipe.
final class HTTPAcceptor: @unchecked Sendable {
    // @unchecked: what other threads touch lives in `control`; `nextLoop` and `backoff` are only touched on the
    // acceptor thread; the `let`s are immutable.

    /// What to do with a connection just accepted.
    private enum Admission {
        case adopt
        /// At the cap: reclaim an idle connection or refuse with 503.
        case overCap
        /// So many refusals in progress that this one is closed without an answer.
        case closeAtOnce
    }

    /// What other threads ask for and the acceptor thread applies.
    private struct Control {
        /// The listening socket, -1 while none is open.
        var listener: Int32
        /// `closeListener()` waits until the acceptor thread has closed the listener and cleared this.
        var closeRequested = false
        var stopRequested = false
        var threadID: pthread_t?
    }

    /// Connections accepted past `maxConnections` to be answered 503 (or to replace an idle connection) at once.
    static let refusalHeadroom = 64

    let finished = Latch()
    private let loops: [HTTPEventLoop]
    private let counter: Locked<Int>
    private let maxConnections: Int
    private let wakePipe: HTTPWakePipe
    private let control: Monitor<Control>
    private var nextLoop = 0
    private var backoff = false

    init(listener: Int32, loops: [HTTPEventLoop], counter: Locked<Int>, maxConnections: Int) throws(HTTPServerError) {
        self.control = Monitor(Control(listener: listener))
        self.loops = loops
        self.counter = counter
        self.maxConnections = maxConnections
        self.wakePipe = try HTTPWakePipe()
    }

    /// True when called on the acceptor thread.
    var isCurrentThread: Bool {
        self.control.withLock { control in
            guard let threadID = control.threadID else { return false }
            return pthread_equal(threadID, pthread_self()) != 0
        }
    }

    // MARK: - Requests from other threads

    /// Asks the thread to close the listener and end; `finished` opens when it has.
    func requestStop() {
        self.control.withLock { $0.stopRequested = true }
        self.wakePipe.wake()
    }

    /// Closes the listening socket (new connections are refused) and returns once it is closed.
    func closeListener() {
        self.control.wait { control, wake in
            if wake == .first {
                guard control.listener >= 0, !control.stopRequested else { return .done(()) }
                control.closeRequested = true
                self.wakePipe.wake()
            }
            return control.closeRequested ? .wait : .done(())
        }
    }

    /// Starts accepting on `fd`, a freshly bound listening socket. Returns false (and leaves `fd` to the caller)
    /// when a listener is already open or the acceptor is stopping.
    func replaceListener(_ fd: Int32) -> Bool {
        let replaced = self.control.withLock { control -> Bool in
            guard control.listener < 0, !control.stopRequested else { return false }
            control.listener = fd
            return true
        }
        if replaced { self.wakePipe.wake() }
        return replaced
    }

    // MARK: - Thread body

    func run() {
        self.control.withLock { $0.threadID = pthread_self() }
        var fds: [pollfd] = []
        while let listener = self.nextListener() {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: self.wakePipe.readFD, events: POSIXSocket.pollIn, revents: 0))
            if listener >= 0, !self.backoff {
                fds.append(pollfd(fd: listener, events: POSIXSocket.pollIn, revents: 0))
            }
            // While backing off (out of descriptors) look again after a short pause instead of spinning.
            let ready = POSIXSocket.poll(&fds, timeout: self.backoff ? 100 : -1)
            self.backoff = false
            if ready > 0, fds[0].revents != 0 { self.wakePipe.drain() }
            if ready > 0, fds.count > 1, fds[1].revents != 0 { self.acceptPending(listener) }
        }
        self.wakePipe.close()
        self.finished.open()
    }

    /// Applies pending requests; returns the listener to poll (-1 for none), or nil when the thread must end.
    private func nextListener() -> Int32? {
        self.control.withLock { control in
            if control.closeRequested || control.stopRequested, control.listener >= 0 {
                POSIXSocket.closeDescriptor(control.listener)
                control.listener = -1
            }
            if control.closeRequested {
                control.closeRequested = false
                self.control.broadcast()
            }
            return control.stopRequested ? nil : control.listener
        }
    }

    private func acceptPending(_ listener: Int32) {
        // Bounded, so a connection storm cannot starve the wake pipe (a stop request) for long.
        for _ in 0..<256 {
            let fd = POSIXSocket.accept(listener)
            if fd < 0 {
                let code = POSIXSocket.lastError
                if code == EINTR || code == ECONNABORTED { continue }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM { self.backoff = true }
                return
            }
            let admission = self.counter.withLock { count -> Admission in
                if count < self.maxConnections {
                    count += 1
                    return .adopt
                }
                guard count < self.maxConnections + Self.refusalHeadroom else { return .closeAtOnce }
                count += 1
                return .overCap
            }
            let task: HTTPEventLoop.Task
            let loop: HTTPEventLoop
            switch admission {
            case .closeAtOnce:
                POSIXSocket.closeDescriptor(fd)  // far over the limit: not even a refusal answer
                continue
            case .adopt:
                loop = self.loops[self.nextLoop]
                self.nextLoop = (self.nextLoop + 1) % self.loops.count
                task = .adopt(fd)
            case .overCap:
                // The loop with the most idle connections closes one of them to make room, or refuses.
                loop = self.loops.max { $0.idleCount < $1.idleCount } ?? self.loops[0]
                task = .adoptOverCap(fd)
            }
            if !loop.enqueue(task) {
                POSIXSocket.closeDescriptor(fd)
                self.counter.withLock { $0 -= 1 }
            }
        }
    }
}
