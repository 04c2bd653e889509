import Foundation

// Foundation on Linux hands `Thread.name` to the system only once the `Thread` knows its pthread, which `start()`
// records after the thread is created: a name set before `start()` is dropped, and so is one the new thread sets
// before `start()` has returned on the thread that started it (a race ThreadSanitizer's scheduling made visible).
// `top -H`, `perf sched` and `/proc/PID/task/TID/comm` then show the name inherited from the starting thread — a
// dispatch worker's "-qos.overcommit" tail, or the process's name; the socket workers of `LegacyDemo bench`'s traces
// read as dispatch threads so. So the new thread waits for `start()` to return, then names itself; and Linux keeps
// 15 bytes of a name (16 with the terminator), refusing a longer one.

/// Starts threads under a name the system keeps: at most `maximumLength` UTF-8 bytes, on every platform alike.
package enum NamedThread {
    /// The longest name Linux keeps, in UTF-8 bytes.
    package static let maximumLength = 15

    /// Starts `body` on a new thread named `name`, cut to `maximumLength` bytes on a character boundary.
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let kept = Self.kept(name)
        let started = Latch()
        let thread = Thread {
            started.wait()
            Thread.current.name = kept
            body()
        }
        thread.start()
        started.open()
    }

    /// `name` as the system keeps it: its longest prefix of whole characters within `maximumLength` bytes.
    package static func kept(_ name: String) -> String {
        var kept = Substring(name)
        while kept.utf8.count > Self.maximumLength { kept.removeLast() }
        return String(kept)
    }
}
