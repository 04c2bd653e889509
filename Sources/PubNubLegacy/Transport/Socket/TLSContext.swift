import Foundation
import PlatformSupport

/// One OpenSSL `SSL_CTX`: TLS 1.2 or later, and either full certificate verification against a trust store or,
/// for the relaxed rung of the TLS ladder, none. Shared by every connection made with the same settings; OpenSSL
/// keeps it alive while a connection still uses it.
// @unchecked: the stored properties are immutable; OpenSSL allows `SSL_new` on a configured context from any thread.
final class TLSContext: @unchecked Sendable {
    /// The settings a context is made for: connections with different keys never share a context or a pool slot.
    struct Key: Hashable, Sendable {
        /// The PEM file of trusted CA certificates; nil for the system trust store. Ignored when `relaxed`.
        var anchorCertificatesFile: String?
        /// No certificate verification (3.4's "BarelySecure"); pins still apply.
        var relaxed: Bool

        init(_ evaluation: TrustEvaluation) {
            self.anchorCertificatesFile = evaluation.anchorsFile
            self.relaxed = evaluation.relaxed
        }
    }

    let library: OpenSSL
    let pointer: OpaquePointer
    let key: Key

    private init(library: OpenSSL, pointer: OpaquePointer, key: Key) {
        self.library = library
        self.pointer = pointer
        self.key = key
    }

    deinit {
        self.library.contextFree(self.pointer)
    }

    /// Whether connections made with this context verify the server's certificate and host name.
    var verifies: Bool { !self.key.relaxed }

    /// A context for `key`. The system trust store is OpenSSL's default one, which honours `SSL_CERT_FILE` and
    /// `SSL_CERT_DIR` as every OpenSSL-based tool does; an anchors file replaces it.
    static func make(_ key: Key, library: OpenSSL) -> Result<TLSContext, TransportFailure> {
        library.errorClear()
        guard let method = library.clientMethod(), let pointer = library.contextNew(method) else {
            return .failure(
                SocketFailure.tlsSetupFailed("an OpenSSL context cannot be created (\(library.drainErrors()))")
            )
        }
        let context = TLSContext(library: library, pointer: pointer, key: key)
        let minimum = library.contextControl(
            pointer,
            OpenSSL.controlSetMinimumProtocolVersion,
            OpenSSL.tls12Version,
            nil
        )
        guard minimum == 1 else {
            return .failure(SocketFailure.tlsSetupFailed("TLS 1.2 cannot be set as the minimum version"))
        }
        _ = library.contextControl(pointer, OpenSSL.controlMode, OpenSSL.modePartialMovingWrite, nil)
        _ = library.contextSetOptions(pointer, OpenSSL.optionsNoCompressionNoRenegotiation)
        if key.relaxed {
            library.contextSetVerify(pointer, OpenSSL.verifyNone, nil)
            return .success(context)
        }
        library.contextSetVerify(pointer, OpenSSL.verifyPeer, nil)
        if let file = key.anchorCertificatesFile {
            if let failure = Self.addAnchors(from: file, to: pointer, library: library) { return .failure(failure) }
        } else if library.contextSetDefaultVerifyPaths(pointer) != 1 {
            let reason = library.drainErrors()
            return .failure(
                SocketFailure.tlsSetupFailed("the system trust store cannot be loaded (OpenSSL: \(reason))")
            )
        }
        return .success(context)
    }

    /// Makes the certificates of the PEM file `file`, read and checked by `TrustEvaluation` as on every platform,
    /// the only trust anchors of the context `pointer`: its store starts empty, and each certificate counts as an
    /// anchor even when it is not a self-signed root (partial chains), as the Security framework's anchors do.
    private static func addAnchors(from file: String, to pointer: OpaquePointer, library: OpenSSL) -> TransportFailure?
    {
        let anchors: [[UInt8]]
        switch TrustEvaluation.anchorCertificates(inFile: file) {
        case .success(let certificates): anchors = certificates
        case .failure(let failure): return failure
        }
        guard let store = library.contextCertificateStore(pointer),
            library.storeSetFlags(store, OpenSSL.verifyFlagPartialChain) == 1
        else {
            return SocketFailure.tlsSetupFailed("the OpenSSL trust store cannot be set up (\(library.drainErrors()))")
        }
        for (index, der) in anchors.enumerated() {
            guard let certificate = library.certificate(fromDER: der) else {
                let reason = "OpenSSL cannot read its certificate \(index + 1) (\(library.drainErrors()))"
                return TrustEvaluation.anchorsFailure(file: file, reason: reason)
            }
            // The store takes its own reference; a certificate listed twice is kept once.
            let added = library.storeAddCertificate(store, certificate)
            library.certificateFree(certificate)
            if added != 1 { library.errorClear() }
        }
        return nil
    }
}

/// The TLS contexts of one socket pool, made on first use per key. A context that could not be made is not kept:
/// the next request tries again (the anchors file may have been fixed). The OpenSSL library is asked for at the first
/// `https` request, not before: a process that only speaks plain `http` never maps libssl and libcrypto (3.4 MB of
/// an idle client's resident memory, BENCHMARKS.md).
final class TLSContextCache: Sendable {
    /// Where OpenSSL comes from: `OpenSSL.shared` (loaded once per process, thread-safe), or a test's stand-in.
    typealias Library = @Sendable () -> Result<OpenSSL, OpenSSL.LoadFailure>

    private let library: Library
    private let contexts = Locked<[TLSContext.Key: TLSContext]>([:])

    init(library: @escaping Library) {
        self.library = library
    }

    /// OpenSSL, loading it if nothing asked before; the failure says why it cannot be used.
    var openSSL: Result<OpenSSL, OpenSSL.LoadFailure> { self.library() }

    func context(for key: TLSContext.Key) -> Result<TLSContext, TransportFailure> {
        if let cached = self.contexts.withLock({ $0[key] }) { return .success(cached) }
        let library: OpenSSL
        switch self.library() {
        case .success(let loaded): library = loaded
        case .failure(let failure): return .failure(SocketFailure.openSSLUnavailable(failure))
        }
        // Made outside the lock: loading a trust store reads files.
        let made = TLSContext.make(key, library: library)
        guard case .success(let context) = made else { return made }
        return .success(
            self.contexts.withLock { contexts in
                if let raced = contexts[key] { return raced }
                contexts[key] = context
                return context
            }
        )
    }
}
