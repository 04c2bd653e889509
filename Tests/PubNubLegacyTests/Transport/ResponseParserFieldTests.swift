import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

/// Issue 14: every field of every answer parser refuses a value of the wrong JSON type — a boolean where a number
/// belongs (`JSONSerialization` gives `NSNumber` for both), a fraction where an integer belongs, a number where a
/// string belongs, a negative value, a value past `UInt64.max` — with a 127-class failure, and still reads every
/// valid form. The parsers built on `JSONSerialization` name the field (`.malformedField`); subscribe and history,
/// read by `JSONScanner` without decoding payloads, refuse a bad cursor or bound as a malformed answer, and a bad
/// envelope field makes that one envelope unreadable (reported per message) while the others are delivered.
@Suite struct ResponseParserFieldTests {
    /// One answer body fed to one parser, and what must come out.
    struct Row: Sendable, CustomStringConvertible {
        enum Parser: String, Sendable {
            case time, publish, subscribe, history, hereNow, pushChannels, acknowledgement
        }

        enum Outcome: Sendable, Equatable {
            /// Success; the parsed value's summary.
            case value(String)
            /// `.malformedField` whose text starts with this.
            case badField(String)
            /// Another failure.
            case failure(ResponseFailure)
        }

        let parser: Parser
        let body: String
        var status = 200
        let outcome: Outcome

        var description: String { "\(self.parser.rawValue) \(self.status) \(self.body)" }
    }

    static func parse(_ row: Row) -> Row.Outcome {
        let response = TransportResponse(status: row.status, body: Data(row.body.utf8))
        func outcome<Value>(_ result: Result<Value, ResponseFailure>, _ summary: (Value) -> String) -> Row.Outcome {
            switch result {
            case .success(let value): return .value(summary(value))
            case .failure(.malformedField(let text)): return .badField(text)
            case .failure(let failure): return .failure(failure)
            }
        }
        switch row.parser {
        case .time:
            return outcome(ResponseParser.time(response)) { "\($0)" }
        case .publish:
            return outcome(ResponseParser.publish(response)) { $0.map { "\($0)" } ?? "nil" }
        case .subscribe:
            return outcome(ResponseParser.subscribe(response)) { parsed in
                let envelopes = parsed.messages.map { envelope in
                    "\(envelope.channel ?? "-") b=\(envelope.subscription ?? "-") p=\(envelope.publishTimetoken.map { "\($0)" } ?? "-") i=\(envelope.publisher ?? "-")"
                }
                return "\(parsed.timetoken) r=\(parsed.region.map { "\($0)" } ?? "-") \(envelopes)"
            }
        case .history:
            return outcome(ResponseParser.history(response)) { "\($0.messages.count) \($0.start) \($0.end)" }
        case .hereNow:
            return outcome(ResponseParser.hereNow(response)) { "\($0.occupancy) \($0.uuids)" }
        case .pushChannels:
            return outcome(ResponseParser.pushChannels(response)) { "\($0)" }
        case .acknowledgement:
            return outcome(ResponseParser.acknowledgement(response)) { "ok" }
        }
    }

    static let tokenExpected = "expected a time token (an integer or a string of digits)"

    static let rows: [Row] = [
        // MARK: time `[tt]`
        Row(parser: .time, body: "[true]", outcome: .badField("the time token is the boolean true, \(tokenExpected)")),
        Row(parser: .time, body: "[false]", outcome: .badField("the time token is the boolean false")),
        Row(parser: .time, body: "[1.0]", outcome: .badField("the time token is the number 1")),
        Row(parser: .time, body: "[1.5]", outcome: .badField("the time token is the number 1.5")),
        Row(parser: .time, body: "[1e3]", outcome: .badField("the time token is the number 1000")),
        Row(parser: .time, body: "[-1]", outcome: .badField("the time token is the integer -1")),
        Row(
            parser: .time,
            body: "[18446744073709551616]",
            outcome: .badField("the time token is the integer 18446744073709551616, out of range")
        ),
        Row(parser: .time, body: "[\"-1\"]", outcome: .badField("the time token is the string \"-1\"")),
        Row(parser: .time, body: "[\"+1\"]", outcome: .badField("the time token is the string \"+1\"")),
        Row(parser: .time, body: "[\"1.5\"]", outcome: .badField("the time token is the string \"1.5\"")),
        Row(parser: .time, body: "[\"\"]", outcome: .badField("the time token is the string \"\"")),
        Row(
            parser: .time,
            body: "[\"18446744073709551616\"]",
            outcome: .badField("the time token is the string \"18446744073709551616\"")
        ),
        Row(parser: .time, body: "[null]", outcome: .badField("the time token is null")),
        Row(parser: .time, body: "[[17]]", outcome: .badField("the time token is an array")),
        Row(parser: .time, body: "[{}]", outcome: .badField("the time token is an object")),
        Row(parser: .time, body: "[0]", outcome: .value("0")),
        Row(parser: .time, body: "[\"17000000000000000\"]", outcome: .value("17000000000000000")),
        Row(parser: .time, body: "[18446744073709551615]", outcome: .value("18446744073709551615")),

        // MARK: publish `[1, "Sent", "tt"]`
        Row(
            parser: .publish,
            body: "[true,\"Sent\",\"1\"]",
            outcome: .badField("the publish flag is the boolean true")
        ),
        Row(parser: .publish, body: "[1.0,\"Sent\",\"1\"]", outcome: .badField("the publish flag is the number 1")),
        Row(
            parser: .publish,
            body: "[\"1\",\"Sent\",\"1\"]",
            outcome: .badField("the publish flag is the string \"1\"")
        ),
        Row(parser: .publish, body: "[2,\"Sent\",\"1\"]", outcome: .badField("the publish flag is the integer 2")),
        Row(
            parser: .publish,
            body: "[false,\"Invalid Key\"]",
            outcome: .badField("the publish flag is the boolean false")
        ),
        Row(parser: .publish, body: "[1,5,\"1\"]", outcome: .badField("the text is the integer 5")),
        Row(parser: .publish, body: "[1,\"Sent\",true]", outcome: .badField("the publish time token is the boolean")),
        Row(parser: .publish, body: "[1,\"Sent\",1.5]", outcome: .badField("the publish time token is the number 1.5")),
        Row(parser: .publish, body: "[1,\"Sent\",-5]", outcome: .badField("the publish time token is the integer -5")),
        Row(parser: .publish, body: "[1,\"Sent\",\"x\"]", outcome: .badField("the publish time token is the string")),
        Row(parser: .publish, body: "[1,\"Sent\",\"14820999383119516\"]", outcome: .value("14820999383119516")),
        Row(parser: .publish, body: "[1,\"Sent\",14820999383119516]", outcome: .value("14820999383119516")),
        Row(parser: .publish, body: "[1,\"Sent\"]", outcome: .value("nil")),
        Row(
            parser: .publish,
            body: "[0,\"Invalid Key\"]",
            outcome: .failure(.serverMessage("Invalid Key", status: 200))
        ),

        // MARK: subscribe `{"t": {"t": "tt", "r": n}, "m": [...]}`
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":true},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":1.5},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"-1\"},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\",\"r\":true},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\",\"r\":1.5},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\",\"r\":\"4\"},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\",\"r\":-1},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\",\"r\":99999999999},\"m\":[]}",
            outcome: .failure(.malformedJSON)
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\"},\"m\":[{\"c\":\"a\",\"d\":1,\"b\":5}]}",
            outcome: .value("15 r=- [\"- b=- p=- i=-\"]")
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\"},\"m\":[{\"c\":\"a\",\"d\":1,\"p\":{\"t\":true}}]}",
            outcome: .value("15 r=- [\"- b=- p=- i=-\"]")
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\"},\"m\":[{\"c\":\"a\",\"d\":1,\"p\":\"16\"}]}",
            outcome: .value("15 r=- [\"- b=- p=- i=-\"]")
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":\"15\"},\"m\":[{\"c\":\"a\",\"d\":1,\"i\":false}]}",
            outcome: .value("15 r=- [\"- b=- p=- i=-\"]")
        ),
        Row(
            parser: .subscribe,
            body:
                "{\"t\":{\"t\":\"15\"},\"m\":[{\"c\":\"a\",\"d\":true,\"b\":null,\"p\":{\"t\":16,\"r\":1},\"i\":null}]}",
            outcome: .value("15 r=- [\"a b=- p=16 i=-\"]")
        ),
        Row(
            parser: .subscribe,
            body: "{\"t\":{\"t\":15,\"r\":0},\"m\":[{\"c\":\"a\",\"d\":1,\"b\":\"a\",\"i\":\"u\"}]}",
            outcome: .value("15 r=0 [\"a b=a p=- i=u\"]")
        ),

        // MARK: history `[[messages], start, end]`
        Row(parser: .history, body: "[[],true,0]", outcome: .failure(.malformedJSON)),
        Row(parser: .history, body: "[[],1.5,0]", outcome: .failure(.malformedJSON)),
        Row(parser: .history, body: "[[],-1,0]", outcome: .failure(.malformedJSON)),
        Row(parser: .history, body: "[[],\"x\",0]", outcome: .failure(.malformedJSON)),
        Row(
            parser: .history,
            body: "[[],0,18446744073709551616]",
            outcome: .failure(.malformedJSON)
        ),
        Row(parser: .history, body: "[[],0,false]", outcome: .failure(.malformedJSON)),
        Row(parser: .history, body: "[[true,1.5],0,0]", outcome: .value("2 0 0")),
        Row(parser: .history, body: "[[],\"15\",16]", outcome: .value("0 15 16")),

        // MARK: here-now `{"uuids": [...], "occupancy": n}`
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[],\"occupancy\":true}",
            outcome: .badField("the occupancy is the boolean")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[],\"occupancy\":1.5}",
            outcome: .badField("the occupancy is the number")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[],\"occupancy\":\"2\"}",
            outcome: .badField("the occupancy is the string \"2\"")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[],\"occupancy\":-1}",
            outcome: .badField("the occupancy is the integer -1")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[\"u\",1],\"occupancy\":2}",
            outcome: .badField("uuids[1] is the integer 1")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[true],\"occupancy\":1}",
            outcome: .badField("uuids[0] is the boolean true")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":[{\"uuid\":5}],\"occupancy\":1}",
            outcome: .badField("uuids[0] is an object")
        ),
        Row(
            parser: .hereNow,
            body: "{\"uuids\":\"u\",\"occupancy\":1}",
            outcome: .badField("uuids is the string \"u\"")
        ),
        Row(parser: .hereNow, body: "{\"occupancy\":0}", outcome: .value("0 []")),
        Row(
            parser: .hereNow,
            body: "{\"payload\":{\"channels\":{\"c\":{\"uuids\":[{\"uuid\":\"u\"}],\"occupancy\":1}}}}",
            outcome: .value("1 [\"u\"]")
        ),

        // MARK: push channel list `["ch", ...]`
        Row(parser: .pushChannels, body: "[\"a\",1]", outcome: .badField("push channel 1 is the integer 1")),
        Row(parser: .pushChannels, body: "[true]", outcome: .badField("push channel 0 is the boolean true")),
        Row(parser: .pushChannels, body: "[null]", outcome: .badField("push channel 0 is null")),

        // MARK: acknowledgements `[1, "text"]` or an object
        Row(
            parser: .acknowledgement,
            body: "[true,\"Modified Channels\"]",
            outcome: .badField("the acknowledgement flag is the boolean true")
        ),
        Row(
            parser: .acknowledgement,
            body: "[0.0,\"x\"]",
            outcome: .badField("the acknowledgement flag is the number")
        ),
        Row(
            parser: .acknowledgement,
            body: "[0,\"Invalid device token\"]",
            outcome: .failure(.serverMessage("Invalid device token", status: 200))
        ),
        Row(parser: .acknowledgement, body: "[1,\"Modified Channels\"]", outcome: .value("ok")),

        // MARK: error answers: only an integer 0 flags `[0, "reason"]`
        Row(parser: .time, body: "[false,\"Invalid Key\"]", status: 400, outcome: .failure(.unexpectedStatus(400))),
        Row(
            parser: .time,
            body: "[0,\"Invalid Key\"]",
            status: 400,
            outcome: .failure(.serverMessage("Invalid Key", status: 400))
        ),
    ]

    @Test(arguments: rows)
    func everyFieldRefusesTheWrongType(row: Row) {
        let outcome = Self.parse(row)
        switch (row.outcome, outcome) {
        case (.badField(let expected), .badField(let text)):
            #expect(text.hasPrefix(expected), "\(text)")
        default:
            #expect(outcome == row.outcome)
        }
    }

    /// The failure reaches callers as 127, category `malformedResponse`, with the field in the failure reason.
    @Test func aBadFieldIsA127WithTheFieldInTheReason() throws {
        let failure = try #require(ResponseParser.time(TransportResponse(status: 200, body: Data("[true]".utf8))).error)
        let error = PNError.fromResponse(failure)
        #expect(error.code == kPNResponseMalformedJSONError)
        #expect(error.category == .malformedResponse)
        #expect(error.localizedDescription == "PubNub client can't parse response")
        #expect(error.localizedFailureReason.hasPrefix("The answer is JSON, but the time token is the boolean true"))
    }

    /// The issue's case through the public API: a time-token answer of `true` fails the call with 127 (after the
    /// retries a malformed answer gets), where it used to report the token 1.
    @Test func aTimeTokenOfTrueFailsTheCallWith127() async throws {
        let recorder = EventRecorder()
        let poisoned = Locked(false)
        let transport = FakeTransport.origin { request in
            request.url.path.hasPrefix("/time/") && poisoned.current ? .respond(200, "[true]") : nil
        }
        let client = try await PubNubTests.connected(recorder, transport: transport)
        poisoned.withLock { $0 = true }
        client.requestServerTimeTokenWithCompletionBlock { token, error in recorder.block("time", error ?? token) }
        let done = try await recorder.next(.block, "time")
        #expect(done.error?.code == kPNResponseMalformedJSONError)
        #expect(done.error?.localizedFailureReason.contains("the time token is the boolean true") == true)
        #expect(recorder.all(.delegate, "timeTokenReceiveDidFail").first?.error === done.error)
    }

    /// Presence events (3.4: mistyped fields give the defaults): a boolean is not a number.
    @Test func aBooleanOccupancyOrTimestampInAPresenceEventIsIgnored() {
        let event = PNPresenceEvent(response: ["action": "join", "timestamp": true, "uuid": "u", "occupancy": true])
        #expect(event.occupancy == 0)
        #expect(event.date == nil)
        let real = PNPresenceEvent(response: [
            "action": "join", "timestamp": 1_700_000_000, "uuid": "u", "occupancy": 3,
        ])
        #expect(real.occupancy == 3)
        #expect(real.date != nil)
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
