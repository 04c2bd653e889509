// The OpenSSL functions the socket transport's TLS stream calls, looked up at run time with `dlopen`/`dlsym`.
//
// Linux distributions ship OpenSSL (`libssl.so.3`, or `.1.1` on older ones). Looking the functions up at run time
// gives the package TLS on its own sockets with no build-time dependency, and only a process that makes an `https`
// request maps the libraries (`OpenSSL.shared` is loaded on first use; a plain-HTTP client never asks). Apple
// platforms use URLSession (the loader does not try there); on a Linux system without a usable OpenSSL, `https`
// requests fail with a TLS error that carries `LoadFailure.reason` (`SocketFailure.openSSLUnavailable`).
//
// Several OpenSSL "functions" are macros over a control call; their numbers are ABI constants of the OpenSSL 1.1
// and 3.x headers (`ssl.h`, `x509_vfy.h`), written out below with the macro they stand for.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// The resolved OpenSSL entry points. Immutable once loaded; OpenSSL 1.1 and later are thread-safe without setup.
// @unchecked: every stored property is an immutable C function pointer or library handle.
final class OpenSSL: @unchecked Sendable {
    // MARK: - Constants (OpenSSL 1.1 / 3.x ABI)

    /// `SSL_get_error` results.
    static let errorNone: Int32 = 0
    static let errorSSL: Int32 = 1
    static let errorWantRead: Int32 = 2
    static let errorWantWrite: Int32 = 3
    static let errorSyscall: Int32 = 5
    static let errorZeroReturn: Int32 = 6

    /// `SSL_VERIFY_NONE` / `SSL_VERIFY_PEER`.
    static let verifyNone: Int32 = 0
    static let verifyPeer: Int32 = 1

    /// `SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)` is `SSL_CTX_ctrl(ctx, 123, 0x0303, NULL)`.
    static let controlSetMinimumProtocolVersion: Int32 = 123
    static let tls12Version = 0x0303
    /// `SSL_CTX_set_mode(ctx, mode)` is `SSL_CTX_ctrl(ctx, 33, mode, NULL)`.
    static let controlMode: Int32 = 33
    /// `SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER`: `SSL_write` behaves like `send`.
    static let modePartialMovingWrite = 0x1 | 0x2
    /// `SSL_set_tlsext_host_name(ssl, name)` is `SSL_ctrl(ssl, 55, TLSEXT_NAMETYPE_host_name = 0, name)`.
    static let controlSetTLSExtensionHostName: Int32 = 55
    /// `SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION`.
    static let optionsNoCompressionNoRenegotiation: UInt64 = (1 << 17) | (1 << 30)

    /// `X509_V_OK` and the verification results the failures distinguish (`x509_vfy.h`).
    static let verifyOK = 0
    static let verifyUnableToGetIssuerCertificate = 2
    static let verifyCertificateNotYetValid = 9
    static let verifyCertificateHasExpired = 10
    static let verifyDepthZeroSelfSigned = 18
    static let verifySelfSignedInChain = 19
    static let verifyUnableToGetIssuerLocally = 20
    static let verifyUnableToVerifyLeafSignature = 21
    static let verifyHostnameMismatch = 62
    static let verifyIPAddressMismatch = 64

    /// `X509_V_FLAG_PARTIAL_CHAIN`: a certificate of the store is a trust anchor even when it is not self-signed, so
    /// an anchors file may list an intermediate CA or the server's own certificate, as the Security framework's
    /// anchors may be (`x509_vfy.h`).
    static let verifyFlagPartialChain: UInt = 0x80000

    // MARK: - Entry points

    typealias Pointer = OpaquePointer

    let clientMethod: @convention(c) () -> Pointer?
    let contextNew: @convention(c) (Pointer?) -> Pointer?
    let contextFree: @convention(c) (Pointer?) -> Void
    let contextControl: @convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let contextSetOptions: @convention(c) (Pointer?, UInt64) -> UInt64
    let contextSetVerify: @convention(c) (Pointer?, Int32, UnsafeRawPointer?) -> Void
    let contextSetDefaultVerifyPaths: @convention(c) (Pointer?) -> Int32
    let contextCertificateStore: @convention(c) (Pointer?) -> Pointer?
    let storeAddCertificate: @convention(c) (Pointer?, Pointer?) -> Int32
    let storeSetFlags: @convention(c) (Pointer?, UInt) -> Int32
    let new: @convention(c) (Pointer?) -> Pointer?
    let free: @convention(c) (Pointer?) -> Void
    let setDescriptor: @convention(c) (Pointer?, Int32) -> Int32
    let control: @convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let setHost: @convention(c) (Pointer?, UnsafePointer<CChar>?) -> Int32
    let verifyParameters: @convention(c) (Pointer?) -> Pointer?
    let setIPAddress: @convention(c) (Pointer?, UnsafePointer<CChar>?) -> Int32
    let connect: @convention(c) (Pointer?) -> Int32
    let read: @convention(c) (Pointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    let write: @convention(c) (Pointer?, UnsafeRawPointer?, Int32) -> Int32
    let pending: @convention(c) (Pointer?) -> Int32
    let getError: @convention(c) (Pointer?, Int32) -> Int32
    let verifyResult: @convention(c) (Pointer?) -> Int
    let peerCertificate: @convention(c) (Pointer?) -> Pointer?
    let verifiedChain: @convention(c) (Pointer?) -> Pointer?
    let stackCount: @convention(c) (Pointer?) -> Int32
    let stackValue: @convention(c) (Pointer?, Int32) -> UnsafeMutableRawPointer?
    let certificateFree: @convention(c) (Pointer?) -> Void
    let decodeCertificate:
        @convention(c) (UnsafeMutablePointer<Pointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> Pointer?
    let encodeCertificate: @convention(c) (Pointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    let errorGet: @convention(c) () -> UInt
    let errorString: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let errorClear: @convention(c) () -> Void
    let verifyErrorString: @convention(c) (Int) -> UnsafePointer<CChar>?
    let version: @convention(c) (Pointer?) -> UnsafePointer<CChar>?

    /// Resolves every entry point through `symbol`, which returns nil for a name it does not know.
    private init(symbol: (String) -> UnsafeMutableRawPointer?) throws(LoadFailure) {
        func resolve<Function>(_ names: String...) throws(LoadFailure) -> Function {
            for name in names {
                if let address = symbol(name) { return unsafeBitCast(address, to: Function.self) }
            }
            throw LoadFailure(reason: "the function \(names[0]) is missing")
        }
        self.clientMethod = try resolve("TLS_client_method")
        self.contextNew = try resolve("SSL_CTX_new")
        self.contextFree = try resolve("SSL_CTX_free")
        self.contextControl = try resolve("SSL_CTX_ctrl")
        self.contextSetOptions = try resolve("SSL_CTX_set_options")
        self.contextSetVerify = try resolve("SSL_CTX_set_verify")
        self.contextSetDefaultVerifyPaths = try resolve(
            "SSL_CTX_set_default_verify_paths"
        )
        self.contextCertificateStore = try resolve("SSL_CTX_get_cert_store")
        self.storeAddCertificate = try resolve("X509_STORE_add_cert")
        self.storeSetFlags = try resolve("X509_STORE_set_flags")
        self.new = try resolve("SSL_new")
        self.free = try resolve("SSL_free")
        self.setDescriptor = try resolve("SSL_set_fd")
        self.control = try resolve("SSL_ctrl")
        self.setHost = try resolve("SSL_set1_host")
        self.verifyParameters = try resolve("SSL_get0_param")
        self.setIPAddress = try resolve("X509_VERIFY_PARAM_set1_ip_asc")
        self.connect = try resolve("SSL_connect")
        self.read = try resolve("SSL_read")
        self.write = try resolve("SSL_write")
        self.pending = try resolve("SSL_pending")
        self.getError = try resolve("SSL_get_error")
        self.verifyResult = try resolve("SSL_get_verify_result")
        // OpenSSL 3 renamed the call (the old name is a macro there); 1.1 has only the old one.
        self.peerCertificate = try resolve(
            "SSL_get1_peer_certificate",
            "SSL_get_peer_certificate"
        )
        self.verifiedChain = try resolve("SSL_get0_verified_chain")
        self.stackCount = try resolve("OPENSSL_sk_num")
        self.stackValue = try resolve("OPENSSL_sk_value")
        self.certificateFree = try resolve("X509_free")
        self.decodeCertificate = try resolve("d2i_X509")
        self.encodeCertificate = try resolve("i2d_X509")
        self.errorGet = try resolve("ERR_get_error")
        self.errorString = try resolve("ERR_error_string_n")
        self.errorClear = try resolve("ERR_clear_error")
        self.verifyErrorString = try resolve("X509_verify_cert_error_string")
        self.version = try resolve("SSL_get_version")
    }

    // MARK: - Loading

    /// Why OpenSSL is not used: the text names the library or function that is missing.
    struct LoadFailure: Error, Equatable, CustomStringConvertible {
        let reason: String

        var description: String { self.reason }
    }

    /// The library pairs tried in order: OpenSSL 3 (current distributions), then 1.1 for older ones.
    static let libraryCandidates: [(ssl: String, crypto: String)] = [
        ("libssl.so.3", "libcrypto.so.3"), ("libssl.so.1.1", "libcrypto.so.1.1"),
    ]

    /// The process's OpenSSL, loaded on first use (a `static let`: once, thread-safe), which is the first `https`
    /// request a socket transport carries; never where URLSession carries TLS with the package's own trust
    /// decisions (Apple platforms, `SessionTrust.judgesServerTrust`).
    static let shared: Result<OpenSSL, LoadFailure> =
        SessionTrust.judgesServerTrust
        ? .failure(LoadFailure(reason: "URLSession carries TLS on this platform"))
        : OpenSSL.load(candidates: OpenSSL.libraryCandidates)

    /// Opens the first pair of `candidates` whose libraries both load and resolves every entry point from them. The
    /// handles are never closed: the functions are used for the life of the process. The failure names why each
    /// pair was refused, in the order tried.
    static func load(candidates: [(ssl: String, crypto: String)]) -> Result<OpenSSL, LoadFailure> {
        var failures: [String] = []
        for candidate in candidates {
            guard let ssl = dlopen(candidate.ssl, RTLD_NOW | RTLD_LOCAL) else {
                failures.append("\(candidate.ssl) cannot be loaded (\(Self.dlerrorText()))")
                continue
            }
            guard let crypto = dlopen(candidate.crypto, RTLD_NOW | RTLD_LOCAL) else {
                failures.append("\(candidate.crypto) cannot be loaded (\(Self.dlerrorText()))")
                dlclose(ssl)
                continue
            }
            let result = Self.resolve { name in dlsym(ssl, name) ?? dlsym(crypto, name) }
            if case .failure(let missing) = result {
                failures.append("\(candidate.ssl): \(missing.reason)")
                dlclose(crypto)
                dlclose(ssl)
                continue
            }
            Self.skipCleanupAtExit(dlsym(ssl, "OPENSSL_init_ssl"))
            return result
        }
        return .failure(
            LoadFailure(reason: failures.isEmpty ? "no OpenSSL library to try" : failures.joined(separator: "; "))
        )
    }

    /// Resolves every entry point through `symbol`; the failure names the first function it does not find.
    static func resolve(_ symbol: (String) -> UnsafeMutableRawPointer?) -> Result<OpenSSL, LoadFailure> {
        do throws(LoadFailure) {
            return .success(try OpenSSL(symbol: symbol))
        } catch {
            return .failure(error)
        }
    }

    /// Asks OpenSSL not to free its global state when the process exits (`OPENSSL_INIT_NO_ATEXIT`). Otherwise its
    /// exit handler frees that state on the exiting thread while socket workers may still close TLS connections on
    /// theirs, which can crash the process at exit (seen once: `LegacyDemo bench --secure` ended with SIGSEGV in
    /// libcrypto after its last figure). Freeing memory at exit buys nothing. A library that initialised OpenSSL
    /// earlier in the process (an app that links libcurl) keeps the exit handler it registered; nothing else changes.
    private static func skipCleanupAtExit(_ initialise: UnsafeMutableRawPointer?) {
        guard let initialise else { return }
        typealias InitialiseSSL = @convention(c) (UInt64, OpaquePointer?) -> Int32
        let noAtExit: UInt64 = 0x0008_0000  // OPENSSL_INIT_NO_ATEXIT (openssl/crypto.h, 1.1.1b and later)
        _ = unsafeBitCast(initialise, to: InitialiseSSL.self)(noAtExit, nil)
    }

    private static func dlerrorText() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown reason"
    }

    // MARK: - Errors

    /// The OpenSSL error queue of this thread as text (oldest first), emptied; "" when it is empty.
    func drainErrors() -> String {
        var texts: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = self.errorGet()
            if code == 0 { break }
            self.errorString(code, &buffer, buffer.count)
            texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return texts.joined(separator: "; ")
    }

    /// OpenSSL's text for a certificate verification result.
    func verifyText(_ result: Int) -> String {
        self.verifyErrorString(result).map { String(cString: $0) } ?? "verification error \(result)"
    }
}

// MARK: - Certificates

extension OpenSSL {
    /// The DER encoding of `certificate` (an `X509 *`), the form `TrustEvaluation` reads; nil if OpenSSL cannot
    /// encode it.
    func derBytes(of certificate: Pointer) -> [UInt8]? {
        let length = self.encodeCertificate(certificate, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return self.encodeCertificate(certificate, &cursor)
        }
        return written == length ? der : nil
    }

    /// The `X509 *` of a DER certificate, which the caller frees (`certificateFree`); nil if OpenSSL refuses it.
    func certificate(fromDER der: [UInt8]) -> Pointer? {
        der.withUnsafeBufferPointer { buffer -> Pointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return self.decodeCertificate(nil, &cursor, buffer.count)
        }
    }
}

extension TrustEvaluation.Refusal {
    /// The refusal OpenSSL reports with the verification result `result` (`X509_V_ERR_…`).
    init(openSSLResult result: Int) {
        switch result {
        case OpenSSL.verifyCertificateHasExpired: self = .expired
        case OpenSSL.verifyCertificateNotYetValid: self = .notYetValid
        case OpenSSL.verifyHostnameMismatch, OpenSSL.verifyIPAddressMismatch: self = .otherHost
        case OpenSSL.verifyDepthZeroSelfSigned, OpenSSL.verifySelfSignedInChain,
            OpenSSL.verifyUnableToGetIssuerLocally, OpenSSL.verifyUnableToGetIssuerCertificate,
            OpenSSL.verifyUnableToVerifyLeafSignature:
            self = .unknownAuthority
        default: self = .untrusted
        }
    }
}
