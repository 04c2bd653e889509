import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct HTTPTargetTests {
    static func target(_ text: String) -> HTTPTarget? {
        URL(string: text).flatMap { HTTPTarget(url: $0) }
    }

    @Test func escapesReachTheRequestLineUntouched() throws {
        let target = try #require(
            Self.target("http://127.0.0.1:8090/publish/a/b/0/ch%2Cx/0/%22hi%20there%22?uuid=a%2Fb#frag")
        )
        #expect(target.host == "127.0.0.1")
        #expect(target.port == 8090)
        #expect(target.hostHeader == "127.0.0.1:8090")
        #expect(target.pathAndQuery == "/publish/a/b/0/ch%2Cx/0/%22hi%20there%22?uuid=a%2Fb")
    }

    @Test func defaultPortAndEmptyPath() throws {
        let target = try #require(Self.target("HTTP://Origin.Example"))
        #expect(target.port == 80)
        #expect(target.hostHeader == "Origin.Example")
        #expect(target.pathAndQuery == "/")
        #expect(Self.target("http://h?x=1")?.pathAndQuery == "/?x=1")
    }

    @Test func ipv6HostsAreBracketedInTheHeaderOnly() throws {
        let target = try #require(Self.target("http://[::1]:9000/time/0"))
        #expect(target.host == "::1")
        #expect(target.hostHeader == "[::1]:9000")
        #expect(target.poolKey != Self.target("http://[::1]:9001/")?.poolKey)
    }

    @Test func httpsDefaultsToPort443AndPoolsApartFromHTTP() throws {
        let secure = try #require(Self.target("HTTPS://origin.example/time/0"))
        #expect(secure.secure)
        #expect(secure.port == 443)
        #expect(secure.hostHeader == "origin.example")
        let explicit = try #require(Self.target("https://127.0.0.1:8443/"))
        #expect(explicit.port == 8443 && explicit.hostHeader == "127.0.0.1:8443")
        #expect(Self.target("https://origin.example:443/")?.hostHeader == "origin.example")
        #expect(Self.target("http://origin.example:443/")?.hostHeader == "origin.example:443")
        #expect(Self.target("http://origin.example:443/")?.poolKey != Self.target("https://origin.example/")?.poolKey)
        #expect(Self.target("http://origin.example/")?.secure == false)
    }

    /// The `Host` header is the URL's `host:port` text where that spells the host and the number, and is made from
    /// them where it does not (user info, a port with leading zeros).
    @Test func theHostHeaderNamesTheHostAndThePortNumber() throws {
        #expect(HTTPTarget(urlText: "http://user:secret@origin.example:8080/x")?.hostHeader == "origin.example:8080")
        #expect(HTTPTarget(urlText: "http://user@[::1]:8080/x")?.hostHeader == "[::1]:8080")
        #expect(HTTPTarget(urlText: "http://origin.example:0080/x")?.hostHeader == "origin.example")
        #expect(HTTPTarget(urlText: "http://origin.example:00081/x")?.hostHeader == "origin.example:81")
        #expect(HTTPTarget(urlText: "https://origin.example:0443/x")?.hostHeader == "origin.example")
        let fragment = try #require(HTTPTarget(urlText: "http://h:81/a#b#c"))
        #expect(fragment.pathAndQuery == "/a" && fragment.hostHeader == "h:81")
        #expect(HTTPTarget(urlText: "http://h:81#only")?.pathAndQuery == "/")
    }

    @Test func otherSchemesAndBadAuthoritiesAreRefused() {
        #expect(HTTPTarget(urlText: "http://host:+80/") == nil)
        #expect(HTTPTarget(urlText: "http://host:8o/") == nil)
        #expect(HTTPTarget(urlText: "http://host:65536/") == nil)
        #expect(Self.target("ftp://127.0.0.1/") == nil)
        #expect(Self.target("https://") == nil)
        #expect(Self.target("http://:80/") == nil)
        #expect(Self.target("http://host:0/") == nil)
        #expect(Self.target("http://host:99999/") == nil)
    }
}
