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
