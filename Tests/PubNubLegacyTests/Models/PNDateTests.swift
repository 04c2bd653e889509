import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct PNDateTests {
    @Test(arguments: [
        UInt64(17_953_000_000_000_001), 13_949_573_425_219_985, 99_999_999_999_999_999, 10_000_000_000_000_000,
        UInt64.max, 0, 1,
    ])
    func tokensRoundTripExactly(_ token: UInt64) throws {
        let date = PNDate(timeToken: token)
        #expect(date.timeTokenValue == token)
        #expect(date.timeToken.uint64Value == token)
        #expect(date.timeToken.stringValue == String(token))
        let again = try #require(PNDate.dateWithToken(date.timeToken))
        #expect(again.timeTokenValue == token)
        #expect(again == date)
        let text = try #require(PNStringFromUnsignedLongLongNumber(date.timeToken))
        #expect(text == String(token))
        #expect(PNNumberFromUnsignedLongLongString(text)?.uint64Value == token)
    }

    @Test func nilInputsGiveNil() {
        #expect(PNDate.dateWithDate(nil) == nil)
        #expect(PNDate.dateWithToken(nil) == nil)
    }

    @Test func dateWithDateTruncatesToTheHundredNanosecond() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let pnDate = try #require(PNDate.dateWithDate(date))
        #expect(pnDate.timeTokenValue == 17_000_000_002_500_000)
        // 3.4 re-derives the date from the token, in whole seconds.
        #expect(pnDate.date == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func smallTokensAreSeconds() {
        #expect(PNDate(timeToken: 1_700_000_000).date == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(PNDate(timeToken: 2_147_483_647).date == Date(timeIntervalSince1970: 2_147_483_647))
        #expect(PNDate(timeToken: 2_147_483_648).date == Date(timeIntervalSince1970: 214))
    }

    @Test func equalTokensAreEqualDates() {
        #expect(PNDate(timeToken: 5) == PNDate(timeToken: 5))
        #expect(PNDate(timeToken: 5) != PNDate(timeToken: 6))
        #expect(Set([PNDate(timeToken: 5), PNDate(timeToken: 5)]).count == 1)
    }

    @Test func descriptionShowsTheToken() {
        #expect(PNDate(timeToken: 17_000_000_000_000_000).description.contains("time token: 17000000000000000"))
    }
}
