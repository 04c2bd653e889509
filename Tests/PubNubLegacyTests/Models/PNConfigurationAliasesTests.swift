import TestSupport
import Testing

@testable import PubNubLegacy

@Suite(.serialized, .sharedProcessState) struct PNConfigurationAliasesTests {
    static func configuration() -> PNConfiguration {
        PNConfiguration.configurationForOrigin("o.example", publishKey: "p", subscribeKey: "s", secretKey: nil)
    }

    @Test func threeFourGetterNamesReadTheirProperty() {
        let configuration = Self.configuration()
        for value in [false, true] {
            configuration.resubscribeOnConnectionRestore = value
            configuration.restoreSubscriptionFromLastTimeToken = !value
            configuration.ignoreSecureConnectionRequirement = value
            configuration.reduceSecurityLevelOnError = !value
            configuration.useSecureConnection = value
            configuration.autoReconnectClient = !value
            configuration.acceptCompressedResponse = value
            #expect(configuration.shouldResubscribeOnConnectionRestore == value)
            #expect(configuration.shouldRestoreSubscriptionFromLastTimeToken == !value)
            #expect(configuration.canIgnoreSecureConnectionRequirement == value)
            #expect(configuration.shouldReduceSecurityLevelOnError == !value)
            #expect(configuration.shouldUseSecureConnection == value)
            #expect(configuration.shouldAutoReconnectClient == !value)
            #expect(configuration.shouldAcceptCompressedResponse == value)
        }
    }

    @Test func fourXNamesWriteTheThreeFourSettings() {
        let configuration = Self.configuration()
        configuration.restoreSubscription = false
        #expect(!configuration.resubscribeOnConnectionRestore)
        configuration.catchUpOnSubscriptionRestore = false
        #expect(!configuration.restoreSubscriptionFromLastTimeToken)
        configuration.TLSEnabled = false
        #expect(!configuration.useSecureConnection)
        configuration.authKey = "secret-auth"
        #expect(configuration.authorizationKey == "secret-auth")
    }

    @Test func threeFourNamesWriteTheFourXSettings() {
        let configuration = Self.configuration()
        configuration.resubscribeOnConnectionRestore = false
        #expect(!configuration.restoreSubscription)
        configuration.restoreSubscriptionFromLastTimeToken = false
        #expect(!configuration.catchUpOnSubscriptionRestore)
        configuration.useSecureConnection = false
        #expect(!configuration.TLSEnabled)
        configuration.authorizationKey = "a"
        #expect(configuration.authKey == "a")
        configuration.resubscribeOnConnectionRestore = true
        #expect(configuration.restoreSubscription)
    }
}
