import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct PNMacroTests {
    @Test func uniqueIdentifiersAreLowerCaseUUIDs() {
        let first = PNUniqueIdentifier()
        let second = PNUniqueIdentifier()
        #expect(first != second)
        #expect(first == first.lowercased())
        #expect(UUID(uuidString: first) != nil)
        #expect(!PNIsUserGeneratedUUID(first))
    }

    @Test(arguments: [
        ("user-1", true), ("", true), ("8E4C6A5A-0A1B-4C5D-8E9F-0123456789AB", true),
        ("8e4c6a5a-0a1b-4c5d-8e9f-0123456789ab", false), ("8e4c6a5a-0a1b-4c5d-8e9f-0123456789ab-x", true),
        ("8e4c6a5a0a1b4c5d8e9f0123456789ab", true), ("ge4c6a5a-0a1b-4c5d-8e9f-0123456789ab", true),
    ])
    func userGeneratedUUIDsAreThoseNotInTheGeneratedForm(_ uuid: String, _ expected: Bool) {
        #expect(PNIsUserGeneratedUUID(uuid) == expected)
    }

    @Test func unixTimeStampUsesTheThreeFourRule() {
        #expect(PNUnixTimeStampFromTimeToken(NSNumber(value: UInt64(17_000_000_009_999_999))) == 1_700_000_000)
        #expect(PNUnixTimeStampFromTimeToken(NSNumber(value: 1_600_000_000)) == 1_600_000_000)
    }

    @Test func timeTokenFromDateClampsOutOfRangeDates() {
        #expect(PNTimeTokenFromDate(Date(timeIntervalSince1970: 1)).uint64Value == 10_000_000)
        #expect(PNTimeTokenFromDate(Date(timeIntervalSince1970: -5)).uint64Value == 0)
        #expect(PNTimeTokenFromDate(Date(timeIntervalSince1970: 1e13)).uint64Value == UInt64.max)
    }

    @Test func stringAndNumberHelpersAcceptOnlyTheirTypes() {
        #expect(PNNumberFromUnsignedLongLongString("12a") == nil)
        #expect(PNNumberFromUnsignedLongLongString("-1") == nil)
        #expect(PNNumberFromUnsignedLongLongString(Data()) == nil)
        #expect(PNNumberFromUnsignedLongLongString(NSNumber(value: 7))?.intValue == 7)
        #expect(PNStringFromUnsignedLongLongNumber("abc") == "abc")
        #expect(PNStringFromUnsignedLongLongNumber(Data()) == nil)
        #expect(PNStringFromUnsignedLongLongNumber(nil) == nil)
    }

    @Test func unsignedValuesComeFromJSONNumbersAndStrings() throws {
        let json = #"{"t":17953000000000001,"n":-3,"f":2.9,"s":"42","b":"x"}"#
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(unsignedValue(of: decoded["t"]) == 17_953_000_000_000_001)
        #expect(unsignedValue(of: decoded["n"]) == nil)
        #expect(unsignedValue(of: decoded["f"]) == 2)
        #expect(unsignedValue(of: decoded["s"]) == 42)
        #expect(unsignedValue(of: decoded["b"]) == nil)
        #expect(unsignedValue(of: decoded["missing"]) == nil)
        #expect(unsignedValue(of: Double.nan) == nil)
        #expect(unsignedValue(of: UInt64.max) == UInt64.max)
        #expect(unsignedValue(of: 5) == 5)
    }
}
