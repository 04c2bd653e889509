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

        init(trust: TLSTrust, relaxed: Bool) {
            self.anchorCertificatesFile = relaxed ? nil : trust.anchorCertificatesFile
            self.relaxed = relaxed
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

    /// Where trust comes from, for failure texts.
    var trustDescription: String {
        self.key.anchorCertificatesFile.map { "the anchor certificates in \($0)" } ?? "the system trust store"
    }

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
            guard library.contextLoadVerifyLocations(pointer, file, nil) == 1 else {
                let reason = library.drainErrors()
                return .failure(
                    SocketFailure.tlsSetupFailed(
                        "the anchor certificates file \(file) cannot be loaded"
                            + (reason.isEmpty ? "" : " (OpenSSL: \(reason))")
                    )
                )
            }
        } else if library.contextSetDefaultVerifyPaths(pointer) != 1 {
            let reason = library.drainErrors()
            return .failure(
                SocketFailure.tlsSetupFailed("the system trust store cannot be loaded (OpenSSL: \(reason))")
            )
        }
        return .success(context)
    }
}

/// The TLS contexts of one socket pool, made on first use per key. A context that could not be made is not kept:
/// the next request tries again (the anchors file may have been fixed).
final class TLSContextCache: Sendable {
    private let library: OpenSSL
    private let contexts = Locked<[TLSContext.Key: TLSContext]>([:])

    init(library: OpenSSL) {
        self.library = library
    }

    func context(for key: TLSContext.Key) -> Result<TLSContext, TransportFailure> {
        if let cached = self.contexts.withLock({ $0[key] }) { return .success(cached) }
        // Made outside the lock: loading a trust store reads files.
        let made = TLSContext.make(key, library: self.library)
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
