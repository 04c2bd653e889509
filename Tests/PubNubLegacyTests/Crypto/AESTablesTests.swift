import Testing

@testable import PubNubLegacy

@Suite struct AESTablesTests {
    private func sbox(_ x: Int) -> UInt32 { AES.tables[AES.TableOffset.sbox + x] }
    private func inverseSbox(_ x: Int) -> UInt32 { AES.tables[AES.TableOffset.inverseSbox + x] }

    /// FIPS 197 Figure 7 and Figure 14 spot values.
    @Test(arguments: [(0x00, 0x63), (0x01, 0x7c), (0x53, 0xed), (0x9a, 0xb8), (0xff, 0x16), (0x10, 0xca)])
    func sboxValues(input: Int, output: UInt32) {
        #expect(self.sbox(input) == output)
        #expect(self.inverseSbox(Int(output)) == UInt32(input))
    }

    @Test func sboxIsAPermutationAndTheInverseUndoesIt() {
        #expect(Set((0..<256).map { self.sbox($0) }).count == 256)
        for x in 0..<256 {
            #expect(self.inverseSbox(Int(self.sbox(x))) == UInt32(x))
        }
    }

    /// te0[x] is the MixColumns column (2·S, S, S, 3·S); td0[x] is (14·InvS, 9·InvS, 13·InvS, 11·InvS);
    /// te1…te3 and td1…td3 are byte rotations of them. FIPS 197 §5.1.3 example column: S = 0x63 for x = 0.
    @Test func roundTablesAreRotationsOfTheFirst() {
        #expect(AES.tables[AES.TableOffset.te0] == 0xc663_63a5)
        #expect(AES.tables[AES.TableOffset.td0] == 0x51f4_a750)
        let pairs = [
            (AES.TableOffset.te0, AES.TableOffset.te1), (AES.TableOffset.te1, AES.TableOffset.te2),
            (AES.TableOffset.te2, AES.TableOffset.te3), (AES.TableOffset.td0, AES.TableOffset.td1),
            (AES.TableOffset.td1, AES.TableOffset.td2), (AES.TableOffset.td2, AES.TableOffset.td3),
        ]
        for (from, to) in pairs {
            for x in 0..<256 {
                let word = AES.tables[from + x]
                #expect(AES.tables[to + x] == (word >> 8) | (word << 24))
            }
        }
    }
}
