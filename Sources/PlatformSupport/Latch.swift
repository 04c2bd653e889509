import Foundation

/// A one-shot gate: `wait` blocks until `open` was called once; opening again is harmless. Used to join threads
/// (each opens its latch as its last action), to wait for a loop thread to be running, and to wait for a completion
/// block. Any thread may open or wait.
package final class Latch: @unchecked Sendable {
    // @unchecked: `isOpen` is only read or written while holding `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    package init() {}

    /// Opens the latch and wakes every waiter.
    package func open() {
        self.condition.lock()
        self.isOpen = true
        self.condition.broadcast()
        self.condition.unlock()
    }

    /// Blocks the calling thread until the latch is open.
    package func wait() {
        self.condition.lock()
        while !self.isOpen { self.condition.wait() }
        self.condition.unlock()
    }

    /// Blocks the calling thread until the latch is open or `timeout` seconds passed; true when it opened.
    package func wait(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        self.condition.lock()
        defer { self.condition.unlock() }
        while !self.isOpen {
            if !self.condition.wait(until: deadline) { return self.isOpen }
        }
        return true
    }
}
