import Foundation
import Testing

@testable import PubNubLegacy

/// 3.4's model classes are `NSObject`s and `PNError` an `NSError` (issue 13, item 2): the lines 3.x code wrote
/// with them — `isEqual:`, `indexOfObject:`, `NSArray`/`NSSet`, `%@`, comparing errors as `NSError` — keep working.
@Suite struct PNObjectModelsTests {
    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    @Test func channelsAreNSObjectsEqualByName() {
        let name = Self.unique("objects")
        let channel = PNChannel.channelWithName(name)
        let twin = PNChannel(name: name)  // another instance, as after a cache purge
        let other = PNChannel.channelWithName(Self.unique("other"))
        let object: NSObject = channel
        #expect(object.isEqual(twin))
        #expect(!channel.isEqual(other))
        #expect(!channel.isEqual(name))
        #expect(!channel.isEqual(nil))
        #expect(channel == twin)
        #expect(channel.hash == twin.hash)
        #expect(channel.hashValue == twin.hashValue)
        let array = NSArray(array: [other, channel])
        #expect(array.index(of: twin) == 1)
        #expect(array.contains(twin))
        #expect(NSSet(array: [channel, twin, other]).count == 2)
        #expect(Set([channel, twin, other]).count == 2)
        #expect([other, channel].firstIndex(of: twin) == 1)
        let dictionary = NSMutableDictionary()
        dictionary[channel] = "value"
        #expect(dictionary[twin] as? String == "value")
        let presence = PNChannelPresence.presenceForChannel(channel)
        #expect(!presence.isEqual(channel))
        #expect(presence.isEqual(PNChannel.channelWithName(name + "-pnpres")))
    }

    @Test func descriptionsAreThreeFours() {
        let channel = PNChannel.channelWithName(Self.unique("described"))
        let address = { (object: AnyObject) in "0x" + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16) }
        #expect(channel.description == "PNChannel(\(address(channel))) \(channel.name)")
        #expect("\(channel)" == channel.description)
        let date = PNDate(timeToken: 13_600_000_000_000_000)
        #expect(date.description == "PNDate (\(address(date))) <date: \(date.date); time token: 13600000000000000>")
        let message = PNMessage(message: ["a": 1], channel: channel, receiveDate: date, timeToken: nil)
        #expect(
            message.description
                == "PNMessage (\(address(message))): <message: {\n    a = 1;\n}, date: \(date.description), "
                + "channel: \(channel.name)>"
        )
        let error = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        #expect(error.description.hasPrefix("Domain=com.pubnub.pubnub; Code=106; Description="))
    }

    @Test func datesAreNSObjectsEqualByToken() {
        let date = PNDate(timeToken: 17_000_000_000_000_001)
        let same = PNDate.dateWithToken(NSNumber(value: UInt64(17_000_000_000_000_001)))
        #expect(date.isEqual(same))
        #expect(date == same)
        #expect(date.hash == same?.hash)
        #expect(!date.isEqual(PNDate(timeToken: 1)))
        #expect(NSArray(array: [date]).contains(same as Any))
    }

    @Test func messagesAndEventsAreNSObjectsComparedByIdentity() {
        let channel = PNChannel.channelWithName(Self.unique("identity"))
        let message = PNMessage(message: "m", channel: channel, receiveDate: nil, timeToken: nil)
        let copy = PNMessage(message: "m", channel: channel, receiveDate: nil, timeToken: nil)
        #expect(message.isEqual(message))
        #expect(!message.isEqual(copy))
        #expect(NSArray(array: [copy, message]).index(of: message) == 1)
        let event = PNPresenceEvent(response: ["action": "join", "timestamp": 1, "uuid": "u", "occupancy": 1])
        let objects: [NSObject] = [
            message, event, date(), PNHereNow(participants: [], participantsCount: 0, channel: channel),
            PNMessagesHistory(startDate: nil, endDate: nil, channel: channel, messages: []),
        ]
        #expect(objects.count == 5)
        func date() -> PNDate { PNDate(timeToken: 1) }
    }

    @Test func errorsAreNSErrors() async {
        let error = PNError(code: kPNAPIAccessForbiddenError)
        let nsError: NSError = error
        #expect(nsError === error)
        #expect(nsError.code == 113)
        #expect(nsError.domain == kPNDefaultErrorDomain)
        #expect(nsError.localizedDescription == "PubNub API access denied")
        #expect(nsError.localizedFailureReason == error.localizedFailureReason)
        #expect(nsError.localizedRecoverySuggestion == error.localizedRecoverySuggestion)
        #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == "PubNub API access denied")
        let anyError: any Error = error
        #expect((anyError as NSError) === error)
        #expect((anyError as? PNError) === error)
        #expect(anyError.localizedDescription == "PubNub API access denied")
        // Equal as NSErrors compare: domain, code and texts.
        #expect(error == PNError(code: kPNAPIAccessForbiddenError))
        #expect(error.isEqual(PNError(code: kPNAPIAccessForbiddenError)))
        #expect(error != PNError(code: kPNAPIUnauthorizedAccessError))
        let copy = NSError(domain: error.domain, code: error.code, userInfo: error.userInfo)
        #expect(copy.localizedDescription == error.localizedDescription)
        #expect(copy.localizedFailureReason == error.localizedFailureReason)
        #expect(NSArray(array: [error]).contains(PNError(code: kPNAPIAccessForbiddenError)))
        // Sendable, as before: it crosses to another task.
        let code = await Task.detached { error.code }.value
        #expect(code == 113)
    }

    @Test func underlyingErrorsAreInUserInfo() {
        let underlying = URLError(.notConnectedToInternet)
        let error = PNError(
            domain: NSURLErrorDomain,
            code: underlying.errorCode,
            message: nil,
            failureReason: nil,
            category: .networkIssues,
            associatedObject: nil,
            underlyingError: underlying
        )
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == underlying.errorCode)
        #expect(error.underlyingError is URLError)
    }
}

/// `PubNub` is an `NSObject`, as in 3.4: clients compare and hash by identity and describe themselves as `NSObject`s.
@Suite struct PubNubObjectTests {
    @Test func clientsAreNSObjectsComparedByIdentity() {
        let client = PubNub()
        let other = PubNub()
        let object: NSObject = client
        #expect(object.isEqual(client))
        #expect(!client.isEqual(other))
        #expect(Set<NSObject>([client, other, client]).count == 2)
        #expect(NSArray(array: [other, client]).index(of: client) == 1)
        #expect(client.description.contains("PubNub"))
    }
}
