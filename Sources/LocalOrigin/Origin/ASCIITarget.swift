// The common request-target, split as bytes: ASCII in origin form, as every client sends it (anything else
// percent-escaped). `RequestTarget` keeps the offsets found here and decodes an element only when a route asks for it.

/// An ASCII origin-form target split as bytes: the offsets `RequestTarget` makes its parts of, and whether every part
/// percent-decodes to UTF-8. Nil for anything else (raw non-ASCII, or `scheme://` before the first `/` or `?`), which
/// `RequestTarget.init(general:)` splits; both ways give the same parts (RequestTargetTests).
struct ASCIITarget {
    /// Before the first `?`.
    let path: Range<Int>
    /// After the first `?`; empty when there is none.
    let query: Range<Int>
    /// The path split at `/`, empty segments kept, without a first empty one.
    let segments: [Range<Int>]
    /// The query's parameters (`RequestTarget.pairs(of:)`), each split at its first `=`.
    let pairs: [RawParameter]
    /// Whether every segment, parameter name and parameter value percent-decodes to UTF-8.
    let isValidUTF8: Bool

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        // One pass: ASCII only, where the `?` is, and whether some `%XX` decodes to a byte above 0x7F (the only way
        // an ASCII target's parts can decode to bytes that are not UTF-8).
        var mark = bytes.count
        var slashes = 0
        var highEscape = false
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x80 else { return nil }
            if byte == UInt8(ascii: "/") {
                if mark == bytes.count { slashes += 1 }
            } else if byte == UInt8(ascii: "?") {
                if mark == bytes.count { mark = index }
            } else if byte == UInt8(ascii: "%"), !highEscape, index + 2 < bytes.count,
                let high = JSONParser.hexValue(bytes[index + 1]), high >= 8,
                JSONParser.hexValue(bytes[index + 2]) != nil
            {
                highEscape = true
            }
        }
        // The general way reduces `letters://…` (the letters may be none) to its path: left to it, as rare as it is.
        if ASCIITarget.hasScheme(bytes) { return nil }
        self.path = 0..<mark
        self.query = mark < bytes.count ? (mark + 1)..<bytes.count : bytes.count..<bytes.count
        var segments: [Range<Int>] = []
        segments.reserveCapacity(slashes + 1)
        var start = 0
        for index in 0..<mark where bytes[index] == UInt8(ascii: "/") {
            if index > 0 { segments.append(start..<index) }  // a first segment is dropped when empty
            start = index + 1
        }
        if slashes > 0 || mark > 0 { segments.append(start..<mark) }
        self.segments = segments
        self.pairs = ASCIITarget.pairs(bytes, self.query)
        self.isValidUTF8 =
            !highEscape
            || (self.segments.allSatisfy { ASCIITarget.decodesToUTF8(bytes, $0, plusIsSpace: false) }
                && self.pairs.allSatisfy {
                    ASCIITarget.decodesToUTF8(bytes, $0.name, plusIsSpace: true)
                        && ASCIITarget.decodesToUTF8(bytes, $0.value, plusIsSpace: true)
                })
    }

    private static func decodesToUTF8(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        plusIsSpace: Bool
    )
        -> Bool
    {
        RequestTarget.strictlyDecoded(UnsafeBufferPointer(rebasing: bytes[range]), plusIsSpace: plusIsSpace) != nil
    }

    /// Whether `bytes` start with `://` after only ASCII letters (or nothing). A `://` after anything else is no
    /// scheme separator, so the scan stops at the first byte that is not a letter.
    private static func hasScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index] | 0x20) { index += 1 }
        return bytes.count - index >= 3 && bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
            && bytes[index + 2] == UInt8(ascii: "/")
    }

    /// `RequestTarget.pairs(of:)` on the bytes of `query`: split at `&` (empty pieces dropped), and at a `?` followed
    /// by `name=`; then each split at its first `=`.
    private static func pairs(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ query: Range<Int>
    ) -> [RawParameter] {
        let question = UInt8(ascii: "?")
        var pairs: [RawParameter] = []
        guard !query.isEmpty else { return pairs }
        pairs.reserveCapacity(4)
        func add(_ pair: Range<Int>) {
            let equals = bytes[pair].firstIndex(of: UInt8(ascii: "=")) ?? pair.upperBound
            let name = pair.lowerBound..<equals
            pairs.append(
                RawParameter(
                    name: name,
                    value: min(equals + 1, pair.upperBound)..<pair.upperBound,
                    nameIsPlain: RequestTarget.isPlain(bytes[name], plusIsSpace: true)
                )
            )
        }
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
                    if mark > start { add(start..<mark) }
                    start = rest.lowerBound
                }
                index = rest.lowerBound
            }
            if start < pieceEnd { add(start..<pieceEnd) }
        }
        return pairs
    }
}

/// One query parameter of a request-target, still percent-encoded: UTF-8 offsets of its name and value in the target.
struct RawParameter: Sendable {
    var name: Range<Int>
    var value: Range<Int>
    /// True when the name is ASCII without `%` or `+`, so it decodes to itself (false where that was not checked).
    var nameIsPlain: Bool
}
