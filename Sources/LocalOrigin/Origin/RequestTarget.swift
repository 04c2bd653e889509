// docs/PROTOCOL.md §1.5 "Server decoding rules": split the raw target first, decode each element afterwards, because
// channel names and messages may contain `%2F` and `%2C`; in the query `+` is a space, as in an HTML form and as the
// service reads it (the requests-based Python SDKs sent JSON `state=`/`meta=` values with `+` for spaces and the
// service answered with the JSON they meant), while in the path it stays a plus; a second `?` separates parameters
// too when a `name=` follows it (3.4.2's push requests append `?auth=` after `&uuid=`).
// Text must be UTF-8 once decoded: `isValidUTF8` says whether every element is, so the origin refuses the request
// before any element is read lossily (two different invalid byte sequences would otherwise both become U+FFFD and
// name the same channel).

/// A request-target split into raw path segments and decoded query parameters.
struct RequestTarget: Sendable {
    /// The path before `?`, still percent-encoded.
    let rawPath: Substring
    /// The query after the first `?`, still percent-encoded (empty when there is none).
    let rawQuery: Substring
    /// The path split at `/`, without the leading empty segment; each still percent-encoded.
    let segments: [Substring]
    /// Query parameters in order, names and values percent-decoded, `+` read as a space.
    let parameters: [(name: String, value: String)]
    /// False when a path segment, a parameter name or a parameter value percent-decodes to bytes that are not
    /// UTF-8 (whether they came escaped as `%FF` or raw; the HTTP layer hands raw invalid bytes over as `%XX`).
    /// Decoded text is lossy then, and must not be used.
    let isValidUTF8: Bool

    /// Splits `target`. An absolute-form target (`http://host/path`) is reduced to its path.
    init(_ target: String) {
        var text = Substring(target)
        if let schemeEnd = text.range(of: "://"), text[..<schemeEnd.lowerBound].allSatisfy({ $0.isLetter }) {
            let afterScheme = text[schemeEnd.upperBound...]
            text = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
        }
        if let mark = text.firstIndex(of: "?") {
            self.rawPath = text[..<mark]
            self.rawQuery = text[text.index(after: mark)...]
        } else {
            self.rawPath = text
            self.rawQuery = ""
        }
        var segments = self.rawPath.split(separator: "/", omittingEmptySubsequences: false)
        if segments.first?.isEmpty == true { segments.removeFirst() }
        self.segments = segments
        let (parameters, valid) = RequestTarget.parameters(of: self.rawQuery, plusIsSpace: true)
        self.parameters = parameters
        self.isValidUTF8 = valid && segments.allSatisfy(RequestTarget.decodesToUTF8)
    }

    /// `query` split at `&`, and at a `?` followed by `name=` (3.4.2's push requests append `?auth=K`); any other `?`
    /// is part of a value, as the service reads it (pubnub/ruby `fixtures/vcr_cassettes/lib/signatures/state.yml`
    /// sends `??` inside a JSON `state=`).
    static func pairs(of query: Substring) -> [Substring] {
        var pairs: [Substring] = []
        for piece in query.split(separator: "&") {
            var start = piece.startIndex
            var index = piece.startIndex
            while let mark = piece[index...].firstIndex(of: "?") {
                let rest = piece[piece.index(after: mark)...]
                let next = rest.firstIndex(of: "?") ?? rest.endIndex
                if let equals = rest[..<next].firstIndex(of: "="), equals != rest.startIndex {
                    if mark > start { pairs.append(piece[start..<mark]) }
                    start = rest.startIndex
                }
                index = rest.startIndex
            }
            if start < piece.endIndex { pairs.append(piece[start...]) }
        }
        return pairs
    }

    /// The pairs of `query` (`pairs(of:)`, then split at the first `=`), decoded; and whether every name and value
    /// decoded to UTF-8.
    static func parameters(
        of query: Substring,
        plusIsSpace: Bool
    ) -> (pairs: [(name: String, value: String)], isValidUTF8: Bool) {
        var valid = true
        let pairs = RequestTarget.pairs(of: query).map { pair in
            let name = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
            let value = pair.firstIndex(of: "=").map { pair[pair.index(after: $0)...] } ?? ""
            let decodedName = RequestTarget.strictlyDecoded(name, plusIsSpace: plusIsSpace)
            let decodedValue = RequestTarget.strictlyDecoded(value, plusIsSpace: plusIsSpace)
            if decodedName == nil || decodedValue == nil { valid = false }
            return (
                decodedName ?? RequestTarget.decode(name, plusIsSpace: plusIsSpace),
                decodedValue ?? RequestTarget.decode(value, plusIsSpace: plusIsSpace)
            )
        }
        return (pairs, valid)
    }

    /// The decoded value of the first parameter called `name`, or `nil` when absent.
    func parameter(_ name: String) -> String? {
        self.parameters.first { $0.name == name }?.value
    }

    /// The decoded path segment at `index`, or `nil` past the end.
    func segment(_ index: Int) -> String? {
        index < self.segments.count ? RequestTarget.decode(self.segments[index]) : nil
    }

    /// The comma list in the value of parameter `name`, split after decoding; empty elements dropped.
    func listParameter(_ name: String) -> [String] {
        guard let value = self.parameter(name) else { return [] }
        return value.split(separator: ",").map(String.init)
    }

    /// A path segment holding a comma list (`{chs}`): split at raw `,`, then each element decoded, empty ones dropped.
    static func list(_ segment: Substring) -> [String] {
        segment.split(separator: ",").map { RequestTarget.decode($0) }
    }

    // MARK: - Percent-decoding

    /// `%XX` sequences turned into bytes; malformed sequences are kept literally; `+` is a space only when
    /// `plusIsSpace` (query names and values), a plus otherwise (path segments).
    static func decodedBytes(_ text: Substring, plusIsSpace: Bool = false) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = JSONParser.hexValue(utf8[index + 1]), let low = JSONParser.hexValue(utf8[index + 2])
            {
                out.append(UInt8(high << 4 | low))
                index += 3
            } else if byte == UInt8(ascii: "+"), plusIsSpace {
                out.append(UInt8(ascii: " "))
                index += 1
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// Percent-decoded text; bytes that are not UTF-8 become U+FFFD (callers check `isValidUTF8` first).
    static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String {
        String(decoding: RequestTarget.decodedBytes(text, plusIsSpace: plusIsSpace), as: UTF8.self)
    }

    /// Percent-decoded text, or nil when the decoded bytes are not UTF-8.
    static func strictlyDecoded(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        if RequestTarget.isPlainASCII(text), !(plusIsSpace && text.contains("+")) { return String(text) }
        return String(validating: RequestTarget.decodedBytes(text, plusIsSpace: plusIsSpace), as: UTF8.self)
    }

    /// True when `text` percent-decodes to UTF-8.
    static func decodesToUTF8(_ text: Substring) -> Bool {
        RequestTarget.isPlainASCII(text) || String(validating: RequestTarget.decodedBytes(text), as: UTF8.self) != nil
    }

    /// ASCII without `%`: decoding changes nothing (the common case, checked without allocating).
    private static func isPlainASCII(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") }
    }
}
