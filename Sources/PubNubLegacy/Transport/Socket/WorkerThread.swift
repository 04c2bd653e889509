import Dispatch
import PlatformSupport

// A sequential publish is a round trip on one connection: the answer comes in on a socket worker, and the next
// request goes out from the same worker. Handing the answer to the client queue's thread and the next request back
// to the worker cost two thread wake-ups per request, more than the client's own work on an idle core. A worker that
// reports an answer therefore lets its completion run the engine's handling on the worker itself (`ClientEngine`
// goes through `hand(to:_:)`), and a request sent from inside that completion to the same pool waits for this worker
// instead of waking another (`SocketPool.enqueue`). The pipelined lane's reader reports its answers the same way
// (the engine's handling on the reader, without a wake-up of a queue thread per answer), but leaves the listener
// calls to the delivery queue's own thread.

/// What the code a socket worker calls may ask about that worker: thread-local, read and written only by its own
/// thread.
final class WorkerThread {
    /// The pool the worker belongs to.
    let pool: ObjectIdentifier
    /// True when a delivery lane may make its listener calls on this worker after a report
    /// (`DeliveryLane.enqueue`): the socket pool's workers, whose requests' deadlines wait for such calls
    /// (`SocketTask.expire()`). A pipelined reader is false: the answers behind the one it reports must not wait
    /// for app code.
    let makesListenerCalls: Bool
    /// True while the worker runs a request's completion (and holds no lock).
    private(set) var reporting = false
    /// True once a request sent from inside that completion was left in the pool's queue for this worker to take
    /// when the completion returns.
    var promised = false
    /// Work left for the end of the report under way (`afterCompletion(_:)`).
    private var owed: [() -> Void] = []

    private init(pool: ObjectIdentifier, makesListenerCalls: Bool) {
        self.pool = pool
        self.makesListenerCalls = makesListenerCalls
    }

    /// The worker running on the calling thread; nil on every other thread.
    static var current: WorkerThread? {
        Self.threads.value
    }

    /// Runs `work` on the serial `queue`: inside a worker's completion with `queue.sync` on the worker itself (it
    /// holds no lock and has nothing else to do until the completion returns, so no thread has to be woken for the
    /// queue), anywhere else with `queue.async`. Either way `work` runs on `queue`, after what was queued before it.
    /// Never call it on `queue` itself.
    static func hand(to queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        if Self.current?.reporting == true {
            queue.sync(execute: work)
        } else {
            queue.async(execute: work)
        }
    }

    /// Runs `body` as the thread of a worker of `pool`: `current` answers the worker passed to `body` until it
    /// returns. `makesListenerCalls`: whether a delivery lane may make its calls on it (`makesListenerCalls`).
    static func run<Outcome>(
        for pool: AnyObject,
        makesListenerCalls: Bool = true,
        _ body: (WorkerThread) -> Outcome
    ) -> Outcome {
        let worker = WorkerThread(pool: ObjectIdentifier(pool), makesListenerCalls: makesListenerCalls)
        return Self.threads.withValue(worker) { body(worker) }
    }

    /// Runs `completion` marked as reporting: inside it, `hand(to:_:)` runs its work in place. Then the work the
    /// completion left with `afterCompletion(_:)`, oldest first, including what that work leaves in turn — until a
    /// request is promised to this worker: the rest waits for the pool (`runOwedWork()`), which runs it once that
    /// request is written (keep-alive lanes) or before it (others).
    func report(_ completion: () -> Void) {
        self.reporting = true
        defer { self.reporting = false }
        completion()
        while !self.promised, !self.owed.isEmpty {
            self.owed.removeFirst()()
        }
    }

    /// Leaves `work` for this worker to run once the completion it reports has returned: outside the engine's queue
    /// and every lock, marked as reporting, so a request `work` sends to this worker's pool is left for this worker
    /// as one sent from the completion is. Call only while `reporting`. A delivery lane makes its listener calls so,
    /// on the worker that read the answer (`DeliveryLane.enqueue`).
    func afterCompletion(_ work: @escaping () -> Void) {
        precondition(self.reporting, "afterCompletion outside a report")
        self.owed.append(work)
    }

    /// True while work left by `afterCompletion(_:)` has not run.
    var owesWork: Bool {
        !self.owed.isEmpty
    }

    /// Runs the owed work, oldest first, including what it leaves in turn, marked as reporting. The pool calls it
    /// holding no lock: while the request the worker carries next is on its way (keep-alive lanes; that request's
    /// deadline then waits for it, `SocketTask.expire()`), before that request is written (other lanes), or before
    /// the worker waits for requests or ends.
    func runOwedWork() {
        guard !self.owed.isEmpty else { return }
        let wasReporting = self.reporting
        self.reporting = true
        defer { self.reporting = wasReporting }
        while !self.owed.isEmpty {
            self.owed.removeFirst()()
        }
    }

    /// Each worker thread's `WorkerThread`.
    private static let threads = ThreadLocal<WorkerThread>()
}
