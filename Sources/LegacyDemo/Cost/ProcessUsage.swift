import Foundation
import PlatformSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// What the kernel counts for this process, read before and after a workload so the difference belongs to it:
/// context switches (`getrusage`, summed over every thread, ended ones included), CPU time, and — Linux only — the
/// resident set and the number of threads (/proc/self/status).
struct ProcessUsage {
    /// The thread gave up its core: it blocked (a wait, a `poll`, a lock held by another thread).
    var voluntarySwitches: Int
    /// The thread was taken off its core while it could still run (its time slice ended, another thread woke).
    var involuntarySwitches: Int
    /// User plus system CPU time of every thread, in seconds.
    var cpuSeconds: Double

    /// Both kinds of context switch.
    var switches: Int { self.voluntarySwitches + self.involuntarySwitches }

    /// The counts now.
    static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(POSIXSocket.constant(RUSAGE_SELF), &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return ProcessUsage(
            voluntarySwitches: Int(usage.ru_nvcsw),
            involuntarySwitches: Int(usage.ru_nivcsw),
            cpuSeconds: cpu
        )
    }

    /// What happened between `earlier` and this reading.
    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(
            voluntarySwitches: self.voluntarySwitches - earlier.voluntarySwitches,
            involuntarySwitches: self.involuntarySwitches - earlier.involuntarySwitches,
            cpuSeconds: self.cpuSeconds - earlier.cpuSeconds
        )
    }

    /// The process's threads now (Linux: `Threads:` of /proc/self/status); nil where it cannot be read.
    static func threadCount() -> Int? {
        Self.statusField("Threads:")
    }

    /// A numeric field of /proc/self/status (`VmRSS:` in KiB, `Threads:`); nil where there is no such file (Apple
    /// platforms).
    static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }.first
        }
        return nil
    }
}
