import Foundation

/// A value behind a lock. The closure passed to `withLock` must not call user code or block.
final class HTTPLocked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written inside `withLock`, while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        self.lock.lock()
        defer { self.lock.unlock() }
        return try body(&self.value)
    }
}

/// A one-shot gate: `wait` blocks until `open` was called once. Used to join server threads (each opens its latch
/// as its last action) and to wait for a loop thread to be running.
final class HTTPLatch: @unchecked Sendable {
    // @unchecked: `isOpen` is only read or written while holding `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        self.condition.lock()
        self.isOpen = true
        self.condition.broadcast()
        self.condition.unlock()
    }

    func wait() {
        self.condition.lock()
        while !self.isOpen { self.condition.wait() }
        self.condition.unlock()
    }
}
