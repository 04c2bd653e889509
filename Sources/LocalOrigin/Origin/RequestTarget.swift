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
        // Every request of every client comes through here. An ASCII origin-form target — what clients send, with
        // everything else percent-escaped — is split as bytes (`ASCIITarget`), where `Character`s and Foundation's
        // `range(of:)` cost the origin three quarters of its work per publish; anything else the general way, and
        // RequestTargetTests check both ways agree.
        if let ascii = ASCIITarget(target) {
            self.init(target, ascii)
        } else {
            self.init(general: target)
        }
    }

    /// Whether `init(_:)` splits `target` as bytes (tests compare the two ways).
    static func isSplitAsBytes(_ target: String) -> Bool {
        ASCIITarget(target) != nil
    }

    /// `target` split the general way, by `Character`: absolute-form targets and raw non-ASCII text.
    init(general target: String) {
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

    /// `target` split at the byte offsets `ascii` found.
    private init(_ target: String, _ ascii: ASCIITarget) {
        let utf8 = target.utf8
        func slice(_ range: Range<Int>) -> Substring {
            target[
                utf8.index(
                    utf8.startIndex,
                    offsetBy: range.lowerBound
                )..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)
            ]
        }
        self.rawPath = slice(ascii.path)
        self.rawQuery = slice(ascii.query)
        self.segments = ascii.segments.map(slice)
        var valid = true
        self.parameters = ascii.pairs.map { pair in
            let name = ascii.bytes[pair.name]
            let value = ascii.bytes[pair.value]
            let decodedName = RequestTarget.strictlyDecoded(name, plusIsSpace: true)
            let decodedValue = RequestTarget.strictlyDecoded(value, plusIsSpace: true)
            if decodedName == nil || decodedValue == nil { valid = false }
            return (
                decodedName ?? String(decoding: RequestTarget.decodedBytes(name, plusIsSpace: true), as: UTF8.self),
                decodedValue ?? String(decoding: RequestTarget.decodedBytes(value, plusIsSpace: true), as: UTF8.self)
            )
        }
        self.isValidUTF8 =
            valid
            && ascii.segments.allSatisfy { RequestTarget.strictlyDecoded(ascii.bytes[$0], plusIsSpace: false) != nil }
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
        RequestTarget.decodedBytes(text.utf8, plusIsSpace: plusIsSpace)
    }

    /// `decodedBytes(_:plusIsSpace:)` of text given as its UTF-8 bytes.
    static func decodedBytes(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        // Read in place when the bytes are contiguous (a native string's, an array's): no copy before decoding.
        if let out = bytes.withContiguousStorageIfAvailable({ RequestTarget.decodedBytes($0, plusIsSpace: plusIsSpace) }
        ) {
            return out
        }
        return Array(bytes).withUnsafeBufferPointer { RequestTarget.decodedBytes($0, plusIsSpace: plusIsSpace) }
    }

    private static func decodedBytes(_ utf8: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> [UInt8] {
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
        // Nothing to decode (the common case: channel names, keys): the text as it is, without a byte copy.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        return String(decoding: RequestTarget.decodedBytes(text, plusIsSpace: plusIsSpace), as: UTF8.self)
    }

    /// Percent-decoded text, or nil when the decoded bytes are not UTF-8.
    static func strictlyDecoded(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        RequestTarget.strictlyDecoded(text.utf8, plusIsSpace: plusIsSpace)
    }

    /// `strictlyDecoded(_:plusIsSpace:)` of text given as its UTF-8 bytes.
    static func strictlyDecoded(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
        // ASCII without `%` (and without `+` where it means a space): decoding changes nothing (the common case,
        // checked without allocating).
        let plain = bytes.allSatisfy {
            $0 < 0x80 && $0 != UInt8(ascii: "%") && !(plusIsSpace && $0 == UInt8(ascii: "+"))
        }
        if plain { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: RequestTarget.decodedBytes(bytes, plusIsSpace: plusIsSpace), as: UTF8.self)
    }

    /// True when `text` percent-decodes to UTF-8.
    static func decodesToUTF8(_ text: Substring) -> Bool {
        RequestTarget.strictlyDecoded(text, plusIsSpace: false) != nil
    }
}

/// An ASCII origin-form target split as bytes: the offsets `RequestTarget` makes its parts of. Nil for anything else
/// (raw non-ASCII, or `scheme://` before the first `/` or `?`), which `RequestTarget.init(general:)` splits; both ways
/// give the same parts (RequestTargetTests).
private struct ASCIITarget {
    let bytes: [UInt8]
    /// Before the first `?`.
    let path: Range<Int>
    /// After the first `?`; empty when there is none.
    let query: Range<Int>
    /// The path split at `/`, empty segments kept, without a first empty one.
    let segments: [Range<Int>]
    /// The query's parameters (`RequestTarget.pairs(of:)`), each split at its first `=`.
    let pairs: [(name: Range<Int>, value: Range<Int>)]

    init?(_ target: String) {
        let bytes = Array(target.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let mark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        // The general way reduces `letters://…` (the letters may be none) to its path: left to it, as rare as it is.
        if ASCIITarget.schemeSeparator(in: bytes) != nil { return nil }
        self.bytes = bytes
        self.path = 0..<mark
        self.query = mark < bytes.count ? (mark + 1)..<bytes.count : bytes.count..<bytes.count
        var segments: [Range<Int>] = []
        var start = 0
        for index in 0..<mark where bytes[index] == UInt8(ascii: "/") {
            segments.append(start..<index)
            start = index + 1
        }
        segments.append(start..<mark)
        if segments.first?.isEmpty == true { segments.removeFirst() }
        self.segments = segments
        self.pairs = ASCIITarget.pairs(bytes, self.query).map { pair in
            guard let equals = bytes[pair].firstIndex(of: UInt8(ascii: "=")) else {
                return (pair, pair.upperBound..<pair.upperBound)
            }
            return (pair.lowerBound..<equals, (equals + 1)..<pair.upperBound)
        }
    }

    /// The offset of the first `://` when only ASCII letters (or nothing) come before it; nil otherwise. A `://`
    /// after anything else is no scheme separator, so the scan stops at the first byte that is not a letter.
    private static func schemeSeparator(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index] | 0x20) { index += 1 }
        guard bytes.count - index >= 3, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        return index
    }

    /// `RequestTarget.pairs(of:)` on the bytes of `query`: split at `&` (empty pieces dropped), and at a `?` followed
    /// by `name=`.
    private static func pairs(_ bytes: [UInt8], _ query: Range<Int>) -> [Range<Int>] {
        let question = UInt8(ascii: "?")
        var pairs: [Range<Int>] = []
        var pieceStart = query.lowerBound
        while pieceStart <= query.upperBound {
            let pieceEnd = bytes[pieceStart..<query.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? query.upperBound
            defer { pieceStart = pieceEnd + 1 }
            guard pieceStart < pieceEnd else { continue }
            var start = pieceStart
            var index = pieceStart
            while let mark = bytes[index..<pieceEnd].firstIndex(of: question) {
                let rest = (mark + 1)..<pieceEnd
                let next = bytes[rest].firstIndex(of: question) ?? pieceEnd
                if let equals = bytes[rest.lowerBound..<next].firstIndex(of: UInt8(ascii: "=")),
                    equals != rest.lowerBound
                {
                    if mark > start { pairs.append(start..<mark) }
                    start = rest.lowerBound
                }
                index = rest.lowerBound
            }
            if start < pieceEnd { pairs.append(start..<pieceEnd) }
        }
        return pairs
    }
}
