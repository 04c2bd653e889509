import Foundation

// A name set on a `Thread` before it starts stays in Foundation's object on Linux: `top -H`, `perf sched` and
// `/proc/PID/task/TID/comm` show the name the thread inherited from the thread that started it — a dispatch worker's
// "-qos.overcommit" tail, or the process's name. The socket workers of `LegacyDemo bench`'s traces read as dispatch
// threads so. A thread that names itself reaches the system, and Linux keeps 15 bytes of it (16 with the terminator),
// refusing a longer name.

/// Starts threads under a name the system keeps: at most `maximumLength` UTF-8 bytes, on every platform alike.
package enum NamedThread {
    /// The longest name Linux keeps, in UTF-8 bytes.
    package static let maximumLength = 15

    /// Starts `body` on a new thread named `name`, cut to `maximumLength` bytes on a character boundary.
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let kept = Self.kept(name)
        let thread = Thread {
            // Foundation on Linux hands a name to the system only when the thread names itself.
            Thread.current.name = kept
            body()
        }
        thread.start()
    }

    /// `name` as the system keeps it: its longest prefix of whole characters within `maximumLength` bytes.
    package static func kept(_ name: String) -> String {
        var kept = Substring(name)
        while kept.utf8.count > Self.maximumLength { kept.removeLast() }
        return String(kept)
    }
}
