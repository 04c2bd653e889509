// Shared by every harness: reads structure out of the fuzzer's bytes. Compiled into each target's binary together
// with its harness (see Scripts/fuzz.sh), so it depends on the standard library only.

/// A cursor over one fuzz input. Reads past the end give zeros, so a harness never has to check lengths.
struct FuzzBytes {
    let bytes: [UInt8]
    private(set) var index = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        self.bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// True once every byte has been read.
    var isAtEnd: Bool { self.index >= self.bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard self.index < self.bytes.count else { return 0 }
        defer { self.index += 1 }
        return self.bytes[self.index]
    }

    /// A value in `0..<count` taken from the next byte (`count` must be in 1...256).
    mutating func choice(_ count: Int) -> Int {
        precondition((1...256).contains(count), "a choice is read from one byte")
        return Int(self.byte()) % count
    }

    /// Whether the next byte is odd.
    mutating func flag() -> Bool {
        self.byte() & 1 == 1
    }

    /// Up to `count` next bytes.
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(self.bytes.count, self.index + max(0, count))
        defer { self.index = end }
        return Array(self.bytes[min(self.index, end)..<end])
    }

    /// Every byte not read yet.
    mutating func rest() -> [UInt8] {
        self.take(self.bytes.count - self.index)
    }

    /// Bytes up to the next `separator` (not included; the separator is consumed), or the rest.
    mutating func field(separator: UInt8 = 0) -> [UInt8] {
        guard self.index < self.bytes.count else { return [] }
        let tail = self.bytes[self.index...]
        guard let end = tail.firstIndex(of: separator) else { return self.rest() }
        defer { self.index = end + 1 }
        return Array(self.bytes[self.index..<end])
    }

    /// `bytes` cut into pieces whose sizes come from `sizes` (each 1...`maximum`, cycling), so an incremental
    /// reader sees the same bytes in a split the fuzzer chose.
    static func split(_ bytes: [UInt8], sizes: [UInt8], maximum: Int) -> [ArraySlice<UInt8>] {
        guard !bytes.isEmpty else { return [] }
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        var round = 0
        while start < bytes.count {
            let size = sizes.isEmpty ? bytes.count : 1 + Int(sizes[round % sizes.count]) % max(1, maximum)
            let end = min(bytes.count, start + size)
            pieces.append(bytes[start..<end])
            start = end
            round += 1
        }
        return pieces
    }
}

/// Stops the run: libFuzzer reports the input as a crash and saves it. Used for broken invariants.
func fuzzInvariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}
