/// Target `client-certificates`: what the TLS trust decision reads from users and servers (`TrustEvaluation`) — the
/// PEM text of an anchors file (`PNConfiguration.anchorCertificatesFile`) and the DER of a server's certificates,
/// whose SubjectPublicKeyInfo a pin names — on hostile bytes.
///
/// Input: control byte (bit 0: 0 PEM text, 1 DER certificate), then the bytes. Checks: a public key that is found
/// lies inside the certificate and is a DER SEQUENCE; the pin digest is the SHA-256 of exactly those bytes; a PEM
/// text that is accepted gives certificates with a public key, and those certificates written out again as PEM read
/// back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientCertificates(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let control = input.byte()
    let bytes = input.rest()
    if control & 1 == 1 {
        checkCertificate(bytes)
        return 0
    }
    guard let certificates = ClientEntryPoints.certificates(fromPEM: bytes) else { return 0 }
    fuzzInvariant(!certificates.isEmpty, "an accepted PEM text gave no certificate")
    for certificate in certificates {
        fuzzInvariant(
            ClientEntryPoints.publicKeyInfoRange(ofCertificate: certificate) != nil,
            "an accepted PEM certificate has no public key: \(certificate)"
        )
        checkCertificate(certificate)
    }
    let written = certificates.map { certificate in
        "-----BEGIN CERTIFICATE-----\n" + lines(ClientEntryPoints.base64(certificate)) + "-----END CERTIFICATE-----\n"
    }
    fuzzInvariant(
        ClientEntryPoints.certificates(fromPEM: Array(written.joined().utf8)) == certificates,
        "certificates written out as PEM read back differently"
    )
    return 0
}

/// The public key of `certificate`, if found, is a SEQUENCE inside it whose digest is the pin digest.
private func checkCertificate(_ certificate: [UInt8]) {
    guard let range = ClientEntryPoints.publicKeyInfoRange(ofCertificate: certificate) else {
        fuzzInvariant(ClientEntryPoints.publicKeyDigest(ofCertificate: certificate) == nil, "a digest without a key")
        return
    }
    fuzzInvariant(range.lowerBound >= 0 && range.upperBound <= certificate.count, "key outside the certificate")
    fuzzInvariant(range.count >= 2 && certificate[range.lowerBound] == 0x30, "the key is not a DER SEQUENCE")
    fuzzInvariant(
        ClientEntryPoints.publicKeyDigest(ofCertificate: certificate)
            == ClientEntryPoints.sha256(certificate[range]),
        "the pin digest is not the SHA-256 of the key's bytes"
    )
}

/// Base64 text in lines of 64 characters, as PEM writers lay it out.
private func lines(_ text: String) -> String {
    var out = ""
    var line = ""
    for character in text {
        line.append(character)
        if line.count == 64 {
            out += line + "\n"
            line = ""
        }
    }
    return line.isEmpty ? out : out + line + "\n"
}
