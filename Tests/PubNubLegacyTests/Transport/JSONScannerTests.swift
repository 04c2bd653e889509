import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct JSONScannerTests {
    /// The range `skipValue` reports for `text`, as text; nil when it refuses the value or leaves bytes after it.
    static func skipped(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer -> String? in
            var scanner = JSONScanner(buffer)
            guard let range = scanner.skipValue(), scanner.isAtEnd() else { return nil }
            return String(decoding: bytes[range], as: UTF8.self)
        }
    }

    @Test(
        arguments: [
            "0", "-1.5e+3", "123456789012345678901234567890", "1e999999", "true", "false", "null", #""""#,
            #""\ud800""#, #""\udc00x""#, #""a\"b\\c\/\b\f\n\r\t\u00e9""#, "[]", "{}", "[1,[2,[3]],{}]",
            #"{"a":{"b":[1,{"c":null}]},"d":"e"}"#, " [ 1 , 2 ] ",
        ]
    )
    func skipsEveryWellFormedValueWhole(text: String) {
        #expect(Self.skipped(text) == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(
        arguments: [
            "", "[", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{1:2}", "[}", "{]", "01", "1.", "1e", "-",
            "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12g4\"", "\"tab\there\"", "'a'", "[1]]",
        ]
    )
    func refusesMalformedText(text: String) {
        #expect(Self.skipped(text) == nil)
    }

    @Test func deepNestingIsSkippedWithoutRecursion() {
        // Far deeper than any recursive parser's stack allows on a secondary thread.
        let depth = 200_000
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        #expect(Self.skipped(text)?.count == text.count)
        #expect(Self.skipped(String(repeating: "[", count: depth)) == nil)
    }

    @Test func readStringDecodesEscapesAndRefusesLoneSurrogates() {
        func read(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBytes { buffer in
                var scanner = JSONScanner(buffer)
                return scanner.readString()
            }
        }
        #expect(read(#""plain""#) == "plain")
        #expect(read(#""a\nb\u00e9\ud83d\ude00""#) == "a\nbé😀")
        #expect(read(#""\ud800""#) == nil)
        #expect(read(#""\udc00x""#) == nil)
        #expect(read("1") == nil)
        // Raw (unescaped) UTF-8 beside ASCII: the ASCII fast path must not take it, nor refuse it.
        #expect(read("\"caf\u{E9} \u{1F600}\"") == "café 😀")
        for invalid: [UInt8] in [[0x22, 0x61, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x80, 0x61, 0x22]] {
            #expect(
                invalid.withUnsafeBytes { buffer in
                    var scanner = JSONScanner(buffer)
                    return scanner.readString()
                } == nil
            )
        }
        let latin1: [UInt8] = [0x22, 0xFF, 0x22]
        #expect(
            latin1.withUnsafeBytes { buffer in
                var scanner = JSONScanner(buffer)
                return scanner.readString()
            } == nil
        )
    }

    @Test func objectsAndArraysAreWalkedMemberByMember() {
        let text = #"{"t":{"t":"15","r":2},"m":[1,"x",{"y":[]}],"z":null}"#
        var keys: [String] = []
        var elements: [String] = []
        let ok = Array(text.utf8).withUnsafeBytes { buffer -> Bool in
            var scanner = JSONScanner(buffer)
            let read = scanner.readObject { key, scanner in
                keys.append(key)
                guard key == "m" else { return scanner.skipValue() != nil }
                return scanner.readArray { scanner in
                    guard let range = scanner.skipValue() else { return false }
                    elements.append(String(decoding: Array(text.utf8)[range], as: UTF8.self))
                    return true
                }
            }
            return read && scanner.isAtEnd()
        }
        #expect(ok)
        #expect(keys == ["t", "m", "z"])
        #expect(elements == ["1", #""x""#, #"{"y":[]}"#])
    }
}
