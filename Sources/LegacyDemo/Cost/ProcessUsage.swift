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
        Self.statusFields()[name]
    }

    /// Every numeric field of /proc/self/status, by name with its colon (`VmRSS:` in KiB, `RssAnon:`, `Threads:`);
    /// empty where there is no such file (Apple platforms). The file is read whole, with `open` and `read` into a
    /// buffer on the stack, before anything is parsed, so the memory figures it holds do not count pages that
    /// reading them touched (`String(contentsOfFile:)` faulted in Foundation's file and string code first).
    static func statusFields() -> [String: Int] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16_384) { buffer in
            let descriptor = open("/proc/self/status", O_RDONLY)
            guard descriptor >= 0, let base = buffer.baseAddress else { return [:] }
            var count = 0
            while count < buffer.count {
                let got = read(descriptor, base + count, buffer.count - count)
                if got <= 0 { break }
                count += got
            }
            close(descriptor)
            var fields: [String: Int] = [:]
            for line in buffer[..<count].split(separator: UInt8(ascii: "\n")) {
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let digits = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                    .prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                guard !digits.isEmpty, digits.count <= 18 else { continue }
                let name = String(decoding: line[...colon], as: UTF8.self)
                fields[name] = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            }
            return fields
        }
    }
}
