#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// An object reference per thread, bound for the length of a synchronous call: how a caller hands context to code it
/// calls through an API that has no parameter for it (the async overlay's call ticket, read by the 3.4 facade it
/// calls). The value is not retained: it lives as long as the `withValue(_:_:)` call that binds it.
///
/// A `pthread` key, made once per instance and never deleted: make instances as `static let`s. Any thread may call
/// every member; each thread sees only its own binding.
package final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: `pthread_getspecific` and `pthread_setspecific` are thread-safe and touch only the calling thread's
    // slot. `key` is a `let` (a `var` would be checked for exclusive access at every read).
    private let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status): out of thread-local keys")
        self.key = key
    }

    /// The value bound on the calling thread, nil outside any `withValue(_:_:)`.
    package var value: Value? {
        guard let raw = pthread_getspecific(self.key) else { return nil }
        return Unmanaged<Value>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Binds `value` on the calling thread while `body` runs, then restores what was bound before (bindings nest).
    package func withValue<Result>(_ value: Value, _ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(self.key)
        pthread_setspecific(self.key, Unmanaged.passUnretained(value).toOpaque())
        defer { pthread_setspecific(self.key, previous) }
        return try withExtendedLifetime(value) { try body() }
    }
}
