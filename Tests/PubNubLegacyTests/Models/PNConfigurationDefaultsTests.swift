import Testing

@testable import PubNubLegacy

/// The constants of 3.4's `PNDefaultConfiguration.h` (docs/API-3.4.md §2.7.1), with this package's two security
/// changes and its default origin (docs/DESIGN.md §3, §5).
@Suite struct PNConfigurationDefaultsTests {
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
}
