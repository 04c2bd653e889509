// A stand-in for Apple's CoreFoundation module, for type-checking the package's Apple-only files on Linux
// (`Scripts/check-apple-branches.py`). Never linked, never run. It declares exactly the Core Foundation names those
// files use, with the Swift signatures Apple's SDK gives them; Linux's own CoreFoundation (swift-corelibs-foundation)
// imports some of them differently (its `CFRunLoopMode` is a plain `CFString`, without `.commonModes`), so the check
// must not resolve them there. The `Security` stand-in re-exports this module, as Apple's Security does.
//
// Where each signature comes from: every declaration quotes its C declaration and names its header in
// CoreFoundation.framework (`CFBase.h`, `CFArray.h`, `CFData.h`, `CFError.h`, `CFRunLoop.h`; Apple publishes them as
// its open-source CF project, and swift-corelibs-foundation carries the same declarations). By the Clang importer's
// rules: these headers have no `CF_ASSUME_NONNULL`, so a pointer is implicitly unwrapped (`CFRunLoop!`);
// `CF_IMPLICIT_BRIDGING_ENABLED` makes returned CF objects managed; a `CF_EXTENSIBLE_STRING_ENUM` typedef
// (`CFRunLoopMode`) is a struct whose constants drop their prefix (`kCFRunLoopCommonModes` is `.commonModes`); a C
// struct gets a memberwise `init` with every field.
//
// One liberty, on the lenient side: Core Foundation types toll-free bridged to Foundation classes are those classes
// here (`CFArray` is `NSArray`, …), because only Foundation's classes take part in `as` bridging on Linux. A CF value
// used with an NS member would pass here; the Apple-only files use CF values only through `as` conversions and CF
// functions.

import Foundation

// MARK: - Types and errors (MacTypes.h, CFBase.h, CFArray.h, CFData.h, CFError.h)

/// `MacTypes.h`: `typedef SInt32 OSStatus;` — `typealias OSStatus = Int32`.
public typealias OSStatus = Int32
/// `CFBase.h`: `typedef signed long CFIndex;` (64-bit) — `typealias CFIndex = Int`.
public typealias CFIndex = Int
/// `CFArray.h`: `typedef const struct CF_BRIDGED_TYPE(NSArray) __CFArray * CFArrayRef;` — `CFArray`, bridged to
/// `NSArray`.
public typealias CFArray = NSArray
/// `CFData.h`: `typedef const struct CF_BRIDGED_TYPE(NSData) __CFData * CFDataRef;` — `CFData`, bridged to `NSData`.
public typealias CFData = NSData
/// `CFBase.h`: `typedef const struct CF_BRIDGED_TYPE(NSString) __CFString * CFStringRef;` — `CFString`, bridged to
/// `NSString`.
public typealias CFString = NSString

/// `CFBase.h`: `typedef const struct CF_BRIDGED_TYPE(id) __CFAllocator * CFAllocatorRef;` — `class CFAllocator`.
public final class CFAllocator {}

/// `CFError.h`: `typedef struct CF_BRIDGED_TYPE(NSError) __CFError * CFErrorRef;` — `class CFError`, bridged to
/// `NSError`; a class of its own here so NSError's members are not available on it.
public final class CFError {}

/// `CFError.h` (no `CF_ASSUME_NONNULL`): `CFIndex CFErrorGetCode(CFErrorRef err);` —
/// `func CFErrorGetCode(_ err: CFError!) -> CFIndex`.
public func CFErrorGetCode(_ err: CFError!) -> CFIndex { 0 }

/// `CFError.h` (no `CF_ASSUME_NONNULL`, implicit bridging): `CFStringRef CFErrorCopyDescription(CFErrorRef err);` —
/// `func CFErrorCopyDescription(_ err: CFError!) -> CFString!`.
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! { "" }

// MARK: - Run loop (CFRunLoop.h)

/// `CFBase.h`: `CF_EXPORT const CFAllocatorRef kCFAllocatorDefault;` — `let kCFAllocatorDefault: CFAllocator!`
/// (a read-only computed property here: a stand-in class is not `Sendable`, so a stored global would not compile).
public var kCFAllocatorDefault: CFAllocator! { nil }

/// `CFRunLoop.h`: `typedef struct CF_BRIDGED_MUTABLE_TYPE(id) __CFRunLoop * CFRunLoopRef;` — `class CFRunLoop`.
public final class CFRunLoop {}

/// `CFRunLoop.h`: `typedef struct CF_BRIDGED_MUTABLE_TYPE(id) __CFRunLoopSource * CFRunLoopSourceRef;` —
/// `class CFRunLoopSource`.
public final class CFRunLoopSource {}

/// `CFRunLoop.h`: `typedef CFStringRef CFRunLoopMode CF_EXTENSIBLE_STRING_ENUM;` — `struct CFRunLoopMode`, raw value
/// `CFString`.
public struct CFRunLoopMode: Hashable, RawRepresentable, @unchecked Sendable {
    /// The mode's name.
    public var rawValue: CFString
    /// `init(rawValue: CFString)`.
    public init(rawValue: CFString) { self.rawValue = rawValue }
    /// `CFRunLoop.h`: `CF_EXPORT const CFRunLoopMode kCFRunLoopCommonModes;` — `static let commonModes: CFRunLoopMode`.
    public static let commonModes = CFRunLoopMode(rawValue: "kCFRunLoopCommonModes")
}

/// `CFRunLoop.h`: `typedef struct { CFIndex version; void * info; const void *(*retain)(const void *info); void
/// (*release)(const void *info); CFStringRef (*copyDescription)(const void *info); Boolean (*equal)(const void
/// *info1, const void *info2); CFHashCode (*hash)(const void *info); void (*schedule)(void *info, CFRunLoopRef rl,
/// CFRunLoopMode mode); void (*cancel)(void *info, CFRunLoopRef rl, CFRunLoopMode mode); void (*perform)(void *info);
/// } CFRunLoopSourceContext;` — `struct CFRunLoopSourceContext` with its memberwise `init(version:info:retain:…)`.
/// The function pointers are `@convention(c)` closures, optional as C pointers are. Liberties, all lenient for the
/// `nil` the package passes: `Boolean` in a C function type is `Bool` here (Apple's is `DarwinBoolean`), and a CF
/// object in one (`CFStringRef`, `CFRunLoopRef`, `CFRunLoopMode`) is a raw pointer, since Linux cannot spell a C
/// function type with a Swift class in it; `CFHashCode` is `UInt`.
public struct CFRunLoopSourceContext {
    /// `CFIndex version;`.
    public var version: CFIndex
    /// `void * info;`.
    public var info: UnsafeMutableRawPointer?
    /// `const void *(*retain)(const void *info);`.
    public var retain: (@convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?)?
    /// `void (*release)(const void *info);`.
    public var release: (@convention(c) (UnsafeRawPointer?) -> Void)?
    /// `CFStringRef (*copyDescription)(const void *info);`.
    public var copyDescription: (@convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?)?
    /// `Boolean (*equal)(const void *info1, const void *info2);`.
    public var equal: (@convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Bool)?
    /// `CFHashCode (*hash)(const void *info);`.
    public var hash: (@convention(c) (UnsafeRawPointer?) -> UInt)?
    /// `void (*schedule)(void *info, CFRunLoopRef rl, CFRunLoopMode mode);`.
    public var schedule: (@convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void)?
    /// `void (*cancel)(void *info, CFRunLoopRef rl, CFRunLoopMode mode);`.
    public var cancel: (@convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void)?
    /// `void (*perform)(void *info);`.
    public var perform: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?

    /// The importer's memberwise initializer, every field in the header's order.
    public init(
        version: CFIndex,
        info: UnsafeMutableRawPointer?,
        retain: (@convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?)?,
        release: (@convention(c) (UnsafeRawPointer?) -> Void)?,
        copyDescription: (@convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?)?,
        equal: (@convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Bool)?,
        hash: (@convention(c) (UnsafeRawPointer?) -> UInt)?,
        schedule: (@convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void)?,
        cancel: (@convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void)?,
        perform: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    ) {
        self.version = version
        self.info = info
        self.retain = retain
        self.release = release
        self.copyDescription = copyDescription
        self.equal = equal
        self.hash = hash
        self.schedule = schedule
        self.cancel = cancel
        self.perform = perform
    }
}

/// `CFRunLoop.h`: `CF_EXPORT CFRunLoopRef CFRunLoopGetMain(void);` — `func CFRunLoopGetMain() -> CFRunLoop!`.
public func CFRunLoopGetMain() -> CFRunLoop! { nil }

/// `CFRunLoop.h`: `CF_EXPORT void CFRunLoopWakeUp(CFRunLoopRef rl);` — `func CFRunLoopWakeUp(_ rl: CFRunLoop!)`.
public func CFRunLoopWakeUp(_ rl: CFRunLoop!) {}

/// `CFRunLoop.h`: `CF_EXPORT CFRunLoopSourceRef CFRunLoopSourceCreate(CFAllocatorRef allocator, CFIndex order,
/// CFRunLoopSourceContext *context);` — `func CFRunLoopSourceCreate(_ allocator: CFAllocator!, _ order: CFIndex,
/// _ context: UnsafeMutablePointer<CFRunLoopSourceContext>!) -> CFRunLoopSource!`.
public func CFRunLoopSourceCreate(
    _ allocator: CFAllocator!,
    _ order: CFIndex,
    _ context: UnsafeMutablePointer<CFRunLoopSourceContext>!
) -> CFRunLoopSource! { nil }

/// `CFRunLoop.h`: `CF_EXPORT void CFRunLoopSourceSignal(CFRunLoopSourceRef source);` —
/// `func CFRunLoopSourceSignal(_ source: CFRunLoopSource!)`.
public func CFRunLoopSourceSignal(_ source: CFRunLoopSource!) {}

/// `CFRunLoop.h`: `CF_EXPORT void CFRunLoopAddSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFRunLoopMode
/// mode);` — `func CFRunLoopAddSource(_ rl: CFRunLoop!, _ source: CFRunLoopSource!, _ mode: CFRunLoopMode!)`.
public func CFRunLoopAddSource(_ rl: CFRunLoop!, _ source: CFRunLoopSource!, _ mode: CFRunLoopMode!) {}
