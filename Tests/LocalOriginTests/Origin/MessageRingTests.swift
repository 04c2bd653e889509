import Testing

@testable import LocalOrigin

@Suite struct MessageRingTests {
    private func message(_ timetoken: UInt64) -> StoredMessage {
        StoredMessage(timetoken: timetoken, channel: "c", payload: String(timetoken), publisher: nil, meta: nil)
    }

    @Test func keepsTheNewestMessagesInOrderWhenFull() {
        var ring = MessageRing(capacity: 3)
        for timetoken in 1...5 as ClosedRange<UInt64> { ring.append(self.message(timetoken * 10)) }
        #expect(ring.count == 3)
        #expect(ring.messages(in: 0..<3).map(\.timetoken) == [30, 40, 50])
    }

    @Test func findsPositionsByTimetoken() {
        var ring = MessageRing(capacity: 4)
        for timetoken in [10, 20, 30, 40, 50, 60] as [UInt64] { ring.append(self.message(timetoken)) }
        // Kept: 30 40 50 60.
        #expect(ring.firstIndex(after: 0) == 0)
        #expect(ring.firstIndex(after: 30) == 1)
        #expect(ring.firstIndex(after: 35) == 1)
        #expect(ring.firstIndex(after: 60) == 4)
        #expect(ring.firstIndex(atOrAfter: 40) == 1)
        #expect(ring.firstIndex(atOrAfter: 0) == 0)
    }

    @Test func clockIsStrictlyIncreasingInTenthsOfMicroseconds() {
        var clock = TimetokenClock()
        #expect(clock.next(at: 1_481_896_357.905_294_3) / 10 == 1_481_896_357_905_294)
        let first = clock.next(at: 1_700_000_000)
        let second = clock.next(at: 1_700_000_000)
        let third = clock.next(at: 1_600_000_000)
        #expect(first == 17_000_000_000_000_000)
        #expect(second == first + 1)
        #expect(third == first + 2)
        #expect(TimetokenClock.timetoken(forUnixSeconds: -1) == 0)
        #expect(TimetokenClock.timetoken(forUnixSeconds: .nan) == 0)
    }
}
