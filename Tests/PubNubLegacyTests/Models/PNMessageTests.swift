import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct PNMessageTests {
    static let channel = PNChannel(name: "messages")

    static func text(_ object: Any?) -> String? {
        try? PNMessage.jsonText(for: object).get()
    }

    static func code(_ object: Any?) -> Int? {
        if case .failure(let error) = PNMessage.jsonText(for: object) {
            return error.code
        }
        return nil
    }

    @Test func payloadsBecomeJSONText() {
        #expect(Self.text("hello") == #""hello""#)
        #expect(Self.text(#"say "hi"\ok"#) == #""say \"hi\"\\ok""#)
        #expect(Self.text("   ") == #""   ""#)
        #expect(Self.text("ünï/code") == #""ünï/code""#)
        #expect(Self.text(42) == "42")
        #expect(Self.text(NSNumber(value: 2.5)) == "2.5")
        #expect(Self.text(true) == "true")
        #expect(Self.text(NSNull()) == "null")
        #expect(Self.text(["b": 1, "a": [1, "x"]] as [String: Any]) == #"{"a":[1,"x"],"b":1}"#)
        #expect(Self.text([1, 2, 3]) == "[1,2,3]")
    }

    @Test func textThatAlreadyIsJSONPassesThrough() {
        #expect(Self.text(#""quoted""#) == #""quoted""#)
        #expect(Self.text(#"{"a":1}"#) == #"{"a":1}"#)
        #expect(Self.text("[1, 2]") == "[1, 2]")
        // Looks like JSON but does not parse: encoded as a string instead of being sent broken.
        #expect(Self.text("{not json}") == #""{not json}""#)
        #expect(Self.text(#""a"b""#) == #""\"a\"b\"""#)
    }

    @Test func resendingStoredTextDoesNotEncodeItAgain() throws {
        let first = try PNMessage.messageWithObject(["k": "v"], forChannel: Self.channel).get()
        let again = try PNMessage.messageWithObject(first.message, forChannel: first.channel).get()
        #expect(again.message as? String == #"{"k":"v"}"#)
    }

    @Test func emptyPayloadsAreRefusedWith122() {
        let none: String? = nil
        #expect(Self.code(nil) == kPNMessageHasNoContentError)
        #expect(Self.code(none as Any) == kPNMessageHasNoContentError)
        #expect(Self.code("") == kPNMessageHasNoContentError)
    }

    @Test func valuesJSONCannotExpressAreRefusedWith121() {
        #expect(Self.code(Date()) == kPNMessageObjectError)
        #expect(Self.code(Double.nan) == kPNMessageObjectError)
        #expect(Self.code(["k": Data()] as [String: Any]) == kPNMessageObjectError)
    }

    @Test func payloadIsCheckedBeforeTheChannel() {
        #expect(PNMessage.messageWithObject("", forChannel: nil).failureCode == kPNMessageHasNoContentError)
        #expect(PNMessage.messageWithObject("x", forChannel: nil).failureCode == kPNMessageHasNoChannelError)
        #expect(
            PNMessage.messageWithObject("x", forChannel: PNChannel(name: "a,b")).failureCode
                == kPNRestrictedCharacterInChannelNameError
        )
    }

    @Test func outgoingMessageHoldsTextAndChannelButNoDate() throws {
        let message = try PNMessage.messageWithObject(["hi"], forChannel: Self.channel).get()
        #expect(message.message as? String == #"["hi"]"#)
        #expect(message.channel == Self.channel)
        #expect(message.receiveDate == nil)
        #expect(message.description.contains("<message: [\"hi\"], date: (null), channel: messages>"))
    }

    @Test func incomingMessageKeepsDecodedValueAndDate() {
        let date = PNDate(timeToken: 17_000_000_000_000_000)
        let message = PNMessage(message: ["a": 1], channel: Self.channel, receiveDate: date, timeToken: 17)
        #expect((message.message as? [String: Int]) == ["a": 1])
        #expect(message.receiveDate == date)
        #expect(message.timeToken == 17)
    }
}

extension Result where Failure == PNError {
    fileprivate var failureCode: Int? {
        if case .failure(let error) = self {
            return error.code
        }
        return nil
    }
}
