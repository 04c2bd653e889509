// The certificate formats the trust decision reads, parsed here once for every TLS library: PEM files of anchor
// certificates (`PNConfiguration.anchorCertificatesFile`) and the DER of an X.509 certificate, of which only the
// SubjectPublicKeyInfo matters (its SHA-256 is what `pinnedPublicKeyHashes` name). Pure: bytes in, bytes out.

extension TrustEvaluation {
    /// Why a PEM text gave no anchor certificates.
    enum PEMProblem: Error, Equatable, Sendable {
        /// No `CERTIFICATE` block at all.
        case noCertificate
        /// A `BEGIN` line without its `END` line (or with another label's).
        case unterminated(label: String)
        /// The base64 of the `index`th certificate block (1-based) does not decode.
        case notBase64(index: Int)
        /// The `index`th certificate block (1-based) is not the DER of an X.509 certificate.
        case notACertificate(index: Int)

        /// The text failures say after "the anchor certificates file … cannot be loaded".
        var reason: String {
            switch self {
            case .noCertificate: return "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
            case .unterminated(let label): return "its \(label) block has no matching END line"
            case .notBase64(let index): return "its certificate \(index) is not valid base64"
            case .notACertificate(let index): return "its certificate \(index) is not an X.509 certificate"
            }
        }
    }

    /// The DER certificates of the `CERTIFICATE` blocks of a PEM text (RFC 7468), in file order. Text outside the
    /// blocks and blocks of other kinds (keys, CRLs) are skipped, as OpenSSL's loader skips them; every certificate
    /// block must hold a certificate whose public key can be read, or the whole file is refused (a trust store that
    /// silently lost a CA would fail later, further from its cause).
    static func certificates(fromPEM text: [UInt8]) -> Result<[[UInt8]], PEMProblem> {
        let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]
        var certificates: [[UInt8]] = []
        var open: (label: String, body: [UInt8])?
        for rawLine in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = String(decoding: rawLine, as: UTF8.self).trimmingWhitespace()
            if let label = Self.boundary(line, "BEGIN") {
                if let open { return .failure(.unterminated(label: open.label)) }
                open = (label, [])
            } else if let label = Self.boundary(line, "END") {
                guard let block = open, block.label == label else {
                    return .failure(.unterminated(label: open?.label ?? label))
                }
                open = nil
                guard certificateLabels.contains(label) else { continue }
                let index = certificates.count + 1
                guard let der = try? Base64.decode(String(decoding: block.body, as: UTF8.self)) else {
                    return .failure(.notBase64(index: index))
                }
                guard Self.subjectPublicKeyInfo(ofCertificate: der) != nil else {
                    return .failure(.notACertificate(index: index))
                }
                certificates.append(der)
            } else if open != nil {
                open?.body.append(contentsOf: line.utf8)
            }
        }
        if let open { return .failure(.unterminated(label: open.label)) }
        return certificates.isEmpty ? .failure(.noCertificate) : .success(certificates)
    }

    /// The label of a `-----BEGIN label-----` (or END) line, nil for any other line.
    private static func boundary(_ line: String, _ kind: String) -> String? {
        let prefix = "-----\(kind) "
        let suffix = "-----"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix), line.count >= prefix.count + suffix.count else {
            return nil
        }
        return String(line.dropFirst(prefix.count).dropLast(suffix.count))
    }

    // MARK: - DER

    /// The DER SubjectPublicKeyInfo of an X.509 certificate (RFC 5280 §4.1): the bytes HPKP's `pin-sha256` and
    /// `openssl pkey -pubin -outform der` hash. Nil when `certificate` is not a DER `Certificate` whose
    /// `tbsCertificate` has the fields in RFC 5280's order up to a well-formed `subjectPublicKeyInfo`.
    static func subjectPublicKeyInfo(ofCertificate certificate: [UInt8]) -> ArraySlice<UInt8>? {
        // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }, and nothing after it.
        guard let outer = DERElement(in: certificate, at: 0, limit: certificate.count),
            outer.tag == DERElement.sequence,
            outer.end == certificate.count,
            let tbs = DERElement(in: certificate, at: outer.contentStart, limit: outer.end),
            tbs.tag == DERElement.sequence
        else { return nil }
        var cursor = tbs.contentStart
        // version [0] EXPLICIT is absent in v1 certificates.
        if let version = DERElement(in: certificate, at: cursor, limit: tbs.end), version.tag == 0xa0 {
            cursor = version.end
        }
        // serialNumber INTEGER, signature AlgorithmIdentifier, issuer Name, validity, subject Name.
        for tag in [
            DERElement.integer, DERElement.sequence, DERElement.sequence, DERElement.sequence, DERElement.sequence,
        ] {
            guard let field = DERElement(in: certificate, at: cursor, limit: tbs.end), field.tag == tag else {
                return nil
            }
            cursor = field.end
        }
        // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }.
        guard let info = DERElement(in: certificate, at: cursor, limit: tbs.end), info.tag == DERElement.sequence,
            let algorithm = DERElement(in: certificate, at: info.contentStart, limit: info.end),
            algorithm.tag == DERElement.sequence,
            let key = DERElement(in: certificate, at: algorithm.end, limit: info.end), key.tag == DERElement.bitString,
            key.end == info.end
        else { return nil }
        return certificate[info.start..<info.end]
    }

    /// SHA-256 of the certificate's SubjectPublicKeyInfo: the digest a pin names. Nil when it cannot be read.
    static func publicKeyDigest(ofCertificate certificate: [UInt8]) -> [UInt8]? {
        Self.subjectPublicKeyInfo(ofCertificate: certificate).map { SHA256.hash($0) }
    }
}

/// One DER element (ITU-T X.690): its tag and the bounds of the element and of its content within the buffer it
/// was read from. Only what certificates use: one-byte tags, definite lengths of up to four bytes.
private struct DERElement {
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let sequence: UInt8 = 0x30

    let tag: UInt8
    let start: Int
    let contentStart: Int
    let end: Int

    /// The element that starts at `offset` and ends at or before `limit`; nil when the bytes there are not one.
    init?(in bytes: [UInt8], at offset: Int, limit: Int) {
        guard offset >= 0, offset < limit, limit <= bytes.count, limit - offset >= 2 else { return nil }
        let tag = bytes[offset]
        guard tag & 0x1f != 0x1f else { return nil }  // multi-byte tags: none in the fields read here
        var cursor = offset + 1
        let first = bytes[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            // 0x80 is BER's indefinite length, never DER; more than four length bytes is no certificate.
            let count = Int(first & 0x7f)
            guard (1...4).contains(count), limit - cursor >= count else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard length <= limit - cursor else { return nil }
        self.tag = tag
        self.start = offset
        self.contentStart = cursor
        self.end = cursor + length
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and carriage returns (PEM lines may end in CRLF).
    fileprivate func trimmingWhitespace() -> String {
        let blank: Set<Character> = [" ", "\t", "\r"]
        guard let first = self.firstIndex(where: { !blank.contains($0) }),
            let last = self.lastIndex(where: { !blank.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
