// Everywhere the Security framework is not (Linux): no URLSession route (`URLSessionTransport+NoSecurity.swift`), so
// nothing judges server trust through URLSession; the package's own TLS (OpenSSL, `TLSStream`) carries `https` and
// carries out `TrustEvaluation` itself. The counterpart of `TrustEvaluation+Security.swift`.

#if !canImport(Security)
/// The URLSession side of server trust, where there is none.
enum SessionTrust {
    /// Relaxed validation, own anchors and pins are not carried out through URLSession here.
    static let judgesServerTrust = false
}
#endif
