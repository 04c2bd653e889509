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

    @Test func otherSchemesAndBadAuthoritiesAreRefused() {
        #expect(Self.target("ftp://127.0.0.1/") == nil)
        #expect(Self.target("https://") == nil)
        #expect(Self.target("http://:80/") == nil)
        #expect(Self.target("http://host:0/") == nil)
        #expect(Self.target("http://host:99999/") == nil)
    }
}
