import Foundation

/// Where an `http://` or `https://` request goes and what its request line and `Host` header say, taken from the
/// URL's text so the percent-escapes the engine wrote reach the server byte for byte.
struct HTTPTarget: Sendable, Equatable {
    /// The host to resolve (and, with TLS, to verify), without IPv6 brackets.
    var host: String
    var port: UInt16
    /// `https`: the bytes go through TLS.
    var secure: Bool
    /// The `Host` header: the URL's host (bracketed for IPv6) with `:port` unless it is the scheme's default.
    var hostHeader: String
    /// The request-target: path and query, starting with `/`.
    var pathAndQuery: String

    /// The stand-in target of a request whose URL is not usable; it is never connected to.
    static let none = HTTPTarget(host: "", port: 80, secure: false, hostHeader: "", pathAndQuery: "/")

    private init(host: String, port: UInt16, secure: Bool, hostHeader: String, pathAndQuery: String) {
        self.host = host
        self.port = port
        self.secure = secure
        self.hostHeader = hostHeader
        self.pathAndQuery = pathAndQuery
    }

    /// Connections are pooled per scheme, host and port (`SocketTask.poolKey` adds the TLS settings).
    var poolKey: String { "\(self.secure ? "https" : "http")|\(self.host)|\(self.port)" }

    /// The target of `url`, or nil when it is not an `http://` or `https://` URL with a host (and a valid port).
    init?(url: URL) {
        // Scanned as UTF-8 bytes: counting or searching a long URL by Character costs more than sending it.
        let text = url.absoluteString
        let secure: Bool
        if Self.hasScheme(text, "http://") {
            secure = false
        } else if Self.hasScheme(text, "https://") {
            secure = true
        } else {
            return nil
        }
        var rest = text.utf8.dropFirst(secure ? 8 : 7)
        if let fragment = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<fragment] }
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        var authority = Substring(rest[..<authorityEnd])
        let path = Substring(rest[authorityEnd...])
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        let defaultPort: UInt16 = secure ? 443 : 80
        var port = defaultPort
        if let portText, !portText.isEmpty {
            guard let parsed = UInt16(portText), parsed > 0 else { return nil }
            port = parsed
        }
        self.host = String(host)
        self.port = port
        self.secure = secure
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : String(host)
        self.hostHeader = port == defaultPort ? bracketed : "\(bracketed):\(port)"
        self.pathAndQuery = path.utf8.first == UInt8(ascii: "/") ? String(path) : "/" + path
    }

    /// Whether `text` starts with `scheme` (lower-case ASCII, `://` included) in any case and has more after it.
    private static func hasScheme(_ text: String, _ scheme: StaticString) -> Bool {
        let bytes = text.utf8
        guard bytes.count > scheme.utf8CodeUnitCount else { return false }
        return scheme.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, wanted in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == wanted
            }
        }
    }
}
