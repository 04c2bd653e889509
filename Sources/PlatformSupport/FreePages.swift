import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// glibc keeps the memory a process frees: free chunks below the top of a heap stay resident until `malloc_trim`
// hands their pages back (it never does so by itself), and the top of a heap is returned only above a trim threshold.
// After a burst — thousands of calls queued at once, a subscribe answer of many megabytes — resident memory would
// stay near the burst's peak for the life of the process, although nothing holds it.

/// Hands the allocator's free pages back to the system after a burst of work has been freed. glibc only (elsewhere
/// it does nothing: no other C library of ours has the call): `malloc_trim(0)`, looked up in the process, run on a utility queue a moment after the request
/// so that what the burst's last work items held has been freed too; requests made while one is pending share it.
/// No allocator setting is changed. Callable from any thread.
package enum FreePages {
    /// How long after a request the pages are returned.
    package static let delay: DispatchTimeInterval = .milliseconds(250)

    private static let pending = Locked(false)

    /// Returns the free pages `delay` from now, unless a return is already pending.
    package static func returnSoon() {
        guard Self.mallocTrim != nil else { return }
        let schedule = Self.pending.withLock { pending -> Bool in
            defer { pending = true }
            return !pending
        }
        guard schedule else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.delay) {
            Self.pending.set(false)
            _ = Self.returnNow()
        }
    }

    /// Returns the free pages now; false where the allocator has no such call.
    @discardableResult
    package static func returnNow() -> Bool {
        guard let trim = Self.mallocTrim else { return false }
        _ = trim(0)
        return true
    }

    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// `malloc_trim`, which Swift's Glibc module does not declare (it is in malloc.h); nil where the C library has no
    /// such function (Musl, Bionic, Apple's libc), looked up at run time so that no platform condition is needed.
    private static let mallocTrim: MallocTrim? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
    }()
}
