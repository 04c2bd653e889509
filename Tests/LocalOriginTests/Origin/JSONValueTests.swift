import Foundation
import Testing

@testable import LocalOrigin

@Suite struct JSONValueTests {
    @Test func writesCompactJSONInMemberOrder() {
        let value: JSONValue = .object([
            "z": .int(1), "a": .array([.null, .bool(true), .bool(false), .string("x")]), "raw": .raw("{\"k\":[1]}"),
        ])
        #expect(value.serialized == "{\"z\":1,\"a\":[null,true,false,\"x\"],\"raw\":{\"k\":[1]}}")
    }

    @Test func escapesStringsSoFoundationReadsThemBack() throws {
        let text = "quote\" back\\ nl\n cr\r tab\t bell\u{07} ls\u{2028} é 😀 /"
        let bytes = JSONValue.array([.string(text)]).serializedBytes
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String]
        #expect(parsed == [text])
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{2028}"))
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = "{\"a\":[1,2.5,\"s\",{\"n\":null}],\"b\":true}"
        #expect(try JSONParser.parse(text).serialized == text)
    }

    @Test func timetokensAreWrittenAsExactIntegers() {
        #expect(JSONValue.timetoken(14818963579052943).serialized == "14818963579052943")
        #expect(JSONValue.timetoken(UInt64.max).serialized == "18446744073709551615")
    }
}
