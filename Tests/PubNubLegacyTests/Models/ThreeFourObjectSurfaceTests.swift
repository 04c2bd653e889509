import Foundation
import Testing

@testable import PubNubLegacy

/// Every class 3.4.2 handed to apps, checked against its 3.4.2 declaration for the `NSObject` surface that 3.x code
/// uses — `isEqual:`, `hash`, `copy` — as ported by the rule (`a.isEqual(b)`, `a.hash`, `a.copy()`); docs/API-3.4.md
/// §1.1 has the table. 3.4.2 overrode none of them: every class kept `NSObject`'s identity, none adopted `NSCopying`
/// (so `[object copy]` raised), and `PNError` inherited `NSError`'s. Here channels, dates and configurations compare
/// by value (A7 and the 3.5 rule, said in the table), and `hash` always agrees with `isEqual(_:)`.
@Suite struct ThreeFourObjectSurfaceTests {
    /// A way to make two instances of one class alike in every field.
    struct Twins: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable () -> NSObject

        var testDescription: String { self.name }
    }

    static let channelName = "surface-\(UUID().uuidString.prefix(8))"

    /// The classes that keep 3.4.2's identity comparison.
    static let comparedByIdentity: [Twins] = [
        Twins(name: "PubNub") { PubNub() },
        Twins(name: "PNMessage") {
            PNMessage(message: "m", channel: PNChannel.channelWithName(channelName), receiveDate: nil, timeToken: nil)
        },
        Twins(name: "PNPresenceEvent") {
            PNPresenceEvent(response: ["action": "join", "timestamp": 1, "uuid": "u", "occupancy": 1])
        },
        Twins(name: "PNHereNow") {
            PNHereNow(participants: ["u"], participantsCount: 1, channel: PNChannel.channelWithName(channelName))
        },
        Twins(name: "PNMessagesHistory") {
            PNMessagesHistory(
                startDate: nil,
                endDate: nil,
                channel: PNChannel.channelWithName(channelName),
                messages: []
            )
        },
    ]

    /// The classes that compare by value: twins are equal, with equal hashes.
    static let comparedByValue: [Twins] = [
        // A7: 3.4.2 compared cached instances; a fresh instance stands for one made after a cache purge.
        Twins(name: "PNChannel") { PNChannel(name: channelName) },
        Twins(name: "PNChannelPresence") { PNChannelPresence(name: channelName + "-pnpres") },
        Twins(name: "PNDate") { PNDate(timeToken: 13_600_000_000_000_000) },
        // The 3.5 rule, which 3.x's own tests assert (MIGRATION.md §10).
        Twins(name: "PNConfiguration") {
            PNConfiguration(
                origin: "example.pubnub.com",
                publishKey: "pub",
                subscribeKey: "sub",
                secretKey: nil,
                cipherKey: "key"
            )
        },
        // NSError's own rule: domain, code and userInfo.
        Twins(name: "PNError") { PNError(code: kPNAPIAccessForbiddenError) },
    ]

    @Test(arguments: comparedByIdentity) func comparesByIdentityAsIn342(_ twins: Twins) {
        let object = twins.make()
        let twin = twins.make()
        #expect(object.isEqual(object))
        #expect(!object.isEqual(twin))
        #expect(!object.isEqual(nil))
        #expect(object.hash == object.hash)
        #expect(NSSet(array: [object, twin, object]).count == 2)
        #expect(Set([object, twin, object]).count == 2)
        #expect(NSArray(array: [twin, object]).index(of: object) == 1)
    }

    @Test(arguments: comparedByValue) func comparesByValueWithAHashThatAgrees(_ twins: Twins) {
        let object = twins.make()
        let twin = twins.make()
        #expect(object !== twin)
        #expect(object.isEqual(twin))
        #expect(twin.isEqual(object))
        #expect(!object.isEqual(nil))
        #expect(object.hash == twin.hash)
        #expect(NSSet(array: [object, twin]).count == 1)
        #expect(Set([object, twin]).count == 1)
        let dictionary = NSMutableDictionary()
        dictionary[object] = "value"
        #expect(dictionary[twin] as? String == "value")
    }

    /// `[object copy]` ports as `object.copy()` for the classes that could be copied: a configuration copies
    /// itself (as from 3.5), an error is `NSError`'s immutable copy, the same object. The others, as in 3.4.2, do
    /// not adopt `NSCopying`.
    @Test func onlyConfigurationsAndErrorsCopy() throws {
        let configuration = try #require(Self.comparedByValue.first { $0.name == "PNConfiguration" }?.make())
        let copied = try #require(configuration.copy() as? PNConfiguration)
        #expect(copied !== configuration)
        #expect(copied.isEqual(configuration))
        let error = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        #expect(error.copy() as AnyObject === error)
        let copyable: [Any] = [configuration, error]
        #expect(copyable.allSatisfy { $0 is NSCopying })
        let notCopyable: [Any] = (Self.comparedByIdentity + Self.comparedByValue).filter {
            $0.name != "PNConfiguration" && $0.name != "PNError"
        }.map { $0.make() }
        #expect(notCopyable.count == 8)
        #expect(!notCopyable.contains { $0 is NSCopying })
    }

    /// Errors go into hashed collections as `NSError`s do on Apple platforms (on Linux `NSError`'s own `hash` traps).
    @Test func errorsHashByDomainAndCode() {
        let error = PNError(code: kPNAPIAccessForbiddenError)
        let nsErrors: Set<NSError> = [error, PNError(code: kPNAPIAccessForbiddenError), PNError(code: 106)]
        #expect(nsErrors.count == 2)
        #expect(error.hash != PNError(code: 106).hash)
        #expect(error.hashValue == PNError(code: kPNAPIAccessForbiddenError).hashValue)
    }
}
