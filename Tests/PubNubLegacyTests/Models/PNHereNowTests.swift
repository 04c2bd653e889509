import Testing

@testable import PubNubLegacy

@Suite struct PNHereNowTests {
    @Test func keepsParticipantsCountAndChannel() {
        let channel = PNChannel(name: "lobby")
        let hereNow = PNHereNow(participants: ["a", "b", "c"], participantsCount: 3, channel: channel)
        #expect(hereNow.participants == ["a", "b", "c"])
        #expect(hereNow.participantsCount == 3)
        #expect(hereNow.channel == channel)
        // 3.4 kept NSObject's description for this class: type and address.
        let address = String(UInt(bitPattern: ObjectIdentifier(hereNow)), radix: 16)
        #expect(hereNow.description == "<PNHereNow: 0x\(address)>")
    }
}
