import Dispatch
import TestSupport
import Testing

@testable import PubNubLegacy

@Suite(.serialized, .sharedProcessState) struct PNConfigurationSettingsTests {
    @Test func fourXAndLayerSettingsAreStored() {
        let configuration = PNConfiguration.defaultConfiguration()
        let queue = DispatchQueue(label: "delivery")
        configuration.uuid = "user-1"
        configuration.subscribeMaximumIdleTime = 60
        configuration.keepTimeTokenOnListChange = false
        configuration.requestMessageCountThreshold = 100
        configuration.presenceHeartbeatValue = 120
        configuration.presenceHeartbeatInterval = 59
        configuration.deliveryQueue = queue
        configuration.useRandomInitializationVector = true
        configuration.cryptoBackwardCompatibilityMode = true
        #expect(configuration.uuid == "user-1")
        #expect(configuration.subscribeMaximumIdleTime == 60)
        #expect(!configuration.keepTimeTokenOnListChange)
        #expect(configuration.requestMessageCountThreshold == 100)
        #expect(configuration.presenceHeartbeatValue == 120)
        #expect(configuration.presenceHeartbeatInterval == 59)
        #expect(configuration.deliveryQueue === queue)
        #expect(configuration.useRandomInitializationVector)
        #expect(configuration.cryptoBackwardCompatibilityMode)
    }

    @Test func threeThreeCompatibilityFollowsTheCompileCondition() {
        #if CRYPTO_BACKWARD_COMPATIBILITY_MODE
        #expect(PNConfiguration.defaultConfiguration().cryptoBackwardCompatibilityMode)
        #else
        #expect(!PNConfiguration.defaultConfiguration().cryptoBackwardCompatibilityMode)
        #endif
    }

    @Test func everySettingTakesPartInEquality() {
        let base = PNConfiguration.defaultConfiguration()
        let changes: [(PNConfiguration) -> Void] = [
            { $0.uuid = "u" }, { $0.subscribeMaximumIdleTime = 1 }, { $0.keepTimeTokenOnListChange = false },
            { $0.requestMessageCountThreshold = 1 }, { $0.presenceHeartbeatValue = 1 },
            { $0.presenceHeartbeatInterval = 1 }, { $0.deliveryQueue = DispatchQueue(label: "q") },
            { $0.useRandomInitializationVector.toggle() }, { $0.cryptoBackwardCompatibilityMode.toggle() },
            { $0.cipherKey = "c" }, { $0.authorizationKey = "a" }, { $0.nonSubscriptionRequestTimeout = 1 },
            { $0.subscriptionRequestTimeout = 1 }, { $0.resubscribeOnConnectionRestore = false },
            { $0.restoreSubscriptionFromLastTimeToken = false }, { $0.ignoreSecureConnectionRequirement = true },
            { $0.reduceSecurityLevelOnError = true }, { $0.autoReconnectClient = false },
            { $0.acceptCompressedResponse = false }, { $0.useSecureConnection = false },
        ]
        for change in changes {
            let changed = base.copy()
            change(changed)
            #expect(changed != base)
        }
    }
}
