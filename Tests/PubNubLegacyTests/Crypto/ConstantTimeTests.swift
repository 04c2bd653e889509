import Testing

@testable import PubNubLegacy

@Suite struct ConstantTimeTests {
    /// Both masks over all 65 536 byte pairs.
    @Test func masksMatchTheComparisonsForEveryPair() {
        var wrong: [(UInt8, UInt8)] = []
        for a in 0...255 {
            for b in 0...255 {
                let lhs = UInt8(a)
                let rhs = UInt8(b)
                if ConstantTime.mask(equal: lhs, rhs) != (a == b ? 0xff : 0x00)
                    || ConstantTime.mask(lessThanOrEqual: lhs, rhs) != (a <= b ? 0xff : 0x00)
                {
                    wrong.append((lhs, rhs))
                }
            }
        }
        #expect(wrong.isEmpty, "first wrong pair: \(String(describing: wrong.first))")
    }

    @Test(arguments: [
        ([UInt8](), [UInt8](), true),
        ([1, 2, 3], [1, 2, 3], true),
        ([1, 2, 3], [1, 2, 4], false),
        ([9, 2, 3], [1, 2, 3], false),
        ([1, 2, 3], [1, 2], false),
        ([1, 2], [1, 2, 3], false),
    ])
    func equals(lhs: [UInt8], rhs: [UInt8], expected: Bool) {
        #expect(ConstantTime.equals(lhs, rhs) == expected)
    }
}
