import Foundation

// The byte-level pieces of reading a response head: line ends, ASCII case folding, optional white space, list items
// and decimal numbers, on slices of the head read in place (`HTTPResponseReader.parseHead`).

extension HTTPResponseReader {
    /// The index of the first `byte` in `range` of `bytes`, or nil. With `memchr`, which compares many bytes per
    /// instruction: looking for line ends a byte at a time cost a 300-byte answer's head 2,200 instructions more.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard let base = bytes.baseAddress, !range.isEmpty,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// `bytes` without leading and trailing spaces and tabs (HTTP's optional whitespace).
    static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == Self.space || bytes[start] == Self.tab { start += 1 }
        while end > start, bytes[end - 1] == Self.space || bytes[end - 1] == Self.tab { end -= 1 }
        return bytes[start..<end]
    }

    /// ASCII letters folded to lower case; other bytes unchanged.
    static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `bytes` spell `lower` (lower-case ASCII) in any case.
    static func equalsIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        return lower.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { Self.lowered($0) == $1 }
        }
    }

    /// Whether `bytes` contain `lower` (lower-case ASCII) in any case.
    static func containsIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lower: StaticString) -> Bool {
        let length = lower.utf8CodeUnitCount
        guard bytes.count >= length else { return false }
        return lower.withUTF8Buffer { expected in
            for start in bytes.startIndex...(bytes.endIndex - length)
            where Self.equalsIgnoringCase(bytes[start..<(start + length)], lower) {
                return true
            }
            return false
        }
    }

    /// The last non-empty item of a comma-separated list (the coding applied last), or `bytes` when there is none.
    static func lastListItem(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let start = bytes[..<end].lastIndex(of: Self.comma).map { $0 + 1 } ?? bytes.startIndex
            if start < end { return bytes[start..<end] }
            end = start - 1
        }
        return bytes
    }

    /// The non-negative decimal number `bytes` spell (digits only), or nil.
    static func decimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = shifted.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow && !overflowSum else { return nil }
            value = sum
        }
        return value
    }
}
