import Testing

@testable import LocalOrigin

@Suite struct JSONParserTests {
    @Test(arguments: [
        "\"a\"", "0", "-1.5e+3", "true", "false", "null", "[]", "{}", " [1, \"x\", {\"k\": [null]}] ",
        "{\"a\":1,\"a\":2}", "\"\\u00e9\\ud83d\\ude00\\n\\/\"", "14818963579052943", "\"\\ud800\"",
    ])
    func acceptsJSON(_ text: String) {
        #expect(JSONParser.isValid(text))
    }

    @Test(arguments: [
        "", " ", "'a'", "[1,]", "{\"a\"}", "{a:1}", "01", "1.", ".5", "-", "1e", "[1 2]", "\"unterminated",
        "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "tru", "nul", "[1]]", "{\"a\":1}x", "NaN", "+1",
    ])
    func rejectsNonJSON(_ text: String) {
        #expect(!JSONParser.isValid(text))
    }

    @Test func keepsNumberTextExactly() throws {
        let value = try JSONParser.parse("[14818963579052943, 1.10, -0e5]")
        #expect(value == .array([.number("14818963579052943"), .number("1.10"), .number("-0e5")]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse("\"\\u00e9\\ud83d\\ude00\\\"\\\\\"") == .string("é😀\"\\"))
        #expect(try JSONParser.parse("\"\\udc00x\"") == .string("\u{FFFD}x"))
    }

    @Test func objectsKeepMemberOrderAndLastDuplicateWins() throws {
        let value = try JSONParser.parse("{\"b\":1,\"a\":2,\"b\":3}")
        #expect(value.objectMembers?.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == .number("3"))
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func refusesNestingPastTheLimitWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(!JSONParser.isValid(deep))
        let fine =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(JSONParser.isValid(fine))
    }
}
