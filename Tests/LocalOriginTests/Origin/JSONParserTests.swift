import Testing

@testable import LocalOrigin

@Suite struct JSONParserTests {
    @Test func parsesFragments() throws {
        #expect(try JSONParser.parse("\"a\"") == .string("a"))
    }
}
