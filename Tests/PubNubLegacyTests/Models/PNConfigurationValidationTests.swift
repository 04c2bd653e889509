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
