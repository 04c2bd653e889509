// A stand-in for Apple's Security module, for type-checking the package's Apple-only files on Linux
// (`Scripts/check-apple-branches.py`). Never linked, never run: the bodies only satisfy the compiler. It declares
// exactly the names those files use, each with the Swift signature Apple's SDK gives it — taken from the symbol pages
// of developer.apple.com/documentation (Security, Foundation) — so a wrong name, argument or type in an Apple-only
// file fails the test command here instead of an app's build on a Mac.
//
// Two liberties, both on the lenient side, so the check can miss a mistake but never invents one:
// - Core Foundation types toll-free bridged to Foundation classes are those classes here (`CFArray` is `NSArray`,
//   …), because only Foundation's classes take part in `as` bridging on Linux. A CF value used with an NS member
//   would pass here; the Apple-only files use CF values only through `as` conversions and CF functions.
// - Foundation's Security-dependent members (`URLProtectionSpace.serverTrust`, `URLCredential(trust:)`,
//   `tlsMinimumSupportedProtocolVersion`), which swift-corelibs-foundation marks unavailable or lacks, are declared
//   here, and FoundationNetworking (URL loading, part of Foundation on Apple platforms) is re-exported, so an
//   Apple-only file imports exactly what it imports on a Mac: Foundation and Security.

import Foundation
@_exported import FoundationNetworking

// MARK: - Core Foundation (developer.apple.com/documentation/corefoundation)

/// `typealias OSStatus = Int32`.
public typealias OSStatus = Int32
/// `typealias CFIndex = Int`.
public typealias CFIndex = Int
/// `CFArray`, toll-free bridged to `NSArray`.
public typealias CFArray = NSArray
/// `CFData`, toll-free bridged to `NSData`.
public typealias CFData = NSData
/// `CFString`, toll-free bridged to `NSString`.
public typealias CFString = NSString

/// `class CFAllocator`.
public final class CFAllocator {}

/// `class CFError`, toll-free bridged to `NSError`; distinct here so NSError's members are not available on it.
public final class CFError {}

/// `func CFErrorGetCode(_ err: CFError!) -> CFIndex`.
public func CFErrorGetCode(_ err: CFError!) -> CFIndex { 0 }

/// `func CFErrorCopyDescription(_ err: CFError!) -> CFString!`.
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! { "" }

// MARK: - Security (developer.apple.com/documentation/security)

/// `class SecTrust`.
public final class SecTrust {}

/// `class SecCertificate`.
public final class SecCertificate {}

/// `var errSecSuccess: OSStatus { get }`.
public var errSecSuccess: OSStatus { 0 }

/// `func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool`
/// (macOS 10.14, iOS 12).
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }

/// `func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray?` (macOS 12, iOS 15, tvOS 15, watchOS 8).
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }

/// `func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> OSStatus`.
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> OSStatus { 0 }

/// `func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus`.
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus { 0 }

/// `func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate?`.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? { nil }

/// `func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData`.
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { NSData() }

/// `enum tls_protocol_version_t: UInt16` (Security, `SecProtocolTypes.h`; macOS 10.15, iOS 13).
public enum tls_protocol_version_t: UInt16, Sendable {
    /// `TLSv10`.
    case TLSv10 = 0x0301
    /// `TLSv11`.
    case TLSv11 = 0x0302
    /// `TLSv12`.
    case TLSv12 = 0x0303
    /// `TLSv13`.
    case TLSv13 = 0x0304
}

// MARK: - Foundation's members that use Security types (developer.apple.com/documentation/foundation)

/// `let NSURLAuthenticationMethodServerTrust: String`.
public let NSURLAuthenticationMethodServerTrust = "NSURLAuthenticationMethodServerTrust"

extension URLProtectionSpace {
    /// `var serverTrust: SecTrust? { get }`.
    public var serverTrust: SecTrust? { nil }
}

extension URLCredential {
    /// `convenience init(trust: SecTrust)`.
    public convenience init(trust: SecTrust) {
        self.init(user: "", password: "", persistence: .none)
    }
}

extension URLSessionConfiguration {
    /// `var tlsMinimumSupportedProtocolVersion: tls_protocol_version_t { get set }` (macOS 10.15, iOS 13).
    public var tlsMinimumSupportedProtocolVersion: tls_protocol_version_t {
        get { .TLSv12 }
        set {}
    }
}
