import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct JSONSyntaxTests {
    /// RFC 8259 values, including every top-level kind (fragments are legal since RFC 7159).
    @Test(arguments: [
        "0", "-0", "42", "-7", "3.14", "1e10", "1E+2", "-1.5e-3", "true", "false", "null", "\"\"", "\"Hello World\"",
        "\"\\u6f22\\u8a9e\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"漢語\"", "[]", "{}", "[1,\"a\",null,true,{\"k\":[]}]",
        "{\"text\": \"hello\", \"n\": 1}", " \t\r\n{ \"a\" : [ 1 , 2 ] } \n", "[[[[[]]]]]",
    ])
    func acceptsValidJSON(text: String) {
        #expect(JSONSyntax.isValid(bytes(text)))
        // Cross-check with Foundation, which parses the same grammar.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil)
    }

    @Test(arguments: [
        "", " ", "01", "-", "1.", ".5", "1e", "1e+", "+1", "tru", "nul", "True", "\"unterminated", "\"tab\there\"",
        "\"\\x\"", "\"\\u12G4\"", "\"\\u12\"", "[", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{a:1}", "{\"a\":1,}",
        "[1 2]", "1 2", "\"a\"\"b\"", "yay!", "Pubnub Messaging API 1", "{\"a\":1}x", "NaN", "Infinity",
    ])
    func rejectsInvalidJSON(text: String) {
        #expect(!JSONSyntax.isValid(bytes(text)))
    }

    /// Nesting up to the limit is accepted; one level deeper is refused instead of recursing further.
    @Test func nestingLimit() {
        let depth = JSONSyntax.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(JSONSyntax.isValid(bytes(deepest)))
        let tooDeep = "[" + deepest + "]"
        #expect(!JSONSyntax.isValid(bytes(tooDeep)))
    }

    /// Non-contiguous input (a lazy collection) is accepted.
    @Test func nonContiguousInput() {
        #expect(JSONSyntax.isValid("[true]".utf8.lazy.map { $0 }))
    }
}
