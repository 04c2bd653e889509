import Testing

@testable import PubNubLegacy

@Suite struct PNHereNowTests {
    @Test func keepsParticipantsCountAndChannel() {
        let channel = PNChannel(name: "lobby")
        let hereNow = PNHereNow(participants: ["a", "b", "c"], participantsCount: 3, channel: channel)
        #expect(hereNow.participants == ["a", "b", "c"])
        #expect(hereNow.participantsCount == 3)
        #expect(hereNow.channel == channel)
        #expect(hereNow.description.contains("channel: lobby; participants count: 3"))
    }
}
