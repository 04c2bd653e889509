// SHA-256 (FIPS 180-4 §6.2), written out because the package may not link CommonCrypto, OpenSSL or swift-crypto
// (docs/DESIGN.md §7). Used for the 3.4 key derivation, the ACRH key and HMAC request signatures (docs/CRYPTO.md §1.1,
// §4.2, §5).

/// An incremental SHA-256 hasher: `update` any number of times, then `finalize` once.
struct SHA256 {
    /// The digest length in bytes.
    static let digestLength = 32
    /// The compression function's block length in bytes (also HMAC's block length).
    static let blockLength = 64

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an unfinished block, waiting for more input.
    private var pending: [UInt8] = []
    private var totalLength: UInt64 = 0

    /// A hasher with the FIPS 180-4 initial hash value.
    init() {
        self.pending.reserveCapacity(SHA256.blockLength)
    }

    /// The SHA-256 digest of `bytes` (32 bytes).
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest of the UTF-8 encoding of `text`.
    static func hash(_ text: String) -> [UInt8] {
        SHA256.hash(text.utf8)
    }

    /// Feeds `bytes` to the hash.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { self.update(buffer: $0) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { self.update(buffer: $0) }
        }
    }

    /// Pads the message (FIPS 180-4 §5.1.1) and returns the digest. The hasher must not be used afterwards.
    mutating func finalize() -> [UInt8] {
        let bitLength = self.totalLength &* 8
        var tail: [UInt8] = [0x80]
        let afterMarker = (self.pending.count + 1) % SHA256.blockLength
        let zeros = afterMarker <= 56 ? 56 - afterMarker : 120 - afterMarker
        tail.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        let savedLength = self.totalLength
        self.update(tail)
        self.totalLength = savedLength
        precondition(self.pending.isEmpty, "SHA-256 padding must end on a block boundary")

        var digest = [UInt8]()
        digest.reserveCapacity(SHA256.digestLength)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    // MARK: - Compression

    private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
        self.totalLength &+= UInt64(buffer.count)
        var offset = 0
        if !self.pending.isEmpty {
            let take = min(SHA256.blockLength - self.pending.count, buffer.count)
            self.pending.append(contentsOf: buffer[0..<take])
            offset = take
            if self.pending.count == SHA256.blockLength {
                let block = self.pending
                block.withUnsafeBufferPointer { buffer in
                    guard let start = buffer.baseAddress else { preconditionFailure("a full block is not empty") }
                    self.compress(start)
                }
                self.pending.removeAll(keepingCapacity: true)
            }
        }
        guard let base = buffer.baseAddress else { return }
        while buffer.count - offset >= SHA256.blockLength {
            self.compress(base + offset)
            offset += SHA256.blockLength
        }
        if offset < buffer.count {
            self.pending.append(contentsOf: buffer[offset...])
        }
    }

    private mutating func compress(_ block: UnsafePointer<UInt8>) {
        // The message schedule lives on the stack: no allocation per block.
        let state = self.state
        self.state = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                let p = block + 4 * t
                w[t] = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] &>> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] &>> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            SHA256.roundConstants.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ sum1 &+ choose &+ k[t] &+ w[t]
                    let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ sum0 &+ majority
                }
            }
            return (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
            )
        }
    }
}

@inline(__always)
private func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value &>> count) | (value &<< (32 &- count))
}
