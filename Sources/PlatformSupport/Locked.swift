import Foundation

/// A value guarded by a lock: the small box every shared table and every mutable model field lives in.
///
/// Closures passed to `withLock` run while the lock is held, so they must be short and must never call user code,
/// post notifications or touch the network.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `lock.lock()` … `lock.unlock()` below.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        self.lock.lock()
        defer { self.lock.unlock() }
        return try body(&self.value)
    }

    /// A copy of the current value.
    package var current: Value {
        self.withLock { $0 }
    }

    /// Replaces the value.
    package func set(_ newValue: Value) {
        self.withLock { $0 = newValue }
    }
}
