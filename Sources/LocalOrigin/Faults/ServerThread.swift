import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Recognises the origin's own server threads, where request observers run and which a restart must not block.
///
/// Every request an origin serves passes through its `FaultInjector` on the server thread that read it, and every
/// observer call on a server thread happens on a thread that served a request first (an answer, or the close of a
/// connection whose request it read), so marking threads there covers every place user code can run. Thread names
/// cannot serve: Linux keeps only 15 bytes of them.
enum ServerThread {
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Marks the calling thread as a server thread, for the rest of its life.
    static func mark() {
        guard let key = self.key, pthread_getspecific(key) == nil else { return }
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    }

    /// True on a thread that `mark()` was called on.
    static var isCurrent: Bool {
        guard let key = self.key else { return false }
        return pthread_getspecific(key) != nil
    }
}
