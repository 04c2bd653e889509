import Dispatch

// The engine's timers: one dispatch timer source per engine, armed for the earliest deadline, and a binary heap of
// the pending work. A cancelled timer drops its closure at once, so what the closure captured (an operation, its
// request, the user's block) is released when the request finishes, not when its timeout would have passed.
//
// The cancelled timer itself stays in the heap until it reaches the top or cancelled timers make up half the heap
// (then the heap is rebuilt without them), and the source stays armed for the old deadline (it fires once for
// nothing and is armed for the next live one). A publish cancels its deadline when its answer comes, on the socket
// worker, before the next publish is written; with thousands of publishes queued (each with its deadline) removing
// the top of the heap and re-arming the source cost about 1.7 µs of that path (ClientEngine.finish, measured with
// clock marks on `LegacyDemo cost publish`).
// `DispatchQueue.asyncAfter` with a cancelled `DispatchWorkItem` keeps the item, and all it captured, until the
// deadline: with a 10 s request timeout and thousands of publishes a second that held tens of megabytes
// (heaptrack on `LegacyDemo bench`: a dispatch source, a work item and the operation's closures per publish).

/// A handle to work scheduled on a `TimerQueue`; `cancel()` removes it. Confined to the timer queue's queue.
final class ScheduledTimer: @unchecked Sendable {
    // @unchecked: every `var` is read and written only on the owning `TimerQueue`'s queue.
    fileprivate let deadline: UInt64
    fileprivate let sequence: UInt64
    fileprivate var work: (() -> Void)?
    /// Its place in the heap while it is there (pending, or cancelled and not yet dropped); nil once it left.
    fileprivate var index: Int?
    /// True once cancelled before it ran.
    fileprivate var cancelled = false
    fileprivate weak var owner: TimerQueue?

    fileprivate init(deadline: UInt64, sequence: UInt64, work: @escaping () -> Void, owner: TimerQueue) {
        self.deadline = deadline
        self.sequence = sequence
        self.work = work
        self.owner = owner
    }

    /// True until the work ran or was cancelled.
    var isPending: Bool { self.index != nil && !self.cancelled }

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
    /// Pending timers, and cancelled ones not yet dropped (`cancelledInHeap` of them).
    private var heap: [ScheduledTimer] = []
    private var cancelledInHeap = 0
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
    var count: Int { self.heap.count - self.cancelledInHeap }

    /// How many timers the heap holds, cancelled ones not yet dropped included (for tests).
    var heldCount: Int { self.heap.count }

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
        if let armedFor = self.armedFor, armedFor <= deadline {
            // Armed early enough: when the source fires, `fire()` arms it for what is next.
            return timer
        }
        self.arm()
        return timer
    }

    /// Marks `timer` cancelled (its work was dropped by the caller); it leaves the heap when it reaches the top, or
    /// when cancelled timers make up half of a heap of more than `compactionFloor`.
    fileprivate func remove(_ timer: ScheduledTimer) {
        dispatchPrecondition(condition: .onQueue(self.queue))
        guard timer.index != nil, !timer.cancelled else { return }
        timer.cancelled = true
        self.cancelledInHeap += 1
        if self.heap.count > Self.compactionFloor, self.cancelledInHeap * 2 > self.heap.count {
            self.dropCancelled()
        }
    }

    /// Below this many timers in the heap, cancelled ones wait to reach the top.
    private static let compactionFloor = 64

    /// Runs every timer that is due, in deadline order, then arms the source for the next one.
    private func fire() {
        self.armedFor = nil
        while let first = self.heap.first {
            if first.cancelled {
                self.removeAt(0)
                self.cancelledInHeap -= 1
                continue
            }
            guard first.deadline <= DispatchTime.now().uptimeNanoseconds else { break }
            self.removeAt(0)
            let work = first.work
            first.work = nil
            work?()
        }
        self.arm()
    }

    /// Arms the source for the first deadline in the heap (cancelled timers included: firing early is harmless), or
    /// idles it when the heap is empty.
    private func arm() {
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

    /// Rebuilds the heap from its live timers (bottom-up, in linear time).
    private func dropCancelled() {
        var live: [ScheduledTimer] = []
        live.reserveCapacity(self.heap.count - self.cancelledInHeap)
        for timer in self.heap {
            if timer.cancelled {
                timer.index = nil
            } else {
                timer.index = live.count
                live.append(timer)
            }
        }
        self.heap = live
        self.cancelledInHeap = 0
        var parent = self.heap.count / 2 - 1
        while parent >= 0 {
            self.siftDown(parent)
            parent -= 1
        }
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
