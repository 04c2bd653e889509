// The bookkeeping of one delivery lane (docs/DESIGN.md §4), as a value without queues, threads or run loops, so
// tests drive it directly. `DeliveryLane` carries out what it decides.
//
// A lane is one FIFO of jobs for one delivery queue. Jobs are taken by a drain, and a drain starts in one of two
// ways: a block on the delivery queue, or — for the main queue only — a request to the main thread's run loop. Each
// way is asked at most once while its previous request is still out, and whichever drain comes first takes what is
// pending; the other finds less or nothing. A job is taken once, by one drain, so it is delivered exactly once.
//
// One thread drains at a time (the owner). A drain started on the owner's thread while the owner is inside a
// listener call — a callback that runs the run loop until another callback arrives — is nested: it goes on with the
// same sequence of calls, so the calls start in the order they would without nesting. A drain started on another
// thread leaves everything to the owner, which takes what is pending before it lets go.

/// What a lane has pending and which drains are asked for, for one delivery queue.
struct DeliveryLedger<Job> {
    /// Jobs appended and not yet taken by a drain, oldest first.
    private(set) var pending: [Job] = []
    /// A drain block is on the delivery queue and has not started.
    private(set) var queueDrainRequested = false
    /// The main run loop has been asked to drain this lane and has not done so yet.
    private(set) var runLoopDrainRequested = false
    /// The thread that drains now, and how many drains it has running (more than one when nested).
    private(set) var owner: ObjectIdentifier?
    private(set) var depth = 0

    /// The drains to ask for after an append.
    struct Requests: Equatable {
        var queue = false
        var runLoop = false
    }

    /// Appends `job`. Asks for a queue drain unless one is out, and — when `viaRunLoop` (the main queue) — for a
    /// run-loop drain unless one is out.
    mutating func append(_ job: Job, viaRunLoop: Bool) -> Requests {
        self.pending.append(job)
        var requests = Requests()
        if !self.queueDrainRequested {
            self.queueDrainRequested = true
            requests.queue = true
        }
        if viaRunLoop && !self.runLoopDrainRequested {
            self.runLoopDrainRequested = true
            requests.runLoop = true
        }
        return requests
    }

    /// The drain block asked for has started: the next append asks for another.
    mutating func queueDrainStarted() {
        self.queueDrainRequested = false
    }

    /// The main run loop has started the drain asked for: the next append asks for another.
    mutating func runLoopDrainStarted() {
        self.runLoopDrainRequested = false
    }

    /// A drain starts on `thread`. False when another thread drains: that one takes everything pending before it
    /// stops, so this drain has nothing to do.
    mutating func enter(_ thread: ObjectIdentifier) -> Bool {
        if let owner = self.owner, owner != thread {
            return false
        }
        self.owner = thread
        self.depth += 1
        return true
    }

    /// Everything pending, handed to the drain that asks (it holds no job of its own any more). Empty means the
    /// drain ends: the innermost drain of the owner gives way to the one it is nested in, the outermost lets go
    /// of the lane. Only the owner calls this.
    mutating func takeAll() -> [Job] {
        if self.pending.isEmpty {
            self.depth -= 1
            if self.depth == 0 {
                self.owner = nil
            }
            return []
        }
        defer { self.pending = [] }
        return self.pending
    }
}
