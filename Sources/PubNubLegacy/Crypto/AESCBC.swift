// AES in CBC mode (SP 800-38A §6.2) with PKCS#7 padding (RFC 5652 §6.3), the only mode PubNub's schemes use
// (docs/CRYPTO.md §1.2, §2, §3, §4.2). The loops work on raw pointers and keep the chaining value in registers, so a
// message costs one output allocation and no per-block work beyond the cipher itself.

/// AES-CBC encryption and decryption.
enum AESCBC {
    // MARK: - Byte-array API

    /// Encrypts `plaintext` with PKCS#7 padding (always 1…16 bytes, a whole block when already aligned).
    ///
    /// - Parameters:
    ///   - key: 16, 24 or 32 bytes (AES-128/192/256).
    ///   - iv: 16 bytes.
    /// - Throws: `CryptoError.invalidKeyLength` or `.invalidIVLength`.
    static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        let cipher = try AES(key: key)
        let chain = try AESCBC.chainingValue(iv)
        return plaintext.withUnsafeBytes { AESCBC.encrypt($0, cipher: cipher, iv: chain) }
    }

    /// Decrypts `ciphertext` and removes its PKCS#7 padding.
    ///
    /// - Throws: `.invalidKeyLength`, `.invalidIVLength`, `.invalidCiphertextLength` (empty or not whole blocks), or
    ///   `.invalidPadding` (the usual symptom of a wrong key).
    static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        let cipher = try AES(key: key)
        let chain = try AESCBC.chainingValue(iv)
        // `withUnsafeBytes` only rethrows untyped errors, so the typed error travels in a `Result`.
        return try ciphertext.withUnsafeBytes { buffer in
            Result { () throws(CryptoError) in try AESCBC.decrypt(buffer, cipher: cipher, iv: chain) }
        }.get()
    }

    /// Encrypts whole blocks without padding (the SP 800-38A test vectors have none).
    ///
    /// - Throws: `.invalidKeyLength`, `.invalidIVLength`, or `.invalidCiphertextLength` when `plaintext` is not a
    ///   whole number of blocks.
    static func encryptWithoutPadding(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        let cipher = try AES(key: key)
        let chain = try AESCBC.chainingValue(iv)
        guard plaintext.count % AES.blockLength == 0 else { throw .invalidCiphertextLength(plaintext.count) }
        return plaintext.withUnsafeBytes { input in
            [UInt8](unsafeUninitializedCapacity: input.count) { output, count in
                if let source = input.baseAddress, let target = output.baseAddress {
                    _ = AESCBC.encryptBlocks(source, byteCount: input.count, into: target, cipher: cipher, iv: chain)
                }
                count = input.count
            }
        }
    }

    /// Decrypts whole blocks and keeps any padding (inverse of `encryptWithoutPadding`).
    static func decryptWithoutPadding(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        let cipher = try AES(key: key)
        let chain = try AESCBC.chainingValue(iv)
        guard ciphertext.count % AES.blockLength == 0 else { throw .invalidCiphertextLength(ciphertext.count) }
        return ciphertext.withUnsafeBytes { input in
            [UInt8](unsafeUninitializedCapacity: input.count) { output, count in
                if let source = input.baseAddress, let target = output.baseAddress {
                    AESCBC.decryptBlocks(source, byteCount: input.count, into: target, cipher: cipher, iv: chain)
                }
                count = input.count
            }
        }
    }

    // MARK: - Expanded-key API (no key schedule per message)

    /// The 16 IV bytes as a chaining value.
    ///
    /// - Throws: `.invalidIVLength` unless `iv` has 16 bytes.
    static func chainingValue(_ iv: [UInt8]) throws(CryptoError) -> AES.Block {
        guard iv.count == AES.blockLength else { throw .invalidIVLength(iv.count) }
        return AES.Block(loading: iv)
    }

    /// Encrypts `plaintext` with PKCS#7 padding and returns `prefix ‖ ciphertext` in one allocation (the prefix is
    /// the random IV or the cryptor header that PubNub puts in front of the ciphertext).
    static func encrypt(
        _ plaintext: UnsafeRawBufferPointer,
        cipher: AES,
        iv: AES.Block,
        prefix: [UInt8] = []
    ) -> [UInt8] {
        let fullBlocksLength = plaintext.count - plaintext.count % AES.blockLength
        let ciphertextLength = fullBlocksLength + AES.blockLength
        return [UInt8](unsafeUninitializedCapacity: prefix.count + ciphertextLength) { output, count in
            guard let start = output.baseAddress else { preconditionFailure("the capacity is at least one block") }
            let base = UnsafeMutableRawPointer(start)
            prefix.withUnsafeBytes { header in
                if let source = header.baseAddress {
                    base.copyMemory(from: source, byteCount: header.count)
                }
            }
            let target = base + prefix.count
            var chain = iv
            if let source = plaintext.baseAddress, fullBlocksLength > 0 {
                chain = AESCBC.encryptBlocks(source, byteCount: fullBlocksLength, into: target, cipher: cipher, iv: iv)
            }
            // The last block: the remaining 0…15 bytes, then padding bytes that each hold the padding length.
            let remainder = plaintext.count - fullBlocksLength
            let padding = UInt8(AES.blockLength - remainder)
            withUnsafeTemporaryAllocation(byteCount: AES.blockLength, alignment: 4) { buffer in
                guard let last = buffer.baseAddress else { preconditionFailure("a 16-byte allocation has an address") }
                buffer.initializeMemory(as: UInt8.self, repeating: padding)
                if remainder > 0, let source = plaintext.baseAddress {
                    last.copyMemory(from: source + fullBlocksLength, byteCount: remainder)
                }
                _ = AESCBC.encryptBlocks(
                    UnsafeRawPointer(last),
                    byteCount: AES.blockLength,
                    into: target + fullBlocksLength,
                    cipher: cipher,
                    iv: chain
                )
            }
            count = prefix.count + ciphertextLength
        }
    }

    /// Decrypts `ciphertext` and strips its PKCS#7 padding, checking the padding without data-dependent branches.
    ///
    /// - Throws: `.invalidCiphertextLength` when empty or not whole blocks, `.invalidPadding` when the padding is
    ///   not 1…16 copies of its length.
    static func decrypt(
        _ ciphertext: UnsafeRawBufferPointer,
        cipher: AES,
        iv: AES.Block
    ) throws(CryptoError)
        -> [UInt8]
    {
        let length = ciphertext.count
        guard length > 0, length % AES.blockLength == 0, let source = ciphertext.baseAddress else {
            throw .invalidCiphertextLength(length)
        }
        var valid = false
        let plaintext = [UInt8](unsafeUninitializedCapacity: length) { output, count in
            guard let target = output.baseAddress else { preconditionFailure("the capacity is at least one block") }
            AESCBC.decryptBlocks(source, byteCount: length, into: target, cipher: cipher, iv: iv)
            let padding = output[length - 1]
            var good = ~ConstantTime.mask(equal: padding, 0) & ConstantTime.mask(lessThanOrEqual: padding, 16)
            for index in 0..<AES.blockLength {
                let isPadding = ConstantTime.mask(lessThanOrEqual: UInt8(index + 1), padding)
                good &= ~isPadding | ConstantTime.mask(equal: output[length - 1 - index], padding)
            }
            valid = good == 0xff
            count = valid ? length - Int(padding) : 0
        }
        guard valid else { throw .invalidPadding }
        return plaintext
    }

    // MARK: - Block loops

    /// CBC-encrypts `byteCount` bytes (a multiple of 16) and returns the last ciphertext block (the next chain value).
    @discardableResult
    static func encryptBlocks(
        _ source: UnsafeRawPointer,
        byteCount: Int,
        into target: UnsafeMutableRawPointer,
        cipher: AES,
        iv: AES.Block
    ) -> AES.Block {
        AES.tables.withUnsafeBufferPointer { tables in
            cipher.encryptionKeys.withUnsafeBufferPointer { keys in
                var chain = iv
                var offset = 0
                while offset < byteCount {
                    chain = AES.encrypt(
                        AES.Block(source + offset) ^ chain,
                        rounds: cipher.rounds,
                        keys: keys,
                        tables: tables
                    )
                    chain.store(to: target + offset)
                    offset &+= AES.blockLength
                }
                return chain
            }
        }
    }

    /// CBC-decrypts `byteCount` bytes (a multiple of 16). `source` and `target` may be the same buffer.
    static func decryptBlocks(
        _ source: UnsafeRawPointer,
        byteCount: Int,
        into target: UnsafeMutableRawPointer,
        cipher: AES,
        iv: AES.Block
    ) {
        AES.tables.withUnsafeBufferPointer { tables in
            cipher.decryptionKeys.withUnsafeBufferPointer { keys in
                var chain = iv
                var offset = 0
                while offset < byteCount {
                    let block = AES.Block(source + offset)
                    let plain = AES.decrypt(block, rounds: cipher.rounds, keys: keys, tables: tables) ^ chain
                    plain.store(to: target + offset)
                    chain = block
                    offset &+= AES.blockLength
                }
            }
        }
    }
}
