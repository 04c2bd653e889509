import Foundation

/// A value guarded by a lock: the small box every shared table and every mutable model field lives in.
///
/// Closures passed to `withLock` run while the lock is held, so they must be short and must never call user code,
/// post notifications or touch the network. Any thread may call every member.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `lock.lock()` … `lock.unlock()` below.
    // `@usableFromInline` and `@inlinable`: the box sits on the client's and the origin's hot paths in other modules,
    // which can then specialize `withLock` for their value types as they did when the box was their own.
    // `@exclusivity(unchecked)`: the lock already makes every access exclusive (a `withLock` nested on the same box
    // would block on the lock before it could overlap), so the runtime's dynamic check, made on every access to a
    // class's stored property, only costs: about 150 instructions per `withLock`, which a publish makes about twenty
    // times on its socket worker (BENCHMARKS.md).
    @usableFromInline let lock = NSLock()
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        self.lock.lock()
        defer { self.lock.unlock() }
        return try body(&self.value)
    }

    /// A copy of the current value.
    @inlinable
    package var current: Value {
        self.withLock { $0 }
    }

    /// Replaces the value.
    @inlinable
    package func set(_ newValue: Value) {
        self.withLock { $0 = newValue }
    }
}
