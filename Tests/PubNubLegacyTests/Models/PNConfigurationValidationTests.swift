import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

@Suite(.serialized, .sharedProcessState) struct PNConfigurationValidationTests {
    static func configuration(
        origin: String? = "o.example",
        publishKey: String? = "p",
        subscribeKey: String? = "s",
        secretKey: String? = nil
    ) -> PNConfiguration {
        PNConfiguration.configurationForOrigin(
            origin,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey
        )
    }

    @Test func publishSubscribeAndSecretKeysAreRequired() throws {
        #expect(Self.configuration().isValid())
        #expect(Self.configuration().validationError() == nil)
        #expect(!Self.configuration(publishKey: nil).isValid())
        #expect(!Self.configuration(subscribeKey: "").isValid())
        #expect(!Self.configuration(secretKey: "").isValid())
        let error = try #require(Self.configuration(publishKey: "", secretKey: "").validationError())
        #expect(error.code == kPNClientConfigurationError)
        #expect(error.domain == kPNDefaultErrorDomain)
        #expect(
            error.localizedDescription
                == "Incomplete PubNub client configuration. Make sure you set the configuration correctly."
        )
        #expect(
            error.localizedFailureReason == "One of required configuration field is empty:\n- publish key\n- secret key"
        )
    }

    @Test(arguments: [
        "127.0.0.1:8090", "pubsub.pubnub.com", "localhost:1", "host:65535", "[::1]:8090", "[::1]", "ps.pndsn.com",
    ])
    func originsWithOptionalPortAreValid(_ origin: String) {
        #expect(Self.configuration(origin: origin).isValid())
    }

    @Test(arguments: [
        "http://x", "x/y", "x:0", "x:65536", "x:", "x:8a", ":80", "a b", "::1", "[::1", "[]:80", "x:+80", "u@x",
        "x:٣",
        // Found by the `client-arguments` fuzz target: characters no URL host can hold passed, and every request
        // then failed to build.
        "h\u{0}cct", "a\u{7F}b", "a<b>", "a|b", "a\"b", "a{b}", "a^b", "a`b",
    ])
    func malformedOriginsAreInvalid(_ origin: String) throws {
        let error = try #require(Self.configuration(origin: origin).validationError())
        #expect(error.code == kPNClientConfigurationError)
        #expect(error.localizedFailureReason.contains("origin '\(origin)'"))
    }

    @Test func originSplitsIntoHostAndPort() {
        let local = Self.configuration(origin: "127.0.0.1:8090")
        #expect(local.originHost == "127.0.0.1")
        #expect(local.originPort == 8090)
        let plain = Self.configuration(origin: "pubsub.pubnub.com")
        #expect(plain.originHost == "pubsub.pubnub.com")
        #expect(plain.originPort == nil)
        let ipv6 = Self.configuration(origin: "[::1]:9")
        #expect(ipv6.originHost == "[::1]")
        #expect(ipv6.originPort == 9)
    }

    /// Origins made of what `PNConfiguration.parsePlainOrigin` reads (letters, digits, `.`, `-`, `:`) and a few
    /// others: every string of up to 4 characters over `aZ09.-:`, and the edge cases of ports and lengths.
    static let plainFormOrigins: [String] = {
        let alphabet: [String] = ["a", "Z", "0", "9", ".", "-", ":"]
        var origins: [String] = [""]
        var last: [String] = [""]
        for _ in 1...4 {
            last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
            origins += last
        }
        return origins + [
            "pubsub.pubnub.com", "ps.pndsn.com:443", "127.0.0.1:8090", "x:00080", "x:65535", "x:065535", "x:65536",
            "x:0", "x:00000", "x:123456", "x:1:2", "999.999.999.999:1", "-.-", "..", "x::1", "é.example", "x:٣",
            String(repeating: "a", count: 300), String(repeating: "a.", count: 200) + "b:9",
        ]
    }()

    /// The byte-level reading of the usual origins (`parsePlainOrigin`, which keeps a client's start off `URL`'s
    /// parser) answers as the full one (`parseAnyOrigin`, with `URL`) wherever it answers, and answers for every
    /// origin of its form the full one accepts.
    @Test func plainOriginsParseAsTheFullParserDoes() {
        let origins = Self.plainFormOrigins
        var answered = 0
        for origin in origins {
            let full = PNConfiguration.parseAnyOrigin(origin)
            let plain = PNConfiguration.parsePlainOrigin(origin)
            #expect(plain == nil || (plain?.host == full?.host && plain?.port == full?.port), "\(origin)")
            let plainForm = origin.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x2E, 0x3A].contains(byte)
            }
            if full != nil, plainForm {
                #expect(plain != nil, "\(origin)")
            }
            answered += plain == nil ? 0 : 1
        }
        #expect(answered > 1_000)
    }

    @Test func timeoutsMustBePositive() throws {
        let configuration = Self.configuration()
        configuration.subscriptionRequestTimeout = 0
        configuration.nonSubscriptionRequestTimeout = .infinity
        configuration.subscribeMaximumIdleTime = -1
        let error = try #require(configuration.validationError())
        #expect(
            error.localizedFailureReason
                == "Some configuration values are invalid:"
                + "\n- nonSubscriptionRequestTimeout must be a positive number of seconds"
                + "\n- subscriptionRequestTimeout must be a positive number of seconds"
                + "\n- subscribeMaximumIdleTime must be a positive number of seconds"
        )
    }

    @Test func originTLSOrAuthKeyChangeNeedsAHardReset() {
        let current = Self.configuration()
        #expect(current.impactOfChange(to: current.copied()) == .none)
        #expect(!current.requiresConnectionResetWithConfiguration(current.copied()))
        #expect(!current.requiresConnectionResetWithConfiguration(nil))

        let otherOrigin = Self.configuration(origin: "other.example")
        #expect(current.impactOfChange(to: otherOrigin) == .hardReset)
        #expect(current.requiresConnectionResetWithConfiguration(otherOrigin))

        let plain = current.copied()
        plain.TLSEnabled = false
        #expect(current.impactOfChange(to: plain) == .hardReset)
        #expect(current.requiresConnectionResetWithConfiguration(plain))

        // The client reconnects on a new authorization key too (docs/API-3.4.md §4.7), as 3.5's
        // PNConfigurationTest expects of this method.
        let reauthorized = current.copied()
        reauthorized.authorizationKey = "another-auth"
        #expect(current.impactOfChange(to: reauthorized) == .hardReset)
        #expect(current.requiresConnectionResetWithConfiguration(reauthorized))
    }

    @Test func otherChangesApplyInPlace() {
        let current = Self.configuration()
        let rekeyed = Self.configuration(publishKey: "p2", subscribeKey: "s2", secretKey: "k2")
        #expect(current.impactOfChange(to: rekeyed) == .appliedInPlace)
        #expect(!current.requiresConnectionResetWithConfiguration(rekeyed))
        let other = current.copied()
        other.cipherKey = "enigma"
        other.subscriptionRequestTimeout = 30
        #expect(current.impactOfChange(to: other) == .appliedInPlace)
    }
}
