// A stand-in for Apple's Security module, for type-checking the package's Apple-only files on Linux
// (`Scripts/check-apple-branches.py`). Never linked, never run: the bodies only satisfy the compiler. It declares
// exactly the names those files use, each with the Swift signature Apple's SDK gives it, so a wrong name, argument or
// type in an Apple-only file fails the test command here instead of an app's build on a Mac.
//
// Where each signature comes from: every declaration below quotes its C or Objective-C declaration and names the SDK
// header that holds it — Security.framework's `SecBase.h`, `SecCertificate.h`, `SecTrust.h`, `SecProtocolTypes.h`
// (iOS 15 / macOS 12 SDKs and later; Apple publishes the Security sources, headers included, as its open-source
// `Security` project), and Foundation's
// `NSURLProtectionSpace.h`, `NSURLCredential.h`, `NSURLSession.h` (as quoted on their developer.apple.com symbol
// pages). The Swift signature follows from the declaration by the Clang importer's rules:
// - `CF_ASSUME_NONNULL_BEGIN` (SecBase.h, SecCertificate.h, SecTrust.h) makes an unannotated pointer non-optional,
//   `_Nullable`/`__nullable` optional; a header without it gives implicitly unwrapped `T!`.
// - `CF_IMPLICIT_BRIDGING_ENABLED` and `CF_RETURNS_RETAINED` make a returned CF object a managed reference (no
//   `Unmanaged`); `CFTypeRef`s are classes named without `Ref` (`SecTrustRef` is `SecTrust`).
// - A constant of an anonymous `CF_ENUM(OSStatus)` is a `var name: OSStatus { get }`; `Boolean` is `Bool`.
//
// Security re-exports CoreFoundation, as Apple's does (the Core Foundation names are in `CoreFoundation.swift`).
// One liberty, on the lenient side, so the check can miss a mistake but never invents one: Foundation's Security-dependent members (`URLProtectionSpace.serverTrust`, `URLCredential(trust:)`,
//   `tlsMinimumSupportedProtocolVersion`), which swift-corelibs-foundation marks unavailable or lacks, are declared
//   here, and FoundationNetworking (URL loading, part of Foundation on Apple platforms) is re-exported, so an
//   Apple-only file imports exactly what it imports on a Mac: Foundation and Security.

@_exported import CoreFoundation
import Foundation
@_exported import FoundationNetworking

// MARK: - Security (SecBase.h, SecCertificate.h, SecTrust.h, SecProtocolTypes.h)

/// `SecTrust.h`: `typedef struct CF_BRIDGED_TYPE(id) __SecTrust *SecTrustRef;` — `class SecTrust`.
public final class SecTrust {}

/// `SecBase.h`: `typedef struct CF_BRIDGED_TYPE(id) SECTYPE(SecCertificate) *SecCertificateRef;` —
/// `class SecCertificate`.
public final class SecCertificate {}

/// `SecBase.h`: `CF_ENUM(OSStatus) { errSecSuccess = 0, … };` — `var errSecSuccess: OSStatus { get }`.
public var errSecSuccess: OSStatus { 0 }

/// `SecTrust.h`: `__attribute__((warn_unused_result)) bool SecTrustEvaluateWithError(SecTrustRef trust,
/// CFErrorRef _Nullable * _Nullable CF_RETURNS_RETAINED error) API_AVAILABLE(macos(10.14), ios(12.0), tvos(12.0),
/// watchos(5.0));` — `func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?)
/// -> Bool`.
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }

/// `SecTrust.h`: `_Nullable CF_RETURNS_RETAINED CFArrayRef SecTrustCopyCertificateChain(SecTrustRef trust)
/// API_AVAILABLE(macos(12.0), ios(15.0), tvos(15.0), watchos(8.0));` —
/// `func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray?`.
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }

/// `SecTrust.h`: `OSStatus SecTrustSetAnchorCertificates(SecTrustRef trust, CFArrayRef __nullable
/// anchorCertificates) __OSX_AVAILABLE_STARTING(__MAC_10_3, __IPHONE_2_0);` —
/// `func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus`.
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus { 0 }

/// `SecTrust.h`: `OSStatus SecTrustSetAnchorCertificatesOnly(SecTrustRef trust, Boolean anchorCertificatesOnly)
/// __OSX_AVAILABLE_STARTING(__MAC_10_6, __IPHONE_2_0);` —
/// `func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus`.
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus { 0 }

/// `SecCertificate.h`: `__nullable SecCertificateRef SecCertificateCreateWithData(CFAllocatorRef __nullable
/// allocator, CFDataRef data) __OSX_AVAILABLE_STARTING(__MAC_10_6, __IPHONE_2_0);` —
/// `func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate?`.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? { nil }

/// `SecCertificate.h`: `CFDataRef SecCertificateCopyData(SecCertificateRef certificate)
/// __OSX_AVAILABLE_STARTING(__MAC_10_6, __IPHONE_2_0);` —
/// `func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData`.
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { NSData() }

/// `SecProtocolTypes.h`: `typedef CF_ENUM(uint16_t, tls_protocol_version_t) { tls_protocol_version_TLSv10
/// CF_SWIFT_NAME(TLSv10) = 0x0301, … TLSv13 = 0x0304, DTLSv10 = 0xfeff, DTLSv12 = 0xfefd }
/// API_AVAILABLE(macos(10.15), ios(13.0), …);` — `enum tls_protocol_version_t: UInt16` with cases `TLSv10` …
/// `DTLSv12`. The DTLS cases are left out (no file uses them); an imported C enum is not frozen, so a `switch` over
/// it needs `@unknown default` on a Mac, which this stand-in does not demand.
public enum tls_protocol_version_t: UInt16, Sendable {
    /// `tls_protocol_version_TLSv10 CF_SWIFT_NAME(TLSv10) = 0x0301`.
    case TLSv10 = 0x0301
    /// `tls_protocol_version_TLSv11 CF_SWIFT_NAME(TLSv11) = 0x0302`.
    case TLSv11 = 0x0302
    /// `tls_protocol_version_TLSv12 CF_SWIFT_NAME(TLSv12) = 0x0303`.
    case TLSv12 = 0x0303
    /// `tls_protocol_version_TLSv13 CF_SWIFT_NAME(TLSv13) = 0x0304`.
    case TLSv13 = 0x0304
}

// MARK: - Foundation's members that use Security types (NSURLProtectionSpace.h, NSURLCredential.h, NSURLSession.h)

/// `NSURLProtectionSpace.h`: `FOUNDATION_EXPORT NSString * const NSURLAuthenticationMethodServerTrust
/// API_AVAILABLE(macos(10.6), ios(3.0), …);` — `let NSURLAuthenticationMethodServerTrust: String`.
public let NSURLAuthenticationMethodServerTrust = "NSURLAuthenticationMethodServerTrust"

extension URLProtectionSpace {
    /// `NSURLProtectionSpace.h`, category `NSServerTrustValidationSpace`: `@property (nullable, readonly) SecTrustRef
    /// serverTrust API_AVAILABLE(macos(10.6), ios(3.0), watchos(2.0), tvos(9.0));` — `var serverTrust: SecTrust? { get }`.
    public var serverTrust: SecTrust? { nil }
}

extension URLCredential {
    /// `NSURLCredential.h`, category `NSServerTrust`: `- (instancetype)initWithTrust:(SecTrustRef)trust;` — a
    /// category's initializer, so `convenience init(trust: SecTrust)`.
    public convenience init(trust: SecTrust) {
        self.init(user: "", password: "", persistence: .none)
    }
}

extension URLSessionConfiguration {
    /// `NSURLSession.h`: `@property tls_protocol_version_t TLSMinimumSupportedProtocolVersion
    /// API_AVAILABLE(macos(10.15), ios(13.0), watchos(6.0), tvos(13.0));` —
    /// `var tlsMinimumSupportedProtocolVersion: tls_protocol_version_t { get set }`.
    public var tlsMinimumSupportedProtocolVersion: tls_protocol_version_t {
        get { .TLSv12 }
        set {}
    }
}
