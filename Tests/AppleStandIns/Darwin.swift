// A stand-in for Apple's Darwin module (the C library, Mach), for type-checking the package's Darwin-only files on
// Linux (`Scripts/check-apple-branches.py`). Never linked, never run. It declares exactly the names those files use,
// with the Swift types Apple's SDK gives them (the C headers `sys/socket.h`, `dlfcn.h`, `mach/task_info.h`,
// `mach/kern_return.h` as the Swift importer reads them on macOS; documented at developer.apple.com/documentation/
// kernel). A Darwin-only file imports only Darwin, so nothing from Linux's C library leaks into the check; a
// seam file that also needs Foundation finds it as it would on a Mac.

// MARK: - Sockets (sys/socket.h)

/// `var SOL_SOCKET: Int32 { get }` (`#define SOL_SOCKET 0xffff`).
public var SOL_SOCKET: Int32 { 0xffff }

/// `var SO_NOSIGPIPE: Int32 { get }` (`#define SO_NOSIGPIPE 0x1022`).
public var SO_NOSIGPIPE: Int32 { 0x1022 }

// MARK: - Dynamic linker (dlfcn.h)

/// `var RTLD_NOW: Int32 { get }` (`#define RTLD_NOW 0x2`).
public var RTLD_NOW: Int32 { 0x2 }

/// `func dlopen(_ __path: UnsafePointer<CChar>!, _ __mode: Int32) -> UnsafeMutableRawPointer!`.
public func dlopen(_ __path: UnsafePointer<CChar>!, _ __mode: Int32) -> UnsafeMutableRawPointer! { nil }

/// `func dlsym(_ __handle: UnsafeMutableRawPointer!, _ __symbol: UnsafePointer<CChar>!) -> UnsafeMutableRawPointer!`.
public func dlsym(_ __handle: UnsafeMutableRawPointer!, _ __symbol: UnsafePointer<CChar>!) -> UnsafeMutableRawPointer! {
    nil
}

// MARK: - Mach (mach/task_info.h, mach/kern_return.h)

/// `typealias natural_t = UInt32` (`__darwin_natural_t`).
public typealias natural_t = UInt32
/// `typealias integer_t = Int32`.
public typealias integer_t = Int32
/// `typealias kern_return_t = Int32`.
public typealias kern_return_t = Int32
/// `typealias mach_port_t = UInt32` (`__darwin_mach_port_t`).
public typealias mach_port_t = UInt32
/// `typealias task_name_t = mach_port_t`.
public typealias task_name_t = mach_port_t
/// `typealias task_flavor_t = natural_t`.
public typealias task_flavor_t = natural_t
/// `typealias task_info_t = UnsafeMutablePointer<integer_t>`.
public typealias task_info_t = UnsafeMutablePointer<integer_t>
/// `typealias mach_msg_type_number_t = natural_t`.
public typealias mach_msg_type_number_t = natural_t
/// `typealias mach_vm_size_t = UInt64`.
public typealias mach_vm_size_t = UInt64
/// `typealias policy_t = Int32`.
public typealias policy_t = Int32

/// `struct time_value_t`: `seconds`, `microseconds` (`integer_t`).
public struct time_value_t {
    /// `var seconds: integer_t`.
    public var seconds: integer_t = 0
    /// `var microseconds: integer_t`.
    public var microseconds: integer_t = 0
    /// `init()`: every field zero.
    public init() {}
}

/// `struct mach_task_basic_info`, in the header's field order.
public struct mach_task_basic_info {
    /// `var virtual_size: mach_vm_size_t` (bytes).
    public var virtual_size: mach_vm_size_t = 0
    /// `var resident_size: mach_vm_size_t` (bytes).
    public var resident_size: mach_vm_size_t = 0
    /// `var resident_size_max: mach_vm_size_t` (bytes).
    public var resident_size_max: mach_vm_size_t = 0
    /// `var user_time: time_value_t`.
    public var user_time = time_value_t()
    /// `var system_time: time_value_t`.
    public var system_time = time_value_t()
    /// `var policy: policy_t`.
    public var policy: policy_t = 0
    /// `var suspend_count: integer_t`.
    public var suspend_count: integer_t = 0
    /// `init()`: every field zero.
    public init() {}
}

/// `var MACH_TASK_BASIC_INFO: Int32 { get }` (`#define MACH_TASK_BASIC_INFO 20`).
public var MACH_TASK_BASIC_INFO: Int32 { 20 }

/// `var KERN_SUCCESS: Int32 { get }` (`#define KERN_SUCCESS 0`).
public var KERN_SUCCESS: Int32 { 0 }

/// `func task_info(_ target_task: task_name_t, _ flavor: task_flavor_t, _ task_info_out: task_info_t!,
/// _ task_info_outCnt: UnsafeMutablePointer<mach_msg_type_number_t>!) -> kern_return_t`.
public func task_info(
    _ target_task: task_name_t,
    _ flavor: task_flavor_t,
    _ task_info_out: task_info_t!,
    _ task_info_outCnt: UnsafeMutablePointer<mach_msg_type_number_t>!
) -> kern_return_t { 0 }
