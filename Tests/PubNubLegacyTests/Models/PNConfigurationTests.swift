import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

@Suite(.serialized, .sharedProcessState) struct PNConfigurationTests {
    static func keys(_ origin: String? = "example.pubnub.com") -> PNConfiguration {
        PNConfiguration.configurationForOrigin(origin, publishKey: "pub", subscribeKey: "sub", secretKey: nil)
    }

    @Test func defaultConfigurationUsesTheDemoKeysAndTheDefaultOrigin() {
        let configuration = PNConfiguration.defaultConfiguration()
        #expect(configuration.origin == "pubsub.pubnub.com")
        #expect(configuration.publishKey == "demo")
        #expect(configuration.subscriptionKey == "demo")
        #expect(configuration.secretKey == "0")
        #expect(configuration.cipherKey == "")
        #expect(configuration.authorizationKey == "")
        #expect(configuration.isValid())
    }

    @Test func everyConstructorStartsWithTheDefaultFlagsAndTimeouts() {
        let all: [PNConfiguration] = [
            .defaultConfiguration(),
            .configurationWithPublishKey("p", subscribeKey: "s", secretKey: "k"),
            .configurationWithPublishKey("p", subscribeKey: "s", secretKey: "k", authorizationKey: "a"),
            .configurationForOrigin("o", publishKey: "p", subscribeKey: "s", secretKey: "k"),
            .configurationForOrigin("o", publishKey: "p", subscribeKey: "s", secretKey: "k", authorizationKey: "a"),
            .configurationForOrigin("o", publishKey: "p", subscribeKey: "s", secretKey: "k", cipherKey: "c"),
            .configurationForOrigin(
                "o",
                publishKey: "p",
                subscribeKey: "s",
                secretKey: "k",
                cipherKey: "c",
                authorizationKey: "a"
            ),
            PNConfiguration(origin: "o", publishKey: "p", subscribeKey: "s", secretKey: "k", cipherKey: "c"),
            PNConfiguration(
                origin: "o",
                publishKey: "p",
                subscribeKey: "s",
                secretKey: "k",
                cipherKey: "c",
                authorizationKey: "a"
            ),
        ]
        #expect(all.count == 9)
        for configuration in all {
            #expect(configuration.nonSubscriptionRequestTimeout == 10)
            #expect(configuration.subscriptionRequestTimeout == 10)
            #expect(configuration.subscribeMaximumIdleTime == 310)
            #expect(configuration.useSecureConnection)
            #expect(configuration.autoReconnectClient)
            #expect(configuration.resubscribeOnConnectionRestore)
            #expect(configuration.restoreSubscriptionFromLastTimeToken)
            #expect(configuration.acceptCompressedResponse)
            #expect(!configuration.reduceSecurityLevelOnError)
            #expect(!configuration.ignoreSecureConnectionRequirement)
            #expect(configuration.keepTimeTokenOnListChange)
            #expect(configuration.requestMessageCountThreshold == 0)
            #expect(configuration.presenceHeartbeatValue == 300)
            #expect(configuration.presenceHeartbeatInterval == 0)
            #expect(configuration.uuid == nil)
            #expect(!configuration.useRandomInitializationVector)
            #expect(configuration.deliveryQueue.label == DispatchQueue.main.label)
        }
    }

    @Test func constructorsFillInTheThreeFourFallbacks() {
        let configuration = PNConfiguration(
            origin: nil,
            publishKey: nil,
            subscribeKey: nil,
            secretKey: nil,
            cipherKey: nil,
            authorizationKey: nil
        )
        #expect(configuration.origin == kPNDefaultOriginHost)
        #expect(configuration.publishKey == "")
        #expect(configuration.subscriptionKey == "")
        #expect(configuration.secretKey == "0")
        #expect(configuration.cipherKey == "")
        #expect(configuration.authorizationKey == "")
        #expect(Self.keys("").origin == kPNDefaultOriginHost)
        #expect(
            PNConfiguration.configurationWithPublishKey("p", subscribeKey: "s", secretKey: nil).origin
                == "pubsub.pubnub.com"
        )
    }

    @Test func constructorsKeepTheirArguments() {
        let configuration = PNConfiguration.configurationForOrigin(
            "127.0.0.1:8090",
            publishKey: "pub",
            subscribeKey: "sub",
            secretKey: "sec",
            cipherKey: "enigma",
            authorizationKey: "auth"
        )
        #expect(configuration.origin == "127.0.0.1:8090")
        #expect(configuration.publishKey == "pub")
        #expect(configuration.subscriptionKey == "sub")
        #expect(configuration.secretKey == "sec")
        #expect(configuration.cipherKey == "enigma")
        #expect(configuration.authorizationKey == "auth")
    }

    @Test func separatelyBuiltDefaultsAreEqual() {
        #expect(PNConfiguration.defaultConfiguration() == PNConfiguration.defaultConfiguration())
        let explicitMain = PNConfiguration.defaultConfiguration()
        explicitMain.deliveryQueue = DispatchQueue.main
        #expect(explicitMain == PNConfiguration.defaultConfiguration())
        explicitMain.deliveryQueue = DispatchQueue(label: "other")
        #expect(explicitMain != PNConfiguration.defaultConfiguration())
    }

    @Test func copyIsIndependentAndEqual() throws {
        let original = Self.keys()
        original.cipherKey = "enigma"
        original.requestMessageCountThreshold = 100
        original.deliveryQueue = DispatchQueue(label: "delivery")
        let copy = try #require(original.copy() as? PNConfiguration)
        #expect(copy !== original)
        #expect(copy == original)
        #expect(copy.deliveryQueue === original.deliveryQueue)
        copy.cipherKey = "other"
        #expect(original.cipherKey == "enigma")
        #expect(copy != original)
    }

    @Test func settersChangeOnlyTheirSetting() {
        let configuration = Self.keys()
        let reference = configuration.copied()
        configuration.subscriptionRequestTimeout = 20
        #expect(configuration.subscriptionRequestTimeout == 20)
        #expect(configuration.nonSubscriptionRequestTimeout == reference.nonSubscriptionRequestTimeout)
        configuration.subscriptionRequestTimeout = reference.subscriptionRequestTimeout
        #expect(configuration == reference)
        configuration.presenceHeartbeatValue = -5
        configuration.presenceHeartbeatInterval = -1
        #expect(configuration.presenceHeartbeatValue == 0)
        #expect(configuration.presenceHeartbeatInterval == 0)
    }

    @Test func descriptionListsOriginKeysAndCipher() {
        let configuration = PNConfiguration(
            origin: "o.example",
            publishKey: "",
            subscribeKey: "sub",
            secretKey: "",
            cipherKey: nil,
            authorizationKey: nil
        )
        #expect(
            configuration.description
                == "\nConfiguration for: o.example (secured: YES)\nPublish key (Required): -missing-"
                + "\nSubscription key (Required): sub\nSecret key (Required): -missing-\nCipher key: -no encription key-"
        )
    }

    @Test func descriptionAndDumpShowThatKeysAreSetButNeverTheKeys() {
        let secret = "sec-c-MzQ5YjJhZDgtNmZiNS00ZmQx"
        let cipher = "my cipher key 42"
        let auth = "auth-token-9f8e7d"
        let configuration = PNConfiguration(
            origin: "o.example",
            publishKey: "pub",
            subscribeKey: "sub",
            secretKey: secret,
            cipherKey: cipher,
            authorizationKey: auth
        )
        #expect(
            configuration.description
                == "\nConfiguration for: o.example (secured: YES)\nPublish key (Required): pub"
                + "\nSubscription key (Required): sub\nSecret key (Required): set (…ZmQx)\nCipher key: set (…y 42)"
        )
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [configuration.description, String(reflecting: configuration), "\(configuration)", dumped] {
            for key in [secret, cipher, auth] { #expect(!text.contains(key)) }
        }
        #expect(dumped.contains("set (…ZmQx)"))
        // Short keys show no character at all; the 3.4 "no secret" value `0` is not a secret.
        let short = PNConfiguration(
            origin: "o.example",
            publishKey: "pub",
            subscribeKey: "sub",
            secretKey: "K",
            cipherKey: "abcdefghij"
        )
        #expect(short.description.hasSuffix("Secret key (Required): set\nCipher key: set (…ij)"))
        #expect(Self.keys().description.contains("Secret key (Required): 0\n"))
    }

    @Test func usableFromManyThreadsAtOnce() {
        let configuration = Self.keys()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            configuration.requestMessageCountThreshold = UInt(index)
            configuration.authKey = "k\(index)"
            _ = configuration.copy()
            _ = configuration.isValid()
        }
        #expect(configuration.requestMessageCountThreshold < 200)
        #expect(configuration.authorizationKey.hasPrefix("k"))
    }
}
