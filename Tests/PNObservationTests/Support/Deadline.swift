import Dispatch

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
