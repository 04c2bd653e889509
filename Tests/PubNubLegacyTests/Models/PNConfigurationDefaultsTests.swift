import TestSupport
import Testing

@testable import PubNubLegacy

/// The constants of 3.4's `PNDefaultConfiguration.h` (docs/API-3.4.md §2.7.1), with this package's two security
/// changes and its default origin (docs/DESIGN.md §3, §5).
@Suite(.serialized, .sharedProcessState) struct PNConfigurationDefaultsTests {
    @Test func constantsHaveTheirValues() {
        #expect(kPNOriginHost == "pubsub.pubnub.com")
        #expect(kPNDefaultOriginHost == "pubsub.pubnub.com")
        #expect(kPNPublishKey == "demo")
        #expect(kPNSubscriptionKey == "demo")
        #expect(kPNSecretKey == nil)
        #expect(kPNCipherKey == nil)
        #expect(kPNAuthorizationKey == nil)
        #expect(kPNSecureConnectionRequired)
        #expect(kPNShouldAutoReconnectClient)
        #expect(kPNShouldResubscribeOnConnectionRestore)
        #expect(kPNShouldRestoreSubscriptionFromLastTimeToken)
        #expect(kPNShouldAcceptCompressedResponse)
        #expect(kPNConnectionIdleTimeout == 310)
        #expect(kPNNonSubscriptionRequestTimeout == 10)
        #expect(kPNSubscriptionRequestTimeout == 10)
    }

    @Test func tlsDowngradesAreOffByDefault() {
        #expect(!kPNShouldReduceSecurityLevelOnError)
        #expect(!kPNCanIgnoreSecureConnectionRequirement)
    }

    /// A ported app replaces its edited `PNDefaultConfiguration.h` by assigning the globals once (issue 13, item 4);
    /// `defaultConfiguration()` and every constructor read them when they are called.
    @Test func assignedDefaultsReachTheConfigurationsCreatedAfterwards() throws {
        let saved = Saved()
        defer { saved.restore() }
        kPNOriginHost = "app.example:8090"
        kPNDefaultOriginHost = "default.example"
        kPNPublishKey = "pub-app"
        kPNSubscriptionKey = "sub-app"
        kPNSecretKey = "sec-app"
        kPNCipherKey = "cipher-app"
        kPNAuthorizationKey = "auth-app"
        kPNSecureConnectionRequired = false
        kPNShouldAutoReconnectClient = false
        kPNShouldResubscribeOnConnectionRestore = false
        kPNShouldRestoreSubscriptionFromLastTimeToken = false
        kPNShouldAcceptCompressedResponse = false
        kPNShouldReduceSecurityLevelOnError = true
        kPNCanIgnoreSecureConnectionRequirement = true
        kPNConnectionIdleTimeout = 120
        kPNNonSubscriptionRequestTimeout = 3
        kPNSubscriptionRequestTimeout = 4

        let configuration = PNConfiguration.defaultConfiguration()
        #expect(configuration.origin == "app.example:8090")
        #expect(configuration.publishKey == "pub-app")
        #expect(configuration.subscriptionKey == "sub-app")
        #expect(configuration.secretKey == "sec-app")
        #expect(configuration.cipherKey == "cipher-app")
        #expect(configuration.authorizationKey == "auth-app")
        #expect(!configuration.useSecureConnection)
        #expect(!configuration.autoReconnectClient)
        #expect(!configuration.resubscribeOnConnectionRestore)
        #expect(!configuration.restoreSubscriptionFromLastTimeToken)
        #expect(!configuration.acceptCompressedResponse)
        #expect(configuration.reduceSecurityLevelOnError)
        #expect(configuration.ignoreSecureConnectionRequirement)
        #expect(configuration.subscribeMaximumIdleTime == 120)
        #expect(configuration.nonSubscriptionRequestTimeout == 3)
        #expect(configuration.subscriptionRequestTimeout == 4)
        #expect(configuration.isValid())

        // The key-only constructors use the default origin and the cipher and auth defaults, as 3.4's did.
        let keysOnly = PNConfiguration.configurationWithPublishKey("p", subscribeKey: "s", secretKey: nil)
        #expect(keysOnly.origin == "default.example")
        #expect(keysOnly.cipherKey == "cipher-app")
        #expect(keysOnly.authorizationKey == "auth-app")
        #expect(!keysOnly.useSecureConnection)
        #expect(
            PNConfiguration(origin: nil, publishKey: "p", subscribeKey: "s", secretKey: nil, cipherKey: nil).origin
                == "default.example"
        )
        let explicit = PNConfiguration.configurationForOrigin(
            "o.example",
            publishKey: "p",
            subscribeKey: "s",
            secretKey: nil
        )
        #expect(explicit.cipherKey == "cipher-app")
        #expect(explicit.authorizationKey == "auth-app")

        // Configurations created before the change keep their values.
        saved.restore()
        #expect(PNConfiguration.defaultConfiguration().origin == "pubsub.pubnub.com")
        #expect(configuration.origin == "app.example:8090")
    }

    @Test func defaultsCanBeAssignedFromManyThreads() async {
        let saved = Saved()
        defer { saved.restore() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        kPNPublishKey = "pub-\(index)-\(round)"
                        _ = PNConfiguration.defaultConfiguration().publishKey
                    }
                }
            }
        }
        #expect(kPNPublishKey.hasPrefix("pub-"))
    }

    /// The defaults at the start of a test, put back by `restore()`.
    private struct Saved {
        let values:
            (String, String, String, String, String?, String?, String?, Bool, Bool, Bool, Bool, Bool, Bool, Bool)
        let timeouts: (Double, Double, Double)

        init() {
            self.values = (
                kPNOriginHost, kPNDefaultOriginHost, kPNPublishKey, kPNSubscriptionKey, kPNSecretKey, kPNCipherKey,
                kPNAuthorizationKey, kPNSecureConnectionRequired, kPNShouldAutoReconnectClient,
                kPNShouldResubscribeOnConnectionRestore, kPNShouldRestoreSubscriptionFromLastTimeToken,
                kPNShouldAcceptCompressedResponse, kPNShouldReduceSecurityLevelOnError,
                kPNCanIgnoreSecureConnectionRequirement
            )
            self.timeouts = (kPNConnectionIdleTimeout, kPNNonSubscriptionRequestTimeout, kPNSubscriptionRequestTimeout)
        }

        func restore() {
            (
                kPNOriginHost, kPNDefaultOriginHost, kPNPublishKey, kPNSubscriptionKey, kPNSecretKey, kPNCipherKey,
                kPNAuthorizationKey, kPNSecureConnectionRequired, kPNShouldAutoReconnectClient,
                kPNShouldResubscribeOnConnectionRestore, kPNShouldRestoreSubscriptionFromLastTimeToken,
                kPNShouldAcceptCompressedResponse, kPNShouldReduceSecurityLevelOnError,
                kPNCanIgnoreSecureConnectionRequirement
            ) = self.values
            (kPNConnectionIdleTimeout, kPNNonSubscriptionRequestTimeout, kPNSubscriptionRequestTimeout) = self.timeouts
        }
    }
}
