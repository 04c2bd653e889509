import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

/// `PNConfiguration` is an `NSObject`, as in 3.4, so the lines 3.x code and PubNub's own 3.x tests wrote with it port
/// by the rule: `[a isEqual:b]` is `a.isEqual(b)`, `[a hash]` is `a.hash`, `[a copy]` is `a.copy()` (an `id`, so
/// `as! PNConfiguration` where the 3.x code assigned it to a `PNConfiguration *`).
@Suite(.serialized, .sharedProcessState) struct PNConfigurationObjectTests {
    static func make(cipherKey: String? = "enigma") -> PNConfiguration {
        PNConfiguration(
            origin: "example.pubnub.com",
            publishKey: "pub",
            subscribeKey: "sub",
            secretKey: "secret",
            cipherKey: cipherKey,
            authorizationKey: "auth"
        )
    }

    @Test func isEqualComparesEverySetting() {
        let configuration = Self.make()
        let twin = Self.make()
        let object: NSObject = configuration
        #expect(configuration !== twin)
        #expect(object.isEqual(twin))
        #expect(configuration == twin)
        #expect(configuration.hash == twin.hash)
        #expect(configuration.hashValue == twin.hashValue)
        #expect(!configuration.isEqual(Self.make(cipherKey: nil)))
        #expect(!configuration.isEqual(nil))
        #expect(!configuration.isEqual("example.pubnub.com"))
        twin.useSecureConnection = false
        #expect(!configuration.isEqual(twin))
        twin.useSecureConnection = true
        twin.deliveryQueue = DispatchQueue(label: "another queue")
        #expect(!configuration.isEqual(twin))
    }

    /// 3.5's `PNConfigurationTest.testIsEqual`, setting by setting: a configuration that differs in any one of the
    /// 3.4 settings is not equal.
    @Test(arguments: [
        "origin", "publishKey", "subscriptionKey", "secretKey", "cipherKey", "authorizationKey",
        "nonSubscriptionRequestTimeout", "subscriptionRequestTimeout", "resubscribeOnConnectionRestore",
        "restoreSubscriptionFromLastTimeToken", "ignoreSecureConnectionRequirement", "reduceSecurityLevelOnError",
        "useSecureConnection", "autoReconnectClient", "acceptCompressedResponse",
    ])
    func oneDifferentSettingMakesConfigurationsUnequal(setting: String) {
        let configuration = Self.make()
        let other = setting == "origin" || setting.hasSuffix("Key") ? Self.differing(in: setting) : Self.make()
        switch setting {
        case "nonSubscriptionRequestTimeout": other.nonSubscriptionRequestTimeout = 123
        case "subscriptionRequestTimeout": other.subscriptionRequestTimeout = 123
        case "resubscribeOnConnectionRestore": other.resubscribeOnConnectionRestore.toggle()
        case "restoreSubscriptionFromLastTimeToken": other.restoreSubscriptionFromLastTimeToken.toggle()
        case "ignoreSecureConnectionRequirement": other.ignoreSecureConnectionRequirement.toggle()
        case "reduceSecurityLevelOnError": other.reduceSecurityLevelOnError.toggle()
        case "useSecureConnection": other.useSecureConnection.toggle()
        case "autoReconnectClient": other.autoReconnectClient.toggle()
        case "acceptCompressedResponse": other.acceptCompressedResponse.toggle()
        default: break
        }
        #expect(!configuration.isEqual(other))
        #expect(!other.isEqual(configuration))
    }

    /// A configuration like `make()` but for one constructor argument.
    private static func differing(in argument: String) -> PNConfiguration {
        PNConfiguration(
            origin: argument == "origin" ? "other.pubnub.com" : "example.pubnub.com",
            publishKey: argument == "publishKey" ? "pub2" : "pub",
            subscribeKey: argument == "subscriptionKey" ? "sub2" : "sub",
            secretKey: argument == "secretKey" ? "secret2" : "secret",
            cipherKey: argument == "cipherKey" ? "enigma2" : "enigma",
            authorizationKey: argument == "authorizationKey" ? "auth2" : "auth"
        )
    }

    @Test func copyIsAnEqualIndependentConfiguration() throws {
        let configuration = Self.make()
        configuration.subscriptionRequestTimeout = 20
        configuration.presenceHeartbeatValue = 60
        let copied = try #require(configuration.copy() as? PNConfiguration)
        let zoned = try #require(configuration.copy(with: nil) as? PNConfiguration)
        #expect(copied !== configuration && zoned !== configuration && copied !== zoned)
        #expect(copied.isEqual(configuration) && zoned.isEqual(configuration))
        #expect(copied.hash == configuration.hash)
        copied.cipherKey = "other"
        #expect(configuration.cipherKey == "enigma")
        #expect(!copied.isEqual(configuration))
        #expect(zoned.subscriptionRequestTimeout == 20 && zoned.presenceHeartbeatValue == 60)
    }

    /// Equal configurations collapse in a set and find each other as dictionary keys (which Foundation copies).
    @Test func equalConfigurationsAreOneSetMemberAndOneKey() {
        let set = NSMutableSet()
        set.add(Self.make())
        set.add(Self.make())
        set.add(Self.make(cipherKey: nil))
        #expect(set.count == 2)
        let dictionary = NSMutableDictionary()
        dictionary[Self.make()] = "first"
        dictionary[Self.make()] = "second"
        #expect(dictionary.count == 1)
        #expect(dictionary[Self.make()] as? String == "second")
        #expect(Set([Self.make(), Self.make()]).count == 1)
    }

    /// `-description` (and so `%@` in `PNLog` and string interpolation) gives 3.4's text, with the keys redacted
    /// (docs/DESIGN.md §8), also through an `NSObject` reference.
    @Test func descriptionIsTheThreeFourTextWithRedactedKeys() {
        let configuration = Self.make()
        let object: NSObject = configuration
        let text = object.description
        #expect(text.hasPrefix("\nConfiguration for: example.pubnub.com (secured: YES)"))
        #expect(!text.contains("secret") && !text.contains("enigma"))
        #expect("\(configuration)" == text)
        #expect(String(describing: object) == text)
    }

    /// What 3.x's own `Configuration` test asserts after each `setConfiguration:` — `[configuration
    /// isEqual:[PubNub sharedInstance].configuration]` — holds, for the copy the client keeps.
    @Test func theConfigurationAClientKeepsIsEqualToTheOneItWasGiven() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        let client = PubNub(configuration: configuration)
        let kept = try #require(client.configuration)
        #expect(kept !== configuration)
        #expect(kept.isEqual(configuration))
        configuration.cipherKey = "changed afterwards"
        #expect(!configuration.isEqual(client.configuration))
    }
}
