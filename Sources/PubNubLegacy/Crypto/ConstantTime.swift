// Comparisons whose running time does not depend on where secret bytes differ, so a MAC check or a padding check
// does not leak how much of a forged value was right.

/// Data-independent byte comparisons.
enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes. Inputs of different lengths are unequal at once: lengths are public.
    static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) {
            difference |= left ^ right
        }
        return difference == 0
    }

    /// `0xFF` when `lhs == rhs`, otherwise `0x00`, without branching on the values.
    @inline(__always)
    static func mask(equal lhs: UInt8, _ rhs: UInt8) -> UInt8 {
        let difference = UInt16(lhs ^ rhs)
        // difference - 1 borrows into the high byte only when difference == 0.
        return UInt8(truncatingIfNeeded: (difference &- 1) &>> 8)
    }

    /// `0xFF` when `lhs <= rhs`, otherwise `0x00`, without branching on the values.
    @inline(__always)
    static func mask(lessThanOrEqual lhs: UInt8, _ rhs: UInt8) -> UInt8 {
        // rhs - lhs is negative (high bits set) exactly when lhs > rhs.
        let difference = Int16(rhs) &- Int16(lhs)
        return ~UInt8(truncatingIfNeeded: difference &>> 8)
    }
}
