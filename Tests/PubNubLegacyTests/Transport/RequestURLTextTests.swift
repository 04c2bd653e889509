import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// `RequestURLText` must give `URL(string:)`'s verdict and text on every input, only faster for the requests the engine
/// makes.
@Suite struct RequestURLTextTests {
    /// Characters that make origins and paths interesting to `URL(string:)`: delimiters, brackets, escapes, spaces,
    /// controls and non-ASCII.
    static let alphabet: [Character] = Array("ab1Z-._~!$&'()*+,;=:@/?#[]%%2fF0 \"<>\\^`{|}\u{7F}\u{1}é😀")

    static func randomText(_ generator: inout SeededGenerator, maximumLength: Int) -> String {
        let length = Int.random(in: 0...maximumLength, using: &generator)
        return String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator) ?? "a" })
    }

    /// An origin `PNConfiguration.parsePlainOrigin` reads is taken without asking `URL(string:)`, which takes it as
    /// it is: the same text, with either scheme.
    @Test func plainOriginsNeedNoURLParse() {
        var plain = 0
        for origin in PNConfigurationValidationTests.plainFormOrigins {
            for secure in [false, true] {
                let text = (secure ? "https://" : "http://") + origin + "/time/0"
                let expected = origin.isEmpty ? nil : URL(string: text)?.absoluteString
                #expect(
                    RequestURLText.make(secure: secure, origin: origin, pathAndQuery: "/time/0") == expected,
                    "\(text.debugDescription)"
                )
                if PNConfiguration.parsePlainOrigin(origin) != nil {
                    #expect(expected == text, "\(text.debugDescription)")
                    plain += 1
                }
            }
        }
        #expect(plain > 2_000)
    }

    @Test func agreesWithURLStringOnRandomOriginsAndPaths() {
        let seed: UInt64 = 0x0051_7e77
        var generator = SeededGenerator(seed: seed)
        let origins = ["127.0.0.1:8090", "ps.pndsn.com", "[::1]:80", "host:", "a b", "h%zz", "u@h", "h#f", "h?q", ""]
        var plainAccepted = 0
        for round in 0..<6_000 {
            let origin =
                round % 3 == 0 ? Self.randomText(&generator, maximumLength: 12) : origins[round % origins.count]
            var path = "/" + Self.randomText(&generator, maximumLength: 24)
            if round % 2 == 0 { path = "/publish/p/s/0/" + PercentEncoding.escape(path) + "/0?uuid=" + origin }
            if round % 7 == 0 { path = Self.randomText(&generator, maximumLength: 8) }
            let secure = round % 5 == 0
            let text = (secure ? "https://" : "http://") + origin + path
            // What the engine sent before: the text of `URL(string:)`'s URL.
            let expected = origin.isEmpty ? nil : URL(string: text)?.absoluteString
            #expect(
                RequestURLText.make(secure: secure, origin: origin, pathAndQuery: path) == expected,
                "seed \(seed), round \(round): \(text.debugDescription)"
            )
            if expected != nil, RequestURLText.isPlainPathAndQuery(path) { plainAccepted += 1 }
        }
        // The fast path is taken for much of what the engine makes, so the comparison above covers it.
        #expect(plainAccepted > 1_000)
    }

    @Test func everyEndpointOfTheEngineTakesThePlainPath() throws {
        let context = EndpointContext(
            origin: "127.0.0.1:8090",
            secure: false,
            publishKey: "pub key/é",
            subscribeKey: "sub?key",
            uuid: "u u#1",
            authKey: "a&b=c"
        )
        let endpoints: [Endpoint] = [
            .time,
            .publish(channel: "ch/1 é,😀", message: #"{"a":"b c/%"}"#, method: .get),
            .publish(channel: "ch", message: "[1]", method: .post),
        ]
        for endpoint in endpoints {
            let target = endpoint.target(in: context)
            #expect(RequestURLText.isPlainPathAndQuery(target.pathAndQuery), "\(target.pathAndQuery)")
            let request = try #require(endpoint.request(in: context, timeout: 5))
            #expect(request.url.absoluteString == request.urlText)
        }
    }

    @Test func anOriginURLStringRefusesGivesNoRequest() {
        for origin in ["a b", "h%zz", "[::1", ""] {
            let request = Endpoint.time.request(
                in: EndpointContext(
                    origin: origin,
                    secure: false,
                    publishKey: "p",
                    subscribeKey: "s",
                    uuid: "u",
                    authKey: ""
                ),
                timeout: 5
            )
            #expect(request == nil, "\(origin)")
        }
    }
}
