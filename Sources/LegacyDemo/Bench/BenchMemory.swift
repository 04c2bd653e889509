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

/// Workload 9 of `LegacyDemo bench`, and the soak's memory lines: the process's resident set size. Apple platforms
/// read the Mach task info (`BenchMemory+Darwin.swift`); the others read /proc.
enum BenchMemory {
    /// Resident memory in KiB: the Mach task info on Apple platforms, /proc/self/statm elsewhere; nil where neither
    /// is available.
    static func residentKiB() -> Int? {
        if let task = Self.taskMemory() { return task.residentKiB }
        // statm: sizes in pages; the second field is the resident set.
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}

extension BenchMemory {
    /// Starts a new peak for `peakKiB()` (Linux: writes 5 to /proc/self/clear_refs); false where that is not
    /// possible (Apple platforms), and the peak then covers the whole run.
    static func resetPeak() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    /// The highest resident memory since the start or the last `resetPeak()`, in KiB: the Mach task info's maximum on
    /// Apple platforms, `VmHWM` of /proc/self/status elsewhere; nil where it cannot be read.
    static func peakKiB() -> Int? {
        if let task = Self.taskMemory() { return task.peakKiB }
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").compactMap { Int($0) }.first
        }
        return nil
    }
}

extension BenchMemory {
    /// Hands the allocator's free pages back to the system (glibc's `malloc_trim(0)`), so that the resident set
    /// measured next is what the process still holds, not what the allocator kept after the workloads' transient
    /// peaks; false where there is no such call (Musl, Apple platforms: the figure is then the plain resident set).
    static func returnFreePages() -> Bool {
        FreePages.returnNow()
    }
}
