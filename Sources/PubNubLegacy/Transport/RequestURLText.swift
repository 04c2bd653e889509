import Foundation
import PlatformSupport

// The text of a request's URL, checked the way `URL(string:)` would check it without parsing the whole text for
// every request. `Endpoint.request` escapes every value it puts in a path or query (`PercentEncoding`), so what is
// left to check is the origin — the same for every request of a client, so its verdict is remembered — and that the
// path and query hold nothing but what RFC 3986 allows there. Text that is not plainly so (a hand-made path, say) is
// parsed whole, as before: the verdict is always `URL(string:)`'s.

/// Makes the URL text of a request (`TransportRequest.urlText`).
enum RequestURLText {
    /// The text of `URL(string:)` made of `scheme://origin` followed by `pathAndQuery` (its `absoluteString`), or nil
    /// when `URL(string:)` refuses that text (or the origin is empty). Callable from any thread.
    static func make(secure: Bool, origin: String, pathAndQuery: String) -> String? {
        guard !origin.isEmpty else { return nil }
        let prefix = (secure ? "https://" : "http://") + origin
        let text = prefix + pathAndQuery
        // `URL(string:)` takes an origin `parsePlainOrigin` reads as it is (`RequestURLTextTests`): a client on such
        // an origin never loads `URL`'s parser (BENCHMARKS.md, idle client).
        if Self.isPlainPathAndQuery(pathAndQuery), Self.takesAsItIs(origin: origin, prefix: prefix) {
            return text
        }
        return URL(string: text)?.absoluteString
    }

    /// Whether `URL(string:)` takes `prefix` (`scheme://origin`) followed by any path and query `isPlainPathAndQuery`
    /// accepts as it is: an origin `PNConfiguration.parsePlainOrigin` reads, or one `acceptsOrigin`.
    static func takesAsItIs(origin: String, prefix: String) -> Bool {
        PNConfiguration.parsePlainOrigin(origin) != nil || Self.acceptsOrigin(prefix)
    }

    /// Whether `URL(string:)` takes `prefix` (`scheme://origin`) followed by a path as it is (accepted, and its
    /// `absoluteString` unchanged: a Foundation that percent-encodes what it finds invalid changes the text):
    /// remembered for the last few origins, as a client sends all its requests to one.
    static func acceptsOrigin(_ prefix: String) -> Bool {
        if let known = Self.origins.withLock({ $0[prefix] }) { return known }
        let accepted = URL(string: prefix + "/")?.absoluteString == prefix + "/"
        Self.origins.withLock { origins in
            if origins.count >= Self.rememberedOrigins { origins.removeAll() }
            origins[prefix] = accepted
        }
        return accepted
    }

    /// Whether `text` is a path (starting with `/`) and optional query made only of what RFC 3986 allows unescaped
    /// in both (`pchar`, `/` and `?`), with every `%` followed by two hex digits: such text after an accepted origin
    /// leaves `URL(string:)` nothing to refuse.
    static func isPlainPathAndQuery(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, PercentEncoding.hexValue(bytes[index + 1]) != nil,
                        PercentEncoding.hexValue(bytes[index + 2]) != nil
                    else { return false }
                    index += 3
                    continue
                }
                guard Self.isAllowed(byte) else { return false }
                index += 1
            }
            return true
        }
    }

    /// Distinct origins remembered before the memory is cleared (tests and fuzzers make many; apps use one or two).
    private static let rememberedOrigins = 16
    private static let origins = Locked<[String: Bool]>([:])

    /// Unreserved characters, sub-delimiters, `:`, `@`, `/` and `?` (RFC 3986 §3.3, §3.4).
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
