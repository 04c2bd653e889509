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
    var poolKey: PoolKey { PoolKey(secure: self.secure, host: self.host, port: self.port) }

    /// The target of `url`, or nil when it is not an `http://` or `https://` URL with a host (and a valid port).
    init?(url: URL) {
        self.init(urlText: url.absoluteString)
    }

    /// The target of the URL text `urlText` (`TransportRequest.urlText`), or nil as `init(url:)`.
    init?(urlText: String) {
        // Scanned as UTF-8 bytes in place (every request goes through here): counting or searching a long URL by
        // Character, or through `Substring`s, costs more than sending it.
        var text = urlText
        guard let target = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = target
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPTarget? {
        let secure: Bool
        if Self.hasScheme(bytes, "http://") {
            secure = false
        } else if Self.hasScheme(bytes, "https://") {
            secure = true
        } else {
            return nil
        }
        let slash = UInt8(ascii: "/")
        let question = UInt8(ascii: "?")
        let colon = UInt8(ascii: ":")
        var end = bytes.count
        let start = secure ? 8 : 7
        // The whole URL is searched for a fragment: `memchr`, not a loop over the bytes.
        if let base = bytes.baseAddress, let found = memchr(base + start, Int32(UInt8(ascii: "#")), end - start) {
            end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        let authorityEnd = bytes[start..<end].firstIndex { $0 == slash || $0 == question } ?? end
        var authorityStart = start
        if let at = bytes[start..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { authorityStart = at + 1 }
        var host = authorityStart..<authorityEnd
        var port: Range<Int>?
        if authorityStart < authorityEnd, bytes[authorityStart] == UInt8(ascii: "[") {
            guard let close = bytes[authorityStart..<authorityEnd].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = (authorityStart + 1)..<close
            if close + 1 < authorityEnd {
                guard bytes[close + 1] == colon else { return nil }
                port = (close + 2)..<authorityEnd
            }
        } else if let separator = bytes[authorityStart..<authorityEnd].lastIndex(of: colon) {
            host = authorityStart..<separator
            port = (separator + 1)..<authorityEnd
        }
        guard !host.isEmpty else { return nil }
        let defaultPort: UInt16 = secure ? 443 : 80
        var number = defaultPort
        if let port, !port.isEmpty {
            guard let parsed = Self.portNumber(bytes[port]), parsed > 0 else { return nil }
            number = parsed
        }
        let hostText = Self.text(bytes, host)
        let bracketedInURL = bytes[authorityStart] == UInt8(ascii: "[")
        let isIPv6 = bytes[host].contains(colon)
        let bracketed = isIPv6 ? "[\(hostText)]" : hostText
        let hostHeader: String
        if number == defaultPort {
            hostHeader = bracketed
        } else if let port, bytes[port.lowerBound] != UInt8(ascii: "0"), bracketedInURL || !isIPv6 {
            // The URL's own `host:port` is the header (one string made, no number formatted) when it spells the same:
            // the port without a leading zero, an IPv6 host bracketed there.
            hostHeader = Self.text(bytes, authorityStart..<port.upperBound)
        } else {
            hostHeader = "\(bracketed):\(number)"
        }
        let path = Self.text(bytes, authorityEnd..<end)
        return HTTPTarget(
            host: hostText,
            port: number,
            secure: secure,
            hostHeader: hostHeader,
            pathAndQuery: authorityEnd < end && bytes[authorityEnd] == slash ? path : "/" + path
        )
    }

    /// The decimal number `digits` spell (ASCII digits alone, at least one), nil when they spell none or more than
    /// a `UInt16` holds.
    private static func portNumber(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt16? {
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
            guard value <= UInt32(UInt16.max) else { return nil }
        }
        return UInt16(value)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether `bytes` start with `scheme` (lower-case ASCII, `://` included) in any case and has more after it.
    private static func hasScheme(_ bytes: UnsafeBufferPointer<UInt8>, _ scheme: StaticString) -> Bool {
        guard bytes.count > scheme.utf8CodeUnitCount else { return false }
        return scheme.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, wanted in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == wanted
            }
        }
    }
}

/// Which pooled connections may carry a request: same scheme, host and port and, with TLS, the same rung of the ladder
/// and the same trust settings (`SocketTask.poolKey`). A value compared field by field: every request asks for one,
/// and building it as text cost more than comparing it.
struct PoolKey: Hashable, Sendable {
    var secure: Bool
    var host: String
    var port: UInt16
    /// With TLS: whether the connection was made for the relaxed rung (any certificate accepted). False over plain
    /// HTTP.
    var relaxed = false
    /// With TLS: the trust anchors and pins the connection was verified against. The default over plain HTTP.
    var trust = TLSTrust()
}
