// docs/PROTOCOL.md §1.5 "Server decoding rules": split the raw target first, decode each element afterwards, because
// channel names and messages may contain `%2F` and `%2C`; in the query `+` is a space, as in an HTML form and as the
// service reads it (the requests-based Python SDKs sent JSON `state=`/`meta=` values with `+` for spaces and the
// service answered with the JSON they meant), while in the path it stays a plus; a second `?` separates parameters
// too when a `name=` follows it (3.4.2's push requests append `?auth=` after `&uuid=`).
// Text must be UTF-8 once decoded: `isValidUTF8` says whether every element is, so the origin refuses the request
// before any element is read lossily (two different invalid byte sequences would otherwise both become U+FFFD and
// name the same channel).

/// A request-target split into raw path segments and raw query parameters; names and values are percent-decoded
/// only when asked for (a route reads a few of the parameters a client sends, and every request comes through here).
struct RequestTarget: Sendable {
    /// The target as received (reduced to its path when it came in absolute form); every range below counts UTF-8
    /// bytes in it.
    private let text: String
    private let pathRange: Range<Int>
    private let queryRange: Range<Int>
    /// The query's parameters in order (`pairs(of:)`, each split at its first `=`), still percent-encoded.
    private let pairs: [RawParameter]
    /// The path split at `/`, without the leading empty segment; each still percent-encoded.
    let segments: [Substring]
    /// False when a path segment, a parameter name or a parameter value percent-decodes to bytes that are not
    /// UTF-8 (whether they came escaped as `%FF` or raw; the HTTP layer hands raw invalid bytes over as `%XX`).
    /// Decoded text is lossy then, and must not be used.
    let isValidUTF8: Bool

    /// The path before `?`, still percent-encoded.
    var rawPath: Substring { self.slice(self.pathRange) }
    /// The query after the first `?`, still percent-encoded (empty when there is none).
    var rawQuery: Substring { self.slice(self.queryRange) }

    /// Query parameters in order, names and values percent-decoded, `+` read as a space (lossily where
    /// `isValidUTF8` is false).
    var parameters: [(name: String, value: String)] {
        self.pairs.map { pair in
            (
                RequestTarget.decode(self.slice(pair.name), plusIsSpace: true),
                RequestTarget.decode(self.slice(pair.value), plusIsSpace: true)
            )
        }
    }

    /// Splits `target`. An absolute-form target (`http://host/path`) is reduced to its path.
    init(_ target: String) {
        // Every request of every client comes through here. An ASCII origin-form target — what clients send, with
        // everything else percent-escaped — is split as bytes (`ASCIITarget`), where `Character`s and Foundation's
        // `range(of:)` cost the origin three quarters of its work per publish; anything else the general way, and
        // RequestTargetTests check both ways agree.
        let ascii =
            target.utf8.withContiguousStorageIfAvailable(ASCIITarget.init)
            ?? Array(target.utf8).withUnsafeBufferPointer(ASCIITarget.init)
        if let ascii {
            self.init(target, ascii)
        } else {
            self.init(general: target)
        }
    }

    /// Whether `init(_:)` splits `target` as bytes (tests compare the two ways).
    static func isSplitAsBytes(_ target: String) -> Bool {
        Array(target.utf8).withUnsafeBufferPointer(ASCIITarget.init) != nil
    }

    /// `target` split the general way, by `Character`: absolute-form targets and raw non-ASCII text. Checks every
    /// element's decoded bytes for UTF-8 one by one.
    init(general target: String) {
        var text = Substring(target)
        if let schemeEnd = text.range(of: "://"), text[..<schemeEnd.lowerBound].allSatisfy({ $0.isLetter }) {
            let afterScheme = text[schemeEnd.upperBound...]
            text = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
        }
        let rawPath: Substring
        let rawQuery: Substring
        if let mark = text.firstIndex(of: "?") {
            rawPath = text[..<mark]
            rawQuery = text[text.index(after: mark)...]
        } else {
            rawPath = text
            rawQuery = text[text.endIndex...]
        }
        var segments = rawPath.split(separator: "/", omittingEmptySubsequences: false)
        if segments.first?.isEmpty == true { segments.removeFirst() }
        let pairs = RequestTarget.pairs(of: rawQuery).map { pair in
            let equals = pair.firstIndex(of: "=")
            return (
                name: equals.map { pair[..<$0] } ?? pair,
                value: pair[(equals.map(pair.index(after:)) ?? pair.endIndex)...]
            )
        }
        // Every part is a slice of `text` (which may be a literal `/`): the offsets count from its start.
        func offsets(_ part: Substring) -> Range<Int> {
            let start = text.utf8.distance(from: text.startIndex, to: part.startIndex)
            return start..<(start + part.utf8.count)
        }
        self.text = String(text)
        self.pathRange = offsets(rawPath)
        self.queryRange = offsets(rawQuery)
        self.segments = segments
        self.pairs = pairs.map { RawParameter(name: offsets($0.name), value: offsets($0.value), nameIsPlain: false) }
        self.isValidUTF8 =
            pairs.allSatisfy {
                RequestTarget.strictlyDecoded($0.name, plusIsSpace: true) != nil
                    && RequestTarget.strictlyDecoded($0.value, plusIsSpace: true) != nil
            } && segments.allSatisfy(RequestTarget.decodesToUTF8)
    }

    /// `target` split at the byte offsets `ascii` found.
    private init(_ target: String, _ ascii: ASCIITarget) {
        self.text = target
        self.pathRange = ascii.path
        self.queryRange = ascii.query
        self.pairs = ascii.pairs
        self.isValidUTF8 = ascii.isValidUTF8
        var segments: [Substring] = []
        segments.reserveCapacity(ascii.segments.count)
        for range in ascii.segments { segments.append(RequestTarget.slice(target, range)) }
        self.segments = segments
    }

    private func slice(_ range: Range<Int>) -> Substring {
        RequestTarget.slice(self.text, range)
    }

    /// The part of `text` at UTF-8 offsets `range` (which fall on character boundaries where the text is not ASCII:
    /// the general way's offsets come from its `Substring`s).
    private static func slice(_ text: String, _ range: Range<Int>) -> Substring {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return text[start..<utf8.index(start, offsetBy: range.count)]
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

    /// The decoded value of the first parameter whose decoded name is `name`, or `nil` when absent. Only that
    /// value is decoded; plain names (`RawParameter.nameIsPlain`) are compared as bytes.
    func parameter(_ name: String) -> String? {
        let found: String?? = self.text.utf8.withContiguousStorageIfAvailable { bytes in
            var wanted = name
            return wanted.withUTF8 { wanted -> String? in
                // An ASCII name equals a plain raw name only byte for byte (`==` on `String`s is Unicode canonical
                // equivalence, under which U+212A KELVIN SIGN equals `K`: a name that is not plain is decoded first).
                let isASCII = wanted.allSatisfy { $0 < 0x80 }
                for pair in self.pairs {
                    let matches =
                        isASCII && pair.nameIsPlain
                        ? pair.name.count == wanted.count
                            && UnsafeBufferPointer(rebasing: bytes[pair.name]).elementsEqual(wanted)
                        : RequestTarget.decode(self.slice(pair.name), plusIsSpace: true) == name
                    if matches {
                        return RequestTarget.decodedText(UnsafeBufferPointer(rebasing: bytes[pair.value]))
                    }
                }
                return nil
            }
        }
        if let found { return found }
        let pair = self.pairs.first { RequestTarget.decode(self.slice($0.name), plusIsSpace: true) == name }
        return pair.map { RequestTarget.decode(self.slice($0.value), plusIsSpace: true) }
    }

    /// `decode(_:plusIsSpace: true)` of the text whose UTF-8 is `bytes`.
    private static func decodedText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if RequestTarget.isPlain(bytes, plusIsSpace: true) { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: RequestTarget.decodedBytes(bytes, plusIsSpace: true), as: UTF8.self)
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
        if RequestTarget.isPlain(bytes, plusIsSpace: plusIsSpace) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: RequestTarget.decodedBytes(bytes, plusIsSpace: plusIsSpace), as: UTF8.self)
    }

    /// True when `bytes` are ASCII without `%` (and without `+` where it means a space): decoding changes nothing.
    static func isPlain(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> Bool {
        bytes.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") && !(plusIsSpace && $0 == UInt8(ascii: "+")) }
    }

    /// True when `text` percent-decodes to UTF-8.
    static func decodesToUTF8(_ text: Substring) -> Bool {
        RequestTarget.strictlyDecoded(text, plusIsSpace: false) != nil
    }
}
