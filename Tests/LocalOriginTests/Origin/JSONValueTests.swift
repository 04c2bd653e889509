import Foundation
import TestSupport
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

    @Test func escapesExactlyWhatTheScalarRulesSay() throws {
        // The rules, one scalar at a time: quote, backslash and the C0 controls escaped (the short forms where JSON
        // has them), U+2028 and U+2029 as `\u2028` and `\u2029`, everything else as its own UTF-8.
        func expected(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0x08: out += "\\b"
                case 0x0C: out += "\\f"
                case 0x00..<0x20, 0x2028, 0x2029: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let alphabet: [Unicode.Scalar] = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}", "\u{7F}",
            "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{E2}", "\u{80}", "é", "€", "😀", "/",
        ]
        var generator = SeededGenerator(seed: 0x2028)
        for round in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator) ?? "a")
            }
            var out: [UInt8] = []
            JSONValue.writeString(text, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == expected(text), "round \(round): \(text.debugDescription)")
        }
    }
}
