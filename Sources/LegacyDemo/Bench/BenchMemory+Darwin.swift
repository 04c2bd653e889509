// Apple platforms only: the process's resident memory from the Mach task info, for `LegacyDemo bench` and the soak's
// memory lines. Type-checked on Linux by `Scripts/check-apple-branches.py` against `Tests/AppleStandIns/Darwin.swift`;
// `BenchMemory+Linux.swift` is its counterpart.

#if canImport(Darwin)
import Darwin

extension BenchMemory {
    /// Resident memory now and at its highest since the process started, in KiB; nil if the task info cannot be
    /// read.
    static func taskMemory() -> (residentKiB: Int, peakKiB: Int)? {
        // The task's own port is the C global `mach_task_self_`, read here through the dynamic linker: naming the
        // global in Swift 6 mode is an error with SDKs up to macOS 15.2 (shared mutable state).
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mach_task_self_") else { return nil }
        let task = symbol.load(as: mach_port_t.self)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(task, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        guard status == KERN_SUCCESS else { return nil }
        return (Int(info.resident_size / 1024), Int(info.resident_size_max / 1024))
    }
}
#endif
