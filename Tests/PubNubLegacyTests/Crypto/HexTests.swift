import Testing

@testable import PubNubLegacy

@Suite struct HexTests {
    @Test(arguments: [
        ([UInt8](), "", ""),
        ([0x00, 0x0f, 0xa0, 0xff], "000fa0ff", "000FA0FF"),
        ([0x67, 0xa4, 0xf4, 0x5f], "67a4f45f", "67A4F45F"),
    ])
    func formatsTwoDigitsPerByte(bytes: [UInt8], lower: String, upper: String) {
        #expect(Hex.lowercase(bytes) == lower)
        #expect(Hex.uppercase(bytes) == upper)
    }
}
