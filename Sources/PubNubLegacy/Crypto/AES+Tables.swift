// The AES lookup tables (FIPS 197), computed once from the field arithmetic instead of pasted as 10 KiB of hex, so a
// typo cannot hide in them; the SP 800-38A known answers in the tests check the result.

extension AES {
    /// Where each 256-entry table starts inside `AES.tables`.
    enum TableOffset {
        /// Encryption round tables: `te0[x]` is the MixColumns column of `S[x]`; te1…te3 are its byte rotations.
        static let te0 = 0
        static let te1 = 256
        static let te2 = 512
        static let te3 = 768
        /// Decryption round tables: `td0[x]` is the InvMixColumns column of `InvS[x]`; td1…td3 are its rotations.
        static let td0 = 1024
        static let td1 = 1280
        static let td2 = 1536
        static let td3 = 1792
        /// The S-box, one byte per word, for the last encryption round and the key schedule.
        static let sbox = 2048
        /// The inverse S-box, one byte per word, for the last decryption round.
        static let inverseSbox = 2304
        /// Number of words in `AES.tables`.
        static let total = 2560
    }

    /// All tables in one array so the hot loop holds a single base pointer (see `TableOffset`).
    static let tables: [UInt32] = AES.makeTables()

    private static func makeTables() -> [UInt32] {
        let sbox = AES.makeSbox()
        var inverse = [UInt8](repeating: 0, count: 256)
        for x in 0..<256 {
            inverse[Int(sbox[x])] = UInt8(x)
        }

        var tables = [UInt32](repeating: 0, count: TableOffset.total)
        for x in 0..<256 {
            let s = sbox[x]
            let te = UInt32(gfMultiply(s, 2)) << 24 | UInt32(s) << 16 | UInt32(s) << 8 | UInt32(gfMultiply(s, 3))
            tables[TableOffset.te0 + x] = te
            tables[TableOffset.te1 + x] = rotateRight(te, 8)
            tables[TableOffset.te2 + x] = rotateRight(te, 16)
            tables[TableOffset.te3 + x] = rotateRight(te, 24)

            let i = inverse[x]
            let td =
                UInt32(gfMultiply(i, 14)) << 24 | UInt32(gfMultiply(i, 9)) << 16
                | UInt32(gfMultiply(i, 13)) << 8 | UInt32(gfMultiply(i, 11))
            tables[TableOffset.td0 + x] = td
            tables[TableOffset.td1 + x] = rotateRight(td, 8)
            tables[TableOffset.td2 + x] = rotateRight(td, 16)
            tables[TableOffset.td3 + x] = rotateRight(td, 24)

            tables[TableOffset.sbox + x] = UInt32(s)
            tables[TableOffset.inverseSbox + x] = UInt32(i)
        }
        return tables
    }

    /// FIPS 197 §5.1.1: multiplicative inverse in GF(2^8) followed by the affine map. Walks the field with the
    /// generator 3 so `p` and `q = p⁻¹` advance together.
    private static func makeSbox() -> [UInt8] {
        var sbox = [UInt8](repeating: 0, count: 256)
        var p: UInt8 = 1
        var q: UInt8 = 1
        repeat {
            p = p ^ (p << 1) ^ (p & 0x80 != 0 ? 0x1b : 0)
            q ^= q << 1
            q ^= q << 2
            q ^= q << 4
            if q & 0x80 != 0 {
                q ^= 0x09
            }
            let affine = q ^ rotateLeft(q, 1) ^ rotateLeft(q, 2) ^ rotateLeft(q, 3) ^ rotateLeft(q, 4)
            sbox[Int(p)] = affine ^ 0x63
        } while p != 1
        sbox[0] = 0x63  // 0 has no inverse; FIPS 197 maps it to 0 before the affine step.
        return sbox
    }
}

/// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
private func gfMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    var result: UInt8 = 0
    var a = a
    var b = b
    while b != 0 {
        if b & 1 != 0 {
            result ^= a
        }
        a = (a << 1) ^ (a & 0x80 != 0 ? 0x1b : 0)
        b >>= 1
    }
    return result
}

private func rotateLeft(_ value: UInt8, _ count: UInt8) -> UInt8 {
    (value << count) | (value >> (8 - count))
}

private func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
}
