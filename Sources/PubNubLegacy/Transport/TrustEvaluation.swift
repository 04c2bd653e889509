import Foundation

// How a TLS server is judged, decided once for every TLS library the package drives: OpenSSL on its own sockets
// (`TLSContext`, `TLSStream`, Linux) and the Security framework under URLSession's server-trust challenge
// (`URLSessionTransport+Security.swift`, Apple platforms). Each library only hands over its chain as DER
// certificates and says why its own verification refused one; which anchors count, what a pin matches, and what the
// app is told are decided here, without I/O, so the Linux tests cover both paths. The codes and texts follow
// MIGRATION.md "TLS: trust anchors and pins" and A12 (docs/DESIGN.md §5).

/// The trust decision for one TLS connection to `host`.
struct TrustEvaluation: Sendable, Equatable {
    /// The name the connection verifies and failures name: a host name or an IP literal.
    let host: String
    /// The configuration's anchors and pins.
    let trust: TLSTrust
    /// The relaxed rung of the TLS ladder (docs/BEHAVIOR.md §2.8): no certificate verification; pins still apply.
    let relaxed: Bool

    init(host: String, trust: TLSTrust, relaxed: Bool) {
        self.host = host
        self.trust = trust
        self.relaxed = relaxed
    }

    /// Whether the TLS library verifies the chain and the host name.
    var verifies: Bool { !self.relaxed }

    /// The PEM file whose certificates are the only anchors; nil for the system's trust store, and when relaxed
    /// (nothing is verified then).
    var anchorsFile: String? { self.relaxed ? nil : self.trust.anchorCertificatesFile }

    /// Whether the platform's default evaluation is the whole decision: system anchors, full verification, no
    /// pins. URLSession then answers the challenge itself, with every check App Transport Security adds.
    var isPlatformDefault: Bool { !self.relaxed && self.trust.isSystemDefault }

    /// Where trust comes from, for failure texts.
    var trustDescription: String {
        self.anchorsFile.map { "the anchor certificates in \($0)" } ?? "the system trust store"
    }

    // MARK: - Refused certificates

    /// Why a TLS library's verification refused the server's certificate, in the terms the failures distinguish.
    enum Refusal: Sendable, Equatable {
        case expired
        case notYetValid
        /// Valid, but for another host name or address.
        case otherHost
        /// Not issued by an anchor: self-signed, unknown authority, incomplete chain.
        case unknownAuthority
        /// Any other refusal.
        case untrusted
    }

    /// The failure for a certificate `library` refused (`detail`: the library's own words): −1201 expired, −1204 not
    /// valid yet, −1202 any other refusal — the codes Apple platforms give for the same refusals (A12).
    func refused(_ refusal: Refusal, library: String, detail: String) -> TransportFailure {
        let code: Int
        let what: String
        switch refusal {
        case .expired: (code, what) = (URLLoading.Code.serverCertificateHasBadDate, "has expired")
        case .notYetValid: (code, what) = (URLLoading.Code.serverCertificateNotYetValid, "is not valid yet")
        case .otherHost: (code, what) = (URLLoading.Code.serverCertificateUntrusted, "does not name \(self.host)")
        case .unknownAuthority:
            (code, what) = (
                URLLoading.Code.serverCertificateUntrusted, "is not issued by an authority in \(self.trustDescription)"
            )
        case .untrusted: (code, what) = (URLLoading.Code.serverCertificateUntrusted, "is not trusted")
        }
        return .tls(
            code: code,
            description: "The certificate of \(self.host) \(what) (\(library): \(detail))."
        )
    }

    // MARK: - Pins

    /// Whether the connection must pass the pin check after verification.
    var pins: Bool { !self.trust.pinnedKeyDigests.isEmpty }

    /// The pin check of a connection whose handshake (and, unless relaxed, verification) succeeded, given its chain
    /// as DER certificates, the server's own first: nil when no pins are set, when the server's certificate has a
    /// pinned key, or — `chainVerified` only — when another certificate of the chain has one (so pinning a CA's key
    /// works). An unverified chain may list any certificate, the pinned one too, so only the server's own counts
    /// then. Otherwise −1202, naming the server's own pin so a configuration can be checked against it.
    func pinFailure(chain: [[UInt8]], chainVerified: Bool) -> TransportFailure? {
        let pinned = self.trust.pinnedKeyDigests
        guard !pinned.isEmpty else { return nil }
        let leafDigest = chain.first.flatMap(Self.publicKeyDigest(ofCertificate:))
        if let leafDigest, pinned.contains(leafDigest) { return nil }
        if chainVerified {
            for certificate in chain.dropFirst() {
                if let digest = Self.publicKeyDigest(ofCertificate: certificate), pinned.contains(digest) { return nil }
            }
        }
        return .tls(
            code: URLLoading.Code.serverCertificateUntrusted,
            description: "The public key of \(self.host) matches none of the pinned keys"
                + (leafDigest.map { " (its SHA-256 is \(Base64.encode($0)))." } ?? ".")
        )
    }

    // MARK: - Anchors

    /// The anchor certificates of `anchorsFile` as DER (`anchorCertificates(inFile:read:)`); nil when the system's
    /// trust store applies.
    func anchorCertificates(
        read: (String) throws -> [UInt8] = TrustEvaluation.readFile
    )
        -> Result<[[UInt8]], TransportFailure>?
    {
        self.anchorsFile.map { Self.anchorCertificates(inFile: $0, read: read) }
    }

    /// The certificates of the PEM file `file` as DER, read through `read` (the file's bytes). A file that cannot be
    /// read, or that holds no certificate or a broken one, is a −1200 failure naming it: the connection fails rather
    /// than trusting something else.
    static func anchorCertificates(
        inFile file: String,
        read: (String) throws -> [UInt8] = TrustEvaluation.readFile
    ) -> Result<[[UInt8]], TransportFailure> {
        let bytes: [UInt8]
        do {
            bytes = try read(file)
        } catch {
            return .failure(
                Self.anchorsFailure(file: file, reason: "it cannot be read (\(error.localizedDescription))")
            )
        }
        return Self.certificates(fromPEM: bytes).mapError { Self.anchorsFailure(file: file, reason: $0.reason) }
    }

    /// The failure of an anchors file that cannot serve as a trust store, for `reason`.
    static func anchorsFailure(file: String, reason: String) -> TransportFailure {
        SocketFailure.tlsSetupFailed("the anchor certificates file \(file) cannot be loaded: \(reason)")
    }

    /// The bytes of the file at `path`.
    static func readFile(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

// MARK: - Security framework results

extension TrustEvaluation.Refusal {
    /// The refusal a Security framework trust evaluation reports with the `OSStatus` `status` (the code of the
    /// `CFError` that `SecTrustEvaluateWithError` fills; values from the SDK's `SecBase.h`).
    init(securityStatus status: Int) {
        switch status {
        case Self.certificateExpired: self = .expired
        case Self.certificateNotValidYet: self = .notYetValid
        case Self.hostNameMismatch: self = .otherHost
        case Self.notTrusted, Self.createChainFailed: self = .unknownAuthority
        default: self = .untrusted
        }
    }

    /// `errSecCertificateExpired`.
    static let certificateExpired = -67818
    /// `errSecCertificateNotValidYet`.
    static let certificateNotValidYet = -67819
    /// `errSecHostNameMismatch`.
    static let hostNameMismatch = -67602
    /// `errSecNotTrusted`: the chain does not end in a trusted anchor.
    static let notTrusted = -67843
    /// `errSecCreateChainFailed`: no chain could be built to an anchor.
    static let createChainFailed = -25318
}
