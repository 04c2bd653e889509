import Dispatch

// The engine's timers: one dispatch timer source per engine, re-armed for the earliest deadline, and a binary heap of
// the pending work. A cancelled timer leaves the heap at once, so what its closure captured (an operation, its
// request, the user's block) is released when the request finishes, not when its timeout would have passed.
// `DispatchQueue.asyncAfter` with a cancelled `DispatchWorkItem` keeps the item, and all it captured, until the
// deadline: with a 10 s request timeout and thousands of publishes a second that held tens of megabytes
// (heaptrack on `LegacyDemo bench`: a dispatch source, a work item and the operation's closures per publish).

/// A handle to work scheduled on a `TimerQueue`; `cancel()` removes it. Confined to the timer queue's queue.
final class ScheduledTimer: @unchecked Sendable {
    // @unchecked: every `var` is read and written only on the owning `TimerQueue`'s queue.
    fileprivate let deadline: UInt64
    fileprivate let sequence: UInt64
    fileprivate var work: (() -> Void)?
    /// Its place in the heap while pending; nil once it ran or was cancelled.
    fileprivate var index: Int?
    fileprivate weak var owner: TimerQueue?

    fileprivate init(deadline: UInt64, sequence: UInt64, work: @escaping () -> Void, owner: TimerQueue) {
        self.deadline = deadline
        self.sequence = sequence
        self.work = work
        self.owner = owner
    }

    /// True until the work ran or was cancelled.
    var isPending: Bool { self.index != nil }

    /// Removes the work if it has not run yet and releases what it captured. Call on the timer queue's queue.
    func cancel() {
        self.owner?.remove(self)
        self.work = nil
    }

    /// Orders by deadline, then by scheduling order, so that work due at the same time runs in the order it was
    /// scheduled.
    fileprivate func runsBefore(_ other: ScheduledTimer) -> Bool {
        (self.deadline, self.sequence) < (other.deadline, other.sequence)
    }
}

/// Runs work on `queue` at deadlines of the uptime clock (`DispatchTime`). Queue-confined: every method is called on
/// `queue`, and the work runs there.
final class TimerQueue: @unchecked Sendable {
    // @unchecked: every `var` is read and written only on `queue` (checked by `dispatchPrecondition`).
    let queue: DispatchQueue
    private var heap: [ScheduledTimer] = []
    private var nextSequence: UInt64 = 0
    private let source: any DispatchSourceTimer
    /// The deadline the source is armed for; nil while it is idle.
    private var armedFor: UInt64?

    init(queue: DispatchQueue) {
        self.queue = queue
        self.source = DispatchSource.makeTimerSource(queue: queue)
        self.source.setEventHandler { [weak self] in self?.fire() }
        self.source.activate()
    }

    deinit {
        self.source.cancel()
    }

    /// How many timers are pending.
    var count: Int { self.heap.count }

    /// Runs `work` on the queue after `delay` seconds (at once when the delay is not positive, on a later turn of
    /// the queue); the returned handle cancels it.
    @discardableResult
    func schedule(after delay: Double, _ work: @escaping () -> Void) -> ScheduledTimer {
        let nanoseconds = delay > 0 ? UInt64(min(delay, 1e9) * 1e9) : 0
        return self.schedule(at: DispatchTime.now().uptimeNanoseconds &+ nanoseconds, work)
    }

    /// Runs `work` on the queue at `deadline` (`DispatchTime.uptimeNanoseconds`); work due at the same deadline runs
    /// in the order it was scheduled. The returned handle cancels it.
    @discardableResult
    func schedule(at deadline: UInt64, _ work: @escaping () -> Void) -> ScheduledTimer {
        dispatchPrecondition(condition: .onQueue(self.queue))
        self.nextSequence += 1
        let timer = ScheduledTimer(deadline: deadline, sequence: self.nextSequence, work: work, owner: self)
        self.insert(timer)
        self.rearm()
        return timer
    }

    fileprivate func remove(_ timer: ScheduledTimer) {
        dispatchPrecondition(condition: .onQueue(self.queue))
        guard let index = timer.index else { return }
        self.removeAt(index)
        self.rearm()
    }

    /// Runs every timer that is due, in deadline order, then arms the source for the next one.
    private func fire() {
        self.armedFor = nil
        while let first = self.heap.first, first.deadline <= DispatchTime.now().uptimeNanoseconds {
            self.removeAt(0)
            let work = first.work
            first.work = nil
            work?()
        }
        self.rearm()
    }

    private func rearm() {
        guard let first = self.heap.first else {
            if self.armedFor != nil {
                self.source.schedule(deadline: .distantFuture)
                self.armedFor = nil
            }
            return
        }
        guard self.armedFor != first.deadline else { return }
        self.armedFor = first.deadline
        self.source.schedule(deadline: DispatchTime(uptimeNanoseconds: first.deadline), leeway: .milliseconds(1))
    }

    // MARK: - The heap

    private func insert(_ timer: ScheduledTimer) {
        timer.index = self.heap.count
        self.heap.append(timer)
        self.siftUp(self.heap.count - 1)
    }

    private func removeAt(_ index: Int) {
        let removed = self.heap[index]
        let last = self.heap.removeLast()
        removed.index = nil
        guard index < self.heap.count else { return }
        self.heap[index] = last
        last.index = index
        self.siftDown(index)
        self.siftUp(index)
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard self.heap[child].runsBefore(self.heap[parent]) else { return }
            self.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < self.heap.count, self.heap[left].runsBefore(self.heap[first]) { first = left }
            if right < self.heap.count, self.heap[right].runsBefore(self.heap[first]) { first = right }
            guard first != parent else { return }
            self.swapAt(parent, first)
            parent = first
        }
    }

    private func swapAt(_ a: Int, _ b: Int) {
        self.heap.swapAt(a, b)
        self.heap[a].index = a
        self.heap[b].index = b
    }
}
