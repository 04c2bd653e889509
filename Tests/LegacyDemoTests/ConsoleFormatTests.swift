import Foundation
import PubNubLegacy
import Testing

@testable import LegacyDemo

/// The console's value formatting (`ConsoleFormat.swift`): stable, greppable fields.
@Suite struct ConsoleFormatTests {
    @Test func channelListsAreSortedAndNeverEmpty() {
        #expect(ConsoleFormat.channels(PNChannel.channelsWithNames(["b", "a", "c"])) == "a,b,c")
        #expect(ConsoleFormat.channels([]) == "-")
        #expect(ConsoleFormat.channels(nil) == "-")
    }

    @Test func payloadsAreCompactJSONWithSortedKeys() {
        #expect(ConsoleFormat.json("hello") == "\"hello\"")
        #expect(ConsoleFormat.json(["z": 1, "a": [true, "x/y"]] as [String: Any]) == "{\"a\":[true,\"x/y\"],\"z\":1}")
        #expect(ConsoleFormat.json(NSNull()) == "null")
        #expect(ConsoleFormat.json(nil) == "null")
        #expect(ConsoleFormat.quoted("say \"hi\"\n") == "\"say \\\"hi\\\"\\n\"")
    }

    @Test func errorsShowCodeAndDescription() {
        let error = PNError.errorWithCode(kPNRequestExecutionFailedClientNotReadyError)
        #expect(ConsoleFormat.error(error) == "error=105 description=\"PubNub client can't perform request\"")
        #expect(ConsoleFormat.error(nil) == "error=-")
    }

    @Test func subscriptionStatesAndParticipants() {
        #expect(ConsoleFormat.state(.PNSubscriptionProcessSubscribedState) == "subscribed")
        #expect(ConsoleFormat.state(.PNSubscriptionProcessNotSubscribedState) == "not-subscribed")
        #expect(
            ConsoleFormat.participants(["u2", "u1"], PNChannel.channelWithName("a")) == "channel=a count=2 uuids=u1,u2"
        )
        #expect(ConsoleFormat.participants(nil, nil) == "channel=- count=0 uuids=-")
        #expect(ConsoleFormat.token(PNDate(timeToken: 17_000_000_000_000_000)) == "17000000000000000")
        #expect(ConsoleFormat.token(nil) == "-")
    }
}
