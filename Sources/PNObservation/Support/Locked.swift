import Foundation

/// A value guarded by a lock: the box the observer tables keep their entries in.
///
/// This module has its own copy because `PubNubLegacy`'s box is internal to that module. Closures passed to
/// `withLock` run while the lock is held, so they must be short and must never call an observer's block.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only between `lock.lock()` and `lock.unlock()` in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        self.lock.lock()
        defer { self.lock.unlock() }
        return try body(&self.value)
    }

    /// A copy of the current value.
    var current: Value {
        self.withLock { $0 }
    }
}
