import Foundation

/// A one-shot gate: `wait` blocks until `open` was called once; opening again is harmless. Used to join threads
/// (each opens its latch as its last action), to wait for a loop thread to be running, and to wait for a completion
/// block. Any thread may open or wait.
package final class Latch: Sendable {
    /// Whether `open` was called.
    private let isOpen = Monitor(false)

    package init() {}

    /// Opens the latch and wakes every waiter.
    package func open() {
        self.isOpen.withLock { isOpen in
            isOpen = true
            self.isOpen.broadcast()
        }
    }

    /// Blocks the calling thread until the latch is open.
    package func wait() {
        self.isOpen.wait { isOpen, _ in isOpen ? .done(()) : .wait }
    }

    /// Blocks the calling thread until the latch is open or `timeout` seconds passed; true when it opened.
    package func wait(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return self.isOpen.wait { isOpen, wake in
            isOpen || wake == .timedOut ? .done(isOpen) : .waitUntil(deadline)
        }
    }
}
