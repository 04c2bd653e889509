// The AES block cipher (FIPS 197) with 32-bit T-tables. Table lookups are indexed by secret bytes, so this is not
// hardened against cache-timing attacks from code sharing the CPU; PubNub's legacy schemes (fixed IV, no MAC) are
// the weaker link anyway, and the speed goal (a 1 KiB message well under 20 µs) rules out a bitsliced design.

/// An expanded AES key (128, 192 or 256 bits) that encrypts and decrypts 16-byte blocks.
struct AES: Sendable {
    /// The AES block length in bytes.
    static let blockLength = 16

    /// Nr: 10, 12 or 14.
    let rounds: Int
    /// FIPS 197 §5.2 key schedule, 4 × (Nr + 1) big-endian words.
    let encryptionKeys: [UInt32]
    /// The equivalent inverse cipher's schedule (FIPS 197 §5.3.5): reversed, InvMixColumns applied to inner rounds.
    let decryptionKeys: [UInt32]

    /// Expands `key`, which must be 16, 24 or 32 bytes long.
    ///
    /// - Throws: `CryptoError.invalidKeyLength` for any other length.
    init(key: [UInt8]) throws(CryptoError) {
        guard key.count == 16 || key.count == 24 || key.count == 32 else {
            throw .invalidKeyLength(key.count)
        }
        let keyWords = key.count / 4
        self.rounds = keyWords + 6
        let total = 4 * (self.rounds + 1)
        let tables = AES.tables

        var schedule = [UInt32](repeating: 0, count: total)
        for i in 0..<keyWords {
            schedule[i] =
                UInt32(key[4 * i]) << 24 | UInt32(key[4 * i + 1]) << 16 | UInt32(key[4 * i + 2]) << 8
                | UInt32(key[4 * i + 3])
        }
        func substitute(_ word: UInt32) -> UInt32 {
            let s = TableOffset.sbox
            return tables[s + Int(word >> 24)] << 24 | tables[s + Int((word >> 16) & 0xff)] << 16
                | tables[s + Int((word >> 8) & 0xff)] << 8 | tables[s + Int(word & 0xff)]
        }
        var roundConstant: UInt32 = 0x01
        for i in keyWords..<total {
            var temp = schedule[i - 1]
            if i % keyWords == 0 {
                temp = substitute((temp << 8) | (temp >> 24)) ^ (roundConstant << 24)
                roundConstant = (roundConstant << 1) ^ ((roundConstant & 0x80) != 0 ? 0x11b : 0)
            } else if keyWords > 6 && i % keyWords == 4 {
                temp = substitute(temp)
            }
            schedule[i] = schedule[i - keyWords] ^ temp
        }
        self.encryptionKeys = schedule

        var inverse = [UInt32](repeating: 0, count: total)
        for round in 0...self.rounds {
            for column in 0..<4 {
                let word = schedule[4 * (self.rounds - round) + column]
                if round == 0 || round == self.rounds {
                    inverse[4 * round + column] = word
                } else {
                    // InvMixColumns(word) == Td(S(word)): the S-box cancels the InvS-box folded into the Td tables.
                    let s = TableOffset.sbox
                    inverse[4 * round + column] =
                        tables[TableOffset.td0 + Int(tables[s + Int(word >> 24)])]
                        ^ tables[TableOffset.td1 + Int(tables[s + Int((word >> 16) & 0xff)])]
                        ^ tables[TableOffset.td2 + Int(tables[s + Int((word >> 8) & 0xff)])]
                        ^ tables[TableOffset.td3 + Int(tables[s + Int(word & 0xff)])]
                }
            }
        }
        self.decryptionKeys = inverse
    }

    // MARK: - Single blocks

    /// Encrypts one 16-byte block (for tests and callers outside a mode of operation).
    func encryptBlock(_ block: [UInt8]) -> [UInt8] {
        precondition(block.count == AES.blockLength, "AES blocks are 16 bytes")
        return AES.tables.withUnsafeBufferPointer { tables in
            self.encryptionKeys.withUnsafeBufferPointer { keys in
                let input = Block(loading: block)
                return AES.encrypt(input, rounds: self.rounds, keys: keys, tables: tables).bytes
            }
        }
    }

    /// Decrypts one 16-byte block.
    func decryptBlock(_ block: [UInt8]) -> [UInt8] {
        precondition(block.count == AES.blockLength, "AES blocks are 16 bytes")
        return AES.tables.withUnsafeBufferPointer { tables in
            self.decryptionKeys.withUnsafeBufferPointer { keys in
                let input = Block(loading: block)
                return AES.decrypt(input, rounds: self.rounds, keys: keys, tables: tables).bytes
            }
        }
    }

    // MARK: - Round functions

    /// A 128-bit state as four big-endian column words, kept in registers between rounds.
    struct Block {
        var w0: UInt32
        var w1: UInt32
        var w2: UInt32
        var w3: UInt32

        @inline(__always)
        init(_ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32) {
            self.w0 = w0
            self.w1 = w1
            self.w2 = w2
            self.w3 = w3
        }

        /// Reads 16 bytes at `pointer` (any alignment).
        @inline(__always)
        init(_ pointer: UnsafeRawPointer) {
            self.w0 = UInt32(bigEndian: pointer.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            self.w1 = UInt32(bigEndian: pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            self.w2 = UInt32(bigEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            self.w3 = UInt32(bigEndian: pointer.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        }

        /// Reads the 16 bytes of `bytes`.
        init(loading bytes: [UInt8]) {
            precondition(bytes.count == AES.blockLength, "an AES block is 16 bytes")
            func word(_ index: Int) -> UInt32 {
                UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8
                    | UInt32(bytes[index + 3])
            }
            self.init(word(0), word(4), word(8), word(12))
        }

        /// Writes the 16 bytes at `pointer` (any alignment).
        @inline(__always)
        func store(to pointer: UnsafeMutableRawPointer) {
            pointer.storeBytes(of: self.w0.bigEndian, toByteOffset: 0, as: UInt32.self)
            pointer.storeBytes(of: self.w1.bigEndian, toByteOffset: 4, as: UInt32.self)
            pointer.storeBytes(of: self.w2.bigEndian, toByteOffset: 8, as: UInt32.self)
            pointer.storeBytes(of: self.w3.bigEndian, toByteOffset: 12, as: UInt32.self)
        }

        /// The 16 bytes, big-endian words in order.
        var bytes: [UInt8] {
            [self.w0, self.w1, self.w2, self.w3].flatMap { word in
                [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
            }
        }

        @inline(__always)
        static func ^ (lhs: Block, rhs: Block) -> Block {
            Block(lhs.w0 ^ rhs.w0, lhs.w1 ^ rhs.w1, lhs.w2 ^ rhs.w2, lhs.w3 ^ rhs.w3)
        }
    }

    /// FIPS 197 §5.1 with T-tables. `keys` is `encryptionKeys`, `tables` is `AES.tables`.
    @inline(__always)
    static func encrypt(
        _ input: Block,
        rounds: Int,
        keys: UnsafeBufferPointer<UInt32>,
        tables: UnsafeBufferPointer<UInt32>
    ) -> Block {
        transform(input, rounds: rounds, keys: keys, tables: tables, inverse: false)
    }

    /// FIPS 197 §5.3.5 (equivalent inverse cipher) with T-tables. `keys` is `decryptionKeys`.
    @inline(__always)
    static func decrypt(
        _ input: Block,
        rounds: Int,
        keys: UnsafeBufferPointer<UInt32>,
        tables: UnsafeBufferPointer<UInt32>
    ) -> Block {
        transform(input, rounds: rounds, keys: keys, tables: tables, inverse: true)
    }

    /// Both ciphers in one loop. A forward round mixes column j with columns j+1, j+2, j+3; an inverse round with
    /// j−1, j−2, j−3. Holding the state with columns 1 and 3 swapped (`u1` = column 3, `u3` = column 1) turns the
    /// inverse pattern into the forward one, so only the tables and the positions of key words 1 and 3 differ.
    /// `inverse` is a constant at both call sites, so each specialisation keeps the state in registers.
    @inline(__always)
    private static func transform(
        _ input: Block,
        rounds: Int,
        keys k: UnsafeBufferPointer<UInt32>,
        tables t: UnsafeBufferPointer<UInt32>,
        inverse: Bool
    ) -> Block {
        let (t0, t1, t2, t3, sbox) =
            inverse
            ? (TableOffset.td0, TableOffset.td1, TableOffset.td2, TableOffset.td3, TableOffset.inverseSbox)
            : (TableOffset.te0, TableOffset.te1, TableOffset.te2, TableOffset.te3, TableOffset.sbox)
        let k1 = inverse ? 3 : 1
        let k3 = inverse ? 1 : 3
        var u0 = input.w0 ^ k[0]
        var u1 = (inverse ? input.w3 : input.w1) ^ k[k1]
        var u2 = input.w2 ^ k[2]
        var u3 = (inverse ? input.w1 : input.w3) ^ k[k3]
        @inline(__always)
        func mix(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ roundKey: UInt32) -> UInt32 {
            t[t0 &+ Int(a &>> 24)] ^ t[t1 &+ Int((b &>> 16) & 0xff)] ^ t[t2 &+ Int((c &>> 8) & 0xff)]
                ^ t[t3 &+ Int(d & 0xff)] ^ roundKey
        }
        var key = 4
        for _ in 1..<rounds {
            (u0, u1, u2, u3) = (
                mix(u0, u1, u2, u3, k[key]),
                mix(u1, u2, u3, u0, k[key &+ k1]),
                mix(u2, u3, u0, u1, k[key &+ 2]),
                mix(u3, u0, u1, u2, k[key &+ k3])
            )
            key &+= 4
        }
        @inline(__always)
        func last(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ roundKey: UInt32) -> UInt32 {
            (t[sbox &+ Int(a &>> 24)] &<< 24 | t[sbox &+ Int((b &>> 16) & 0xff)] &<< 16
                | t[sbox &+ Int((c &>> 8) & 0xff)] &<< 8 | t[sbox &+ Int(d & 0xff)]) ^ roundKey
        }
        let v0 = last(u0, u1, u2, u3, k[key])
        let v1 = last(u1, u2, u3, u0, k[key &+ k1])
        let v2 = last(u2, u3, u0, u1, k[key &+ 2])
        let v3 = last(u3, u0, u1, u2, k[key &+ k3])
        return inverse ? Block(v0, v3, v2, v1) : Block(v0, v1, v2, v3)
    }
}
