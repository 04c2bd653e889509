import Foundation

/// Runs `body` on another thread and waits for it at most `seconds`; false when it did not finish in time (for
/// example because it deadlocked), so a hang fails the test instead of stalling the run.
func finishesWithin(seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// Keeps the calling thread busy for a moment without sleeping: a block that does real work, which makes delivery
/// rounds long enough for other threads to change the tables while a round is under way.
func busyWork() {
    var hasher = Hasher()
    for value in 0..<2_000 {
        hasher.combine(value)
    }
    _ = hasher.finalize()
}

/// Starts one dedicated `Thread` per index, each running `body(index)`; the group is left when a body returns.
///
/// Dedicated threads rather than the global queue: on a machine with few cores libdispatch runs few blocks at
/// once, and blocks run one after another on one worker thread are ordered for ThreadSanitizer, which would hide
/// races. Every thread ends when its body returns; wait on the group with a deadline.
func startThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    return group
}
