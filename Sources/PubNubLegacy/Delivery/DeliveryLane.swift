import Foundation
import PlatformSupport

/// The FIFO of deliveries for one delivery queue, and the drains that empty it (docs/DESIGN.md §4). Its bookkeeping
/// is `DeliveryLedger`; this class carries it out.
///
/// Every lane drains through blocks on its queue. The main queue's lane drains through the main thread's run loop
/// too (`MainRunLoopDrain`), because a main-queue block that runs the run loop — a 3.x callback waiting for another
/// callback — blocks the main queue: whichever of the two comes first delivers what is pending.
// @unchecked: `ledger` is a `Locked` box; `current` and `taken` are read and written only by the thread that owns
// the drain (`DeliveryLedger.owner`, one at a time), in nested drains too, which run on that same thread.
final class DeliveryLane: @unchecked Sendable {
    /// The queue whose blocks drain the lane.
    let queue: DispatchQueue
    /// Whether the main run loop drains the lane as well (the lane of the main queue).
    let viaRunLoop: Bool

    private let ledger = Locked(DeliveryLedger<any DeliveryJob>())
    private let listeners: @Sendable () -> DeliveryListeners?
    /// The job whose calls are being made, and the jobs taken from the ledger after it, oldest first.
    private var current: (any DeliveryJob)?
    /// Newest first, so each job leaves the array (and is released once delivered) when it becomes the current one.
    private var taken: [any DeliveryJob] = []

    /// - Parameters:
    ///   - queue: the delivery queue.
    ///   - listeners: the client's listeners at the moment an event's turn comes; nil once the client is gone.
    init(queue: DispatchQueue, listeners: @escaping @Sendable () -> DeliveryListeners?) {
        self.queue = queue
        self.viaRunLoop = PNConfiguration.QueueIdentity(queue).isMain
        self.listeners = listeners
        if self.viaRunLoop {
            MainRunLoopDrain.prepareMainRunLoop()
        }
    }

    /// Appends `job`; it is delivered by the next drain. Any thread.
    ///
    /// The drain asked for is a block on the queue — except on a socket worker that reports an answer
    /// (`WorkerThread.makesListenerCalls`: not a pipelined reader), for a lane that is not the main queue's: that
    /// worker runs the drain itself with `queue.sync` once the engine has handled the answer
    /// (`WorkerThread.afterCompletion`). The calls still run on the delivery queue, one drain at a time, in order; no
    /// thread is woken for them, and a request a callback sends (the next publish) is written by the same worker when
    /// the drain ends. The main queue's calls must run on the main thread: always a block there.
    func enqueue(_ job: any DeliveryJob) {
        let requests = self.ledger.withLock { $0.append(job, viaRunLoop: self.viaRunLoop) }
        if requests.queue, !self.viaRunLoop, let worker = WorkerThread.current, worker.reporting,
            worker.makesListenerCalls
        {
            worker.afterCompletion {
                self.queue.sync {
                    self.drain { $0.queueDrainStarted() }
                }
            }
        } else if requests.queue || requests.runLoop {
            if let held = Self.held.value {
                held.asks.append { self.ask(for: requests) }
            } else {
                self.ask(for: requests)
            }
        }
    }

    /// Asks for the drains the ledger wants: a block on the queue, the main run loop, or both.
    private func ask(for requests: DeliveryLedger<any DeliveryJob>.Requests) {
        if requests.queue {
            self.queue.async {
                self.drain { $0.queueDrainStarted() }
            }
        }
        if requests.runLoop {
            MainRunLoopDrain.shared.request(self)
        }
    }

    /// Runs `body`, then asks for the drains the jobs it enqueued need — the wake-ups of the delivery queues' threads
    /// move to its end; the jobs themselves are in the lanes, in order, as without it. For code that has a request to
    /// write after an event: a thread woken for a delivery queue first takes the caller's core (the scheduler runs a
    /// woken thread before its waker) and the request waits for it. Nested calls ask once, at the outermost end.
    /// Any thread; `body` must not wait for a delivery queue (the client queue never does).
    static func holdingWakes<Result>(_ body: () -> Result) -> Result {
        if Self.held.value != nil { return body() }
        let held = HeldAsks()
        let result = Self.held.withValue(held, body)
        for ask in held.asks { ask() }
        return result
    }

    /// The drains asked for inside `holdingWakes(_:)` on one thread, oldest first.
    private final class HeldAsks {
        var asks: [() -> Void] = []
    }

    private static let held = ThreadLocal<HeldAsks>()

    /// Called by `MainRunLoopDrain` on the main thread, from the main run loop.
    func drainFromRunLoop() {
        self.drain { $0.runLoopDrainStarted() }
    }

    /// Makes the pending calls in order until none is left, after `started` has marked the request it answers.
    /// Returns at once when another thread drains.
    private func drain(started: (inout DeliveryLedger<any DeliveryJob>) -> Void) {
        let thread = ObjectIdentifier(Thread.current)
        let entered = self.ledger.withLock { ledger in
            started(&ledger)
            return ledger.enter(thread)
        }
        guard entered else { return }
        Self.draining.withValue(self) {
            while let job = self.nextJob() {
                if let step = job.nextStep(self.listeners) {
                    step.perform()  // may run a nested drain, which moves `current` on
                } else {
                    self.current = nil  // no user code ran since `nextJob`, so `job` is still the current one
                }
            }
        }
    }

    /// True on a thread that is making a lane's listener calls: the code running is a callback (or what it called).
    /// A client's queue never waits for such a thread, so a callback's 3.4 call may run its work with
    /// `queue.sync` (`ClientEngine.enqueue`).
    static var isDrainingOnThisThread: Bool {
        Self.draining.value != nil
    }

    /// The lane whose drain the calling thread runs.
    private static let draining = ThreadLocal<DeliveryLane>()

    /// The job to take the next call from: the current one, else the next taken one, else what the ledger has
    /// pending; nil when nothing is left, which ends this drain.
    private func nextJob() -> (any DeliveryJob)? {
        if let current = self.current {
            return current
        }
        if self.taken.isEmpty {
            self.taken = self.ledger.withLock { $0.takeAll() }.reversed()
        }
        guard let job = self.taken.popLast() else { return nil }
        self.current = job
        return job
    }
}
