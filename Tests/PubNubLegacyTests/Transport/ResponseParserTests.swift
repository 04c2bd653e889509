import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct ResponseParserTests {
    static func response(_ status: Int, _ body: String) -> TransportResponse {
        TransportResponse(status: status, body: Data(body.utf8))
    }

    @Test func timeReadsASeventeenDigitTokenExactly() throws {
        let token = try ResponseParser.time(Self.response(200, "[17953397910658811]")).get()
        #expect(token == 17_953_397_910_658_811)
    }

    @Test func timeRejectsOtherShapes() {
        #expect(throws: ResponseFailure.malformedJSON) { try ResponseParser.time(Self.response(200, "[1,2]")).get() }
        #expect(throws: ResponseFailure.malformedJSON) { try ResponseParser.time(Self.response(200, "[17")).get() }
    }

    /// The plain time answer is read without a JSON decoder, to what the general path gives; every body of up to 6
    /// characters over digits, brackets and a few JSON characters, and the edge cases of length, either agrees or
    /// takes the general path, and every `[digits]` of 1 to 18 digits without a leading zero is read plainly.
    @Test func timeAnswersReadWithoutTheDecoderAgreeWithTheGeneralPath() {
        let alphabet: [String] = ["[", "]", "0", "1", "9", " ", "-", ".", "e", ","]
        var bodies: [String] = [""]
        var last: [String] = [""]
        for _ in 1...5 {
            last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
            bodies += last
        }
        bodies += (1...21).map { "[" + String(repeating: "9", count: $0) + "]" }
        bodies += ["[17953397910658811]", "[100000000000000000]", "[09]", "[0]", "[-0]", "[1e3]", "[ 17]", "[17 ]"]
        var plain = 0
        for body in bodies {
            let general = ResponseParser.timeFromJSON(Self.response(200, body))
            if let token = ResponseParser.plainTimeAnswer(Data(body.utf8)) {
                #expect(general == .success(token), "\(body)")
                plain += 1
            }
            #expect(ResponseParser.time(Self.response(200, body)) == general, "\(body)")
            #expect(
                ResponseParser.time(Self.response(500, body)) == ResponseParser.timeFromJSON(Self.response(500, body))
            )
            let digits = body.dropFirst().dropLast()
            if body.first == "[", body.last == "]", (1...18).contains(digits.count), digits.first != "0",
                digits.allSatisfy({ ("0"..."9").contains($0) })
            {
                #expect(ResponseParser.plainTimeAnswer(Data(body.utf8)) != nil, "\(body)")
            }
        }
        #expect(plain >= 40)
    }

    @Test func publishSuccessCarriesTheTimetoken() throws {
        let token = try ResponseParser.publish(Self.response(200, "[1,\"Sent\",\"14820999383119516\"]")).get()
        #expect(token == 14_820_999_383_119_516)
    }

    /// The plain answer is read without a JSON decoder; every other spelling takes the general path, and both give
    /// what the general path always gave.
    @Test func publishAnswersReadWithoutTheDecoderAgreeWithTheGeneralPath() throws {
        #expect(
            ResponseParser.plainPublishAnswer(Data(#"[1,"Sent","14820999383119516"]"#.utf8)) == 14_820_999_383_119_516
        )
        #expect(try ResponseParser.publish(Self.response(200, #"[1,"Sent","007"]"#)).get() == 7)
        #expect(try ResponseParser.publish(Self.response(200, #"[1, "Sent", "5"]"#)).get() == 5)
        #expect(ResponseParser.plainPublishAnswer(Data(#"[1, "Sent", "5"]"#.utf8)) == nil)
        #expect(try ResponseParser.publish(Self.response(200, #"[1,"Sent",null]"#)).get() == nil)
        for body in [#"[1,"Sent","18446744073709551616"]"#, #"[1,"Sent","12a"]"#, #"[1,"Sent",""]"#] {
            #expect(ResponseParser.plainPublishAnswer(Data(body.utf8)) == nil)
            #expect(throws: ResponseFailure.self) { try ResponseParser.publish(Self.response(200, body)).get() }
        }
        #expect(ResponseParser.plainPublishAnswer(Data(#"[1,"Sent","18446744073709551615"]"#.utf8)) == UInt64.max)
    }

    @Test(
        arguments: [
            (400, "[0,\"Invalid Key\",\"14820999375199241\"]", "Invalid Key"),
            (400, "[0,\"Message Too Large\",\"15635079026391944\"]", "Message Too Large"),
            (200, "[0,\"Invalid JSON\"]", "Invalid JSON"),
            (
                400,
                "{\"message\":\"Invalid Subscribe Key\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}",
                "Invalid Subscribe Key"
            ),
        ]
    )
    func publishRejectionsKeepTheServerText(status: Int, body: String, text: String) {
        #expect(throws: ResponseFailure.serverMessage(text, status: status)) {
            try ResponseParser.publish(Self.response(status, body)).get()
        }
    }

    @Test func accessDeniedKeepsThePayloadChannels() {
        let body = """
            {"message":"Forbidden","payload":{"channels":["a","b"]},"error":true,"service":"Access Manager","status":403}
            """
        #expect(throws: ResponseFailure.accessDenied(status: 403, message: "Forbidden", channels: ["a", "b"])) {
            try ResponseParser.subscribe(Self.response(403, body)).get()
        }
        #expect(throws: ResponseFailure.accessDenied(status: 401, message: nil, channels: [])) {
            try ResponseParser.time(Self.response(401, "<html>")).get()
        }
    }

    @Test func nonJSONErrorPagesBecomeUnexpectedStatus() {
        #expect(throws: ResponseFailure.unexpectedStatus(502)) {
            try ResponseParser.subscribe(Self.response(502, "<html>Bad Gateway</html>")).get()
        }
        #expect(throws: ResponseFailure.unexpectedStatus(414)) {
            try ResponseParser.subscribe(Self.response(414, "[]")).get()
        }
    }

    @Test func malformedAndNonUTF8BodiesAreDistinguished() {
        #expect(throws: ResponseFailure.malformedJSON) {
            try ResponseParser.subscribe(Self.response(200, "{\"t\":{\"t\":\"1\"")).get()
        }
        let latin1 = TransportResponse(status: 200, body: Data([0x5B, 0xFF, 0xFE, 0x5D]))
        #expect(throws: ResponseFailure.notUTF8) { try ResponseParser.time(latin1).get() }
    }

    @Test func subscribeParsesCursorAndEnvelopesInOrder() throws {
        let body = """
            {"t":{"t":"14818963588185526","r":12},"m":[
              {"a":"2","f":0,"p":{"t":"14818963587725382","r":2},"k":"sub","c":"a","d":{"text":"hi"},"b":"a","i":"u2"},
              {"a":"2","f":0,"p":{"t":"14818963587725383","r":2},"k":"sub","c":"a-pnpres",
               "d":{"action":"join","timestamp":1481896358,"uuid":"u2","occupancy":1}},
              {"f":0,"p":{"t":"14818963587725384","r":2},"k":"sub","c":"b","d":5}
            ]}
            """
        let parsed = try ResponseParser.subscribe(Self.response(200, body)).get()
        #expect(parsed.timetoken == 14_818_963_588_185_526)
        #expect(parsed.region == 12)
        #expect(parsed.messages.map(\.channel) == ["a", "a-pnpres", "b"])
        #expect(parsed.messages[0].subscription == "a")
        #expect(parsed.messages[0].publisher == "u2")
        #expect(parsed.messages[0].publishTimetoken == 14_818_963_587_725_382)
        guard case .value(let first) = parsed.payload(of: parsed.messages[0]),
            case .value(let third) = parsed.payload(of: parsed.messages[2])
        else {
            Issue.record("payloads not decoded")
            return
        }
        #expect((first as? [String: Any])?["text"] as? String == "hi")
        #expect((third as? NSNumber)?.intValue == 5)
    }

    @Test func subscribeHandshakeHasNoMessages() throws {
        let parsed = try ResponseParser.subscribe(Self.response(200, "{\"t\":{\"t\":\"15\",\"r\":1},\"m\":[]}")).get()
        #expect(parsed.timetoken == 15)
        #expect(parsed.messages.isEmpty)
    }

    @Test func errorPayloadOnA200IsAServerMessage() {
        #expect(throws: ResponseFailure.serverMessage("Presence not enabled", status: 200)) {
            try ResponseParser.hereNow(Self.response(200, "{\"error\":\"Presence not enabled\"}")).get()
        }
    }

    @Test func hereNowReadsPlainAndObjectUUIDs() throws {
        let plain = try ResponseParser.hereNow(
            Self.response(200, "{\"status\":200,\"message\":\"OK\",\"uuids\":[\"u1\",\"u2\"],\"occupancy\":2}")
        ).get()
        #expect(plain == HereNowResponse(uuids: ["u1", "u2"], occupancy: 2))
        let objects = try ResponseParser.hereNow(
            Self.response(200, "{\"uuids\":[{\"uuid\":\"u1\",\"state\":{}}],\"occupancy\":1}")
        ).get()
        #expect(objects == HereNowResponse(uuids: ["u1"], occupancy: 1))
    }

    @Test func historyNeedsNumericBounds() throws {
        let parsed = try ResponseParser.history(
            Self.response(200, "[[\"m1\",{\"k\":2}],14820999261239656,14820999264622346]")
        ).get()
        #expect(parsed.messages.count == 2)
        guard case .value(let first) = parsed.messages[0] else {
            Issue.record("history message not decoded")
            return
        }
        #expect(first as? String == "m1")
        #expect(parsed.start == 14_820_999_261_239_656)
        #expect(parsed.end == 14_820_999_264_622_346)
        #expect(throws: ResponseFailure.malformedJSON) {
            try ResponseParser.history(Self.response(200, "[[],\"x\",0]")).get()
        }
        let empty = try ResponseParser.history(Self.response(200, "[[],0,0]")).get()
        #expect(empty.messages.isEmpty && empty.start == 0 && empty.end == 0)
    }

    @Test func pushListAndAcknowledgements() throws {
        #expect(try ResponseParser.pushChannels(Self.response(200, "[\"a\",\"b\"]")).get() == ["a", "b"])
        #expect(try ResponseParser.pushChannels(Self.response(200, "[]")).get() == [])
        try ResponseParser.acknowledgement(Self.response(200, "[1,\"Modified Channels\"]")).get()
        try ResponseParser.acknowledgement(
            Self.response(200, "{\"status\":200,\"action\":\"leave\",\"message\":\"OK\",\"service\":\"Presence\"}")
        ).get()
        #expect(throws: ResponseFailure.serverMessage("Invalid device token", status: 400)) {
            try ResponseParser.acknowledgement(Self.response(400, "{\"error\":\"Invalid device token\"}")).get()
        }
    }
}

// MARK: - Payloads decoded one by one

extension ResponseParserTests {
    /// Valid JSON (RFC 8259) that `JSONSerialization` refuses: what a publisher can store and an origin sends back.
    static let unrepresentable = [#""\ud800""#, #""\udc00x""#, "1e999999", String(repeating: "7", count: 400)]

    @Test(arguments: ResponseParserTests.unrepresentable)
    func oneUnrepresentablePayloadSpoilsOnlyItselfAndTheCursorAdvances(poison: String) throws {
        let body = """
            {"t":{"t":"30","r":1},"m":[
              {"p":{"t":"10"},"c":"ch","d":"before"},
              {"p":{"t":"20"},"c":"ch","d":\(poison)},
              {"p":{"t":"30"},"c":"ch","d":{"after":true}}
            ]}
            """
        let parsed = try ResponseParser.subscribe(Self.response(200, body)).get()
        #expect(parsed.timetoken == 30)
        #expect(parsed.messages.map(\.publishTimetoken) == [10, 20, 30])
        let payloads = parsed.messages.map { parsed.payload(of: $0) }
        guard case .value(let first) = payloads[0], case .undecodable(let text, let reason) = payloads[1],
            case .value(let third) = payloads[2]
        else {
            Issue.record("unexpected payloads: \(payloads)")
            return
        }
        #expect(first as? String == "before")
        #expect(text == poison)
        #expect(reason == .notRepresentable)
        #expect((third as? [String: Any])?["after"] as? Bool == true)
    }

    @Test func aPayloadThatIsNotUTF8IsReportedWithItsText() throws {
        var body = Array(#"{"t":{"t":"5"},"m":[{"c":"ch","d":""#.utf8)
        body += [0x61, 0xFF, 0x62]
        body += Array(#""},{"c":"ch","d":2}]}"#.utf8)
        let parsed = try ResponseParser.subscribe(TransportResponse(status: 200, body: Data(body))).get()
        guard case .undecodable(let text, .notUTF8) = parsed.payload(of: parsed.messages[0]),
            case .value(let second) = parsed.payload(of: parsed.messages[1])
        else {
            Issue.record("unexpected payloads")
            return
        }
        #expect(text == "\"a\u{FFFD}b\"")
        #expect((second as? NSNumber)?.intValue == 2)
    }

    @Test func anEnvelopeWithoutAChannelIsKeptAsUnreadable() throws {
        let body = #"{"t":{"t":"9"},"m":[{"d":1},7,{"c":"\ud800","d":2},{"c":"ok","d":3}]}"#
        let parsed = try ResponseParser.subscribe(Self.response(200, body)).get()
        #expect(parsed.messages.map(\.channel) == [nil, nil, nil, "ok"])
        guard case .undecodable(let text, .unreadableEnvelope) = parsed.payload(of: parsed.messages[1]) else {
            Issue.record("not reported as unreadable")
            return
        }
        #expect(text == "7")
    }

    /// An unreadable element is reported with exactly its own text and the scan goes on after it, whatever went wrong
    /// inside it — a channel of another type, a string read that failed halfway, a bad publish timetoken — and with
    /// whitespace around the elements.
    @Test func anUnreadableEnvelopeIsReportedWithItsOwnTextAndTheNextOneIsRead() throws {
        let elements = [
            #"{"c":5,"d":1}"#,
            #"{"c":"\ud800x","d":[1,{"a":"]"}]}"#,
            #"{"c":"ch","p":{"t":true},"d":2}"#,
        ]
        let body = #"{"t":{"t":"9"},"m":[ "# + elements.joined(separator: " , ") + #" ,{"c":"ok","d":3} ]}"#
        let parsed = try ResponseParser.subscribe(Self.response(200, body)).get()
        #expect(parsed.messages.map(\.channel) == [nil, nil, nil, "ok"])
        for (index, element) in elements.enumerated() {
            guard case .undecodable(let text, .unreadableEnvelope) = parsed.payload(of: parsed.messages[index]) else {
                Issue.record("element \(index) not reported as unreadable")
                continue
            }
            #expect(text == element)
        }
        guard case .value(let last) = parsed.payload(of: parsed.messages[3]) else {
            Issue.record("the readable envelope after them was not read")
            return
        }
        #expect((last as? NSNumber)?.intValue == 3)
    }

    @Test func aDeeplyNestedPayloadIsReportedNotFatal() throws {
        let depth = 100_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let body = #"{"t":{"t":"9"},"m":[{"c":"ch","d":"# + deep + #"},{"c":"ch","d":"fine"}]}"#
        let parsed = try ResponseParser.subscribe(Self.response(200, body)).get()
        #expect(parsed.messages.count == 2)
        guard case .undecodable(let text, _) = parsed.payload(of: parsed.messages[0]),
            case .value(let second) = parsed.payload(of: parsed.messages[1])
        else {
            Issue.record("unexpected payloads")
            return
        }
        #expect(text.count == 2 * depth)
        #expect(second as? String == "fine")
    }

    @Test func brokenSyntaxStillFailsTheWholeAnswer() {
        #expect(throws: ResponseFailure.malformedJSON) {
            try ResponseParser.subscribe(Self.response(200, #"{"t":{"t":"9"},"m":[{"c":"ch","d":[1,}]}"#)).get()
        }
        #expect(throws: ResponseFailure.malformedJSON) {
            try ResponseParser.subscribe(Self.response(200, #"{"t":{"t":"9"}}"#)).get()
        }
        #expect(throws: ResponseFailure.serverMessage("Invalid Subscribe Key", status: 200)) {
            try ResponseParser.subscribe(Self.response(200, #"{"error":true,"message":"Invalid Subscribe Key"}"#)).get()
        }
    }

    @Test(arguments: ResponseParserTests.unrepresentable)
    func historyDecodesEveryMessageOnItsOwn(poison: String) throws {
        let parsed = try ResponseParser.history(Self.response(200, "[[\"a\",\(poison),{\"b\":1}],11,33]")).get()
        #expect(parsed.start == 11 && parsed.end == 33)
        #expect(parsed.messages.count == 3)
        guard case .value(let first) = parsed.messages[0], case .undecodable(let text, _) = parsed.messages[1],
            case .value = parsed.messages[2]
        else {
            Issue.record("unexpected history messages")
            return
        }
        #expect(first as? String == "a")
        #expect(text == poison)
    }
}
