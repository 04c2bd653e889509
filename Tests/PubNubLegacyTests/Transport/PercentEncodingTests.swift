import Testing

@testable import PubNubLegacy

@Suite struct PercentEncodingTests {
    @Test(
        arguments: [
            ("abcXYZ019-_.~", "abcXYZ019-_.~"),
            ("a b", "a%20b"),
            ("a+b", "a%2Bb"),
            ("50%", "50%25"),
            ("a,b/c", "a%2Cb%2Fc"),
            ("?&=#", "%3F%26%3D%23"),
            ("it's", "it%27s"),
            ("ü", "%C3%BC"),
            ("日本", "%E6%97%A5%E6%9C%AC"),
            ("😀", "%F0%9F%98%80"),
            ("line\nbreak", "line%0Abreak"),
            ("{\"k\":1}", "%7B%22k%22%3A1%7D"),
            ("", ""),
        ]
    )
    func escapesEverythingOutsideTheUnreservedSet(input: String, expected: String) {
        #expect(PercentEncoding.escape(input) == expected)
    }

    @Test func listJoinsEscapedNamesWithARawComma() {
        #expect(PercentEncoding.escapeList(["a,b", "c d", "e"]) == "a%2Cb,c%20d,e")
    }

    @Test func escapedTextDecodesBackToTheOriginal() {
        let samples = ["a b+c/d?e&f=g%h", "ünïcødé 😀", "tab\there", "'quoted'"]
        for sample in samples {
            #expect(PercentEncoding.escape(sample).removingPercentEncoding == sample)
        }
    }
}
