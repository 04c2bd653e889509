import Testing

@testable import PubNubLegacy

@Suite struct PNMessagesHistoryTests {
    @Test func keepsDatesChannelAndMessagesInOrder() {
        let channel = PNChannel(name: "log")
        let messages = (1...3).map { PNMessage(message: $0, channel: channel, receiveDate: nil, timeToken: nil) }
        let history = PNMessagesHistory(
            startDate: PNDate(timeToken: 17_000_000_000_000_001),
            endDate: PNDate(timeToken: 17_000_000_000_000_003),
            channel: channel,
            messages: messages
        )
        #expect(history.messages.map { $0.message as? Int } == [1, 2, 3])
        #expect(history.startDate?.timeTokenValue == 17_000_000_000_000_001)
        #expect(history.endDate?.timeTokenValue == 17_000_000_000_000_003)
        #expect(history.channel == channel)
        // 3.4 kept NSObject's description for this class: type and address.
        let address = String(UInt(bitPattern: ObjectIdentifier(history)), radix: 16)
        #expect(history.description == "<PNMessagesHistory: 0x\(address)>")
    }
}
