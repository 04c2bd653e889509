import Foundation
import PlatformSupport

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Workload 9 of `LegacyDemo bench`: the process's resident set size.
enum BenchMemory {
    /// Resident memory in KiB: from /proc/self/statm on Linux, from the Mach task info on Apple platforms; nil
    /// where neither is available.
    static func residentKiB() -> Int? {
        #if canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return status == KERN_SUCCESS ? Int(info.resident_size / 1024) : nil
        #else
        // statm: sizes in pages; the second field is the resident set.
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        #endif
    }
}

extension BenchMemory {
    /// Starts a new peak for `peakKiB()` (Linux: writes 5 to /proc/self/clear_refs); false where that is not
    /// possible, and the peak then covers the whole run.
    static func resetPeak() -> Bool {
        #if canImport(Darwin)
        return false
        #else
        return (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        #endif
    }

    /// The highest resident memory since the start or the last `resetPeak()`, in KiB (Linux: `VmHWM` of
    /// /proc/self/status); nil where it cannot be read.
    static func peakKiB() -> Int? {
        #if canImport(Darwin)
        return nil
        #else
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").compactMap { Int($0) }.first
        }
        return nil
        #endif
    }
}

extension BenchMemory {
    /// Hands the allocator's free pages back to the system (glibc's `malloc_trim(0)`), so that the resident set
    /// measured next is what the process still holds, not what the allocator kept after the workloads' transient
    /// peaks; false where there is no such call (the figure is then the plain resident set).
    static func returnFreePages() -> Bool {
        FreePages.returnNow()
    }
}
