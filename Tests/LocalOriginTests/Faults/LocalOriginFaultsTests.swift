import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Each fault kind as a client sees it over a real socket, and stopping while faults hold requests. Every test starts
// its own origin on a kernel-chosen port and stops it. Scoping and clearing: `LocalOriginFaultsScopingTests.swift`.

@Suite struct LocalOriginFaultsTests {
    // MARK: - Answers in the origin's place

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorsAnswerTheirStatusWithAJSONBody(status: Int) throws {
        try withOrigin { origin throws in
            try origin.inject(.serverError(status: status))
            let client = try HTTPTestClient(port: origin.port)
            let plain = try client.get("/v2/history/sub-key/sub/channel/c")
            #expect(plain.status == status)
            #expect(plain.statusLine == "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(for: status))")
            let reason = HTTPResponse.reasonPhrase(for: status)
            #expect(
                plain.bodyText == #"{"status":\#(status),"error":true,"message":"\#(reason)","service":"Balancer"}"#
            )
            // The Balancer's error headers (docs/PROTOCOL.md §1.2).
            #expect(plain.header("Content-Type") == "text/javascript; charset=UTF-8")
            #expect(plain.header("Cache-Control") == "no-cache, no-store, must-revalidate")
            // 3.4.2 puts the callback in the path of time, publish and subscribe.
            let wrapped = try client.get("/time/t_1f2e")
            #expect(wrapped.status == status)
            #expect(wrapped.bodyText == "t_1f2e(\(plain.bodyText))")
            #expect(origin.faultCounters.serverErrors == 2)
            #expect(origin.counters.requests == 0)  // the origin never saw them
        }
    }

    @Test func accessDeniedAnswersTheAccessManagerBodyWithTheRequestsChannels() throws {
        try withOrigin { origin throws in
            try origin.inject(.accessDenied)
            let client = try HTTPTestClient(port: origin.port)
            let subscribe = try client.get("/subscribe/sub/a,b%2Cc,a-pnpres/s_9/0?uuid=u")
            #expect(subscribe.statusLine == "HTTP/1.1 403 Forbidden")
            #expect(
                subscribe.bodyText
                    == #"s_9({"message":"Forbidden","payload":{"channels":["a","b,c","a-pnpres"]},"error":true,"#
                    + #""service":"Access Manager","status":403})"#
            )
            let publish = try client.get("/publish/pub/sub/0/news/0/1")
            #expect(
                publish.bodyText
                    == #"{"message":"Forbidden","payload":{"channels":["news"]},"error":true,"#
                    + #""service":"Access Manager","status":403}"#
            )
            let grouped = try client.get("/v2/subscribe/sub/,/0?tt=0&channel-group=g1,g2")
            let payload = try grouped.json()["payload"] as? [String: [String]]
            #expect(payload == ["channels": [], "channel-groups": ["g1", "g2"]])
            #expect(origin.faultCounters.accessDenied == 3)
        }
    }

    @Test func malformedJSONIsCutShortAndStillCarriesTheCallback() throws {
        try withOrigin { origin throws in
            try origin.inject(.malformedJSON)
            let client = try HTTPTestClient(port: origin.port)
            let plain = try client.get("/v2/presence/sub-key/sub/channel/c")
            #expect(plain.status == 200)
            #expect(plain.bodyText == #"[[{"truncated":"#)
            #expect((try? JSONSerialization.jsonObject(with: Data(plain.body), options: [.fragmentsAllowed])) == nil)
            let wrapped = try client.get("/subscribe/sub/c/cb_7/0")
            #expect(wrapped.bodyText == #"cb_7([[{"truncated":"#)
        }
    }

    @Test func nonUTF8BytesAreSentAsIs() throws {
        try withOrigin { origin throws in
            try origin.inject(.nonUTF8)
            let client = try HTTPTestClient(port: origin.port)
            let plain = try client.get("/time/0")
            #expect(plain.status == 200)
            #expect(plain.body == Array(#"[""#.utf8) + [0xC3, 0x28, 0xA0, 0xA1, 0xFF, 0xFE] + Array(#""]"#.utf8))
            #expect(String(validating: plain.body, as: UTF8.self) == nil)
            let wrapped = try client.get("/time/t_5")
            #expect(wrapped.body == Array("t_5(".utf8) + plain.body + [UInt8(ascii: ")")])
            #expect(origin.faultCounters.nonUTF8 == 2)
        }
    }

    @Test func htmlPageIsACaptivePortalWithStatus200() throws {
        try withOrigin { origin throws in
            try origin.inject(.htmlPage)
            let response = try get(origin, "/subscribe/sub/c/cb/0")
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.bodyText.hasPrefix("<!DOCTYPE html>"))
            #expect(response.bodyText.contains("Sign in"))
            #expect(!response.bodyText.contains("cb("))
            #expect(origin.faultCounters.htmlPages == 1)
        }
    }

    // MARK: - Connections

    @Test func refusalRefusesNewConnectionsKeepsOpenOnesAndEndsWhenCleared() throws {
        try withOrigin { origin throws in
            let port = origin.port
            let open = try HTTPTestClient(port: port)
            #expect(try open.get("/time/0").status == 200)
            let id = try origin.inject(.refuseConnections(dropExisting: false))
            #expect(connectError(port: port) == ECONNREFUSED)
            #expect(try open.get("/time/0").status == 200)  // keep-alive connections go on working
            #expect(origin.faultCounters.refusals == 1)
            #expect(try origin.clearFault(id))
            #expect(connectError(port: port) == 0)
            #expect(try get(origin, "/time/0").status == 200)
            #expect(origin.port == port)
        }
    }

    @Test func refusalWithDropClosesOpenConnectionsWithoutAnAnswer() throws {
        try withOrigin { origin throws in
            let idle = try HTTPTestClient(port: origin.port)
            #expect(try idle.get("/time/0").status == 200)
            let parked = try HTTPTestClient(port: origin.port)
            try parked.sendGet("/subscribe/sub/c/0/\(try currentTimetoken(origin))")
            try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
            try origin.inject(.refuseConnections(dropExisting: true))
            try idle.expectEndOfStream()
            try parked.expectEndOfStream()
            #expect(connectError(port: origin.port) == ECONNREFUSED)
            try origin.clearFaults()
            #expect(try get(origin, "/time/0").status == 200)
        }
    }

    @Test func neverAnswerSendsNothingUntilClearedThenClosesWithoutAnAnswer() throws {
        try withOrigin { origin throws in
            try origin.inject(.neverAnswer, on: .operation(.publish))
            let client = try HTTPTestClient(port: origin.port)
            try client.sendGet("/publish/pub/sub/0/c/0/%22lost%22")
            try eventuallyBlocking("origin.faultCounters.unanswered == 1") { origin.faultCounters.unanswered == 1 }
            #expect(!client.hasInput(within: .milliseconds(200)))
            #expect(try get(origin, "/time/0").status == 200)  // other operations are answered meanwhile
            #expect(!client.hasInput(within: .milliseconds(50)))
            try origin.clearFaults()
            try client.expectEndOfStream()  // closed with no byte of an answer
            #expect(try historyMessages(origin, "c").isEmpty)  // the origin never saw the publish
        }
    }

    @Test func neverAnswerLetsGoOfRequestsWhoseClientHungUp() throws {
        try withOrigin { origin throws in
            try origin.inject(.neverAnswer)
            do {
                let client = try HTTPTestClient(port: origin.port)
                try client.sendGet("/time/0")
                try eventuallyBlocking("origin.faultCounters.unanswered == 1") { origin.faultCounters.unanswered == 1 }
            }  // the client closes its socket here
            try eventuallyBlocking("origin.faults.heldCount == 0") { origin.faults.heldCount == 0 }
        }
    }

    // MARK: - Answers from the origin, delayed or cut

    @Test func delayHoldsTheAnswerAtLeastTheGivenTime() throws {
        try withOrigin { origin throws in
            try origin.inject(.delay(0.3), on: .operation(.publish))
            let client = try HTTPTestClient(port: origin.port)
            let started = ContinuousClock.now
            let response = try client.get("/publish/pub/sub/0/c/0/%22late%22")
            let elapsed = ContinuousClock.now - started
            #expect(response.status == 200)
            #expect(elapsed >= .milliseconds(300))  // a lower bound only
            #expect(try historyMessages(origin, "c") == ["late"])
            #expect(origin.faultCounters.delayed == 1)
        }
    }

    @Test func delayedAnswersToPipelinedRequestsKeepTheirOrder() throws {
        try withOrigin { origin throws in
            try origin.inject(.delay(0.2), on: .operation(.time), count: 1)
            let client = try HTTPTestClient(port: origin.port)
            try client.sendGet("/time/first")
            try client.sendGet("/v2/presence/sub-key/sub/channel/c")
            let first = try client.readResponse()
            let second = try client.readResponse()
            #expect(first.bodyText.hasPrefix("first(["))
            #expect(second.bodyText.contains("\"occupancy\""))
        }
    }

    @Test(arguments: OriginFault.CutPoint.allCases)
    func closeMidResponseSendsAPartOfTheOriginsAnswerThenCloses(point: OriginFault.CutPoint) throws {
        try withOrigin { origin throws in
            try origin.inject(.closeMidResponse(point), on: .operation(.publish))
            let client = try HTTPTestClient(port: origin.port)
            try client.sendGet("/publish/pub/sub/0/c/0/%22cut%22")
            let bytes = try client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            switch point {
            case .statusLine:
                #expect(!bytes.isEmpty)
                #expect("HTTP/1.1 200 OK\r\n".hasPrefix(text))
                #expect(!text.contains("\r\n"))
            case .headers:
                #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(text.utf8.count > "HTTP/1.1 200 OK\r\n".utf8.count)
                #expect(!text.contains("\r\n\r\n"))
            case .body:
                let parts = text.components(separatedBy: "\r\n\r\n")
                #expect(parts.count == 2)
                let length = parts[0].components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Length: ") }
                let announced = Int(length?.dropFirst("Content-Length: ".count) ?? "") ?? 0
                #expect(announced > 0)
                #expect(parts.count == 2 && parts[1].utf8.count < announced)
                #expect(parts.count == 2 && parts[1].hasPrefix("[1,\"Sent\",\""))
            }
            // The origin acted on the request: the publish was stored although its answer was cut.
            #expect(try historyMessages(origin, "c") == ["cut"])
            #expect(origin.faultCounters.cutMidResponse == 1)
        }
    }

    // MARK: - Stalled subscribes

    @Test func stallHoldsASubscribeForTheGivenTimeThenTheOriginAnswers() throws {
        try withOrigin { origin throws in
            let cursor = try currentTimetoken(origin)
            _ = try publish(origin, "waiting", on: "s")
            try origin.inject(.stallSubscribe(0.3))
            let client = try HTTPTestClient(port: origin.port)
            let started = ContinuousClock.now
            let answer = try subscribeAnswer(try client.get("/subscribe/sub/s/0/\(cursor)"))
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(answer.messages == ["waiting"])
            #expect(origin.faultCounters.stalledSubscribes == 1)
        }
    }

    @Test func stallForeverTakesOnlySubscribesAndClearingHandsThemToTheOriginFresh() throws {
        try withOrigin { origin throws in
            let cursor = try currentTimetoken(origin)
            try origin.inject(.stallSubscribe(nil))
            let subscriber = try HTTPTestClient(port: origin.port)
            try subscriber.sendGet("/subscribe/sub/s/0/\(cursor)")
            try eventuallyBlocking("origin.faultCounters.stalledSubscribes == 1") {
                origin.faultCounters.stalledSubscribes == 1
            }
            // Publish and time are in scope (.all) but not subscribes: the stall leaves them alone.
            _ = try publish(origin, "during", on: "s")
            #expect(try get(origin, "/time/0").status == 200)
            #expect(!subscriber.hasInput(within: .milliseconds(200)))
            #expect(origin.counters.parkedPolls == 0)
            try origin.clearFaults()
            // Answered from the origin's state at release: the message published during the stall is there.
            let answer = try subscribeAnswer(try subscriber.readResponse())
            #expect(answer.messages == ["during"])
        }
    }

    // MARK: - Stopping

    @Test func stopWhileFaultsHoldRequestsReturnsAndClosesEverything() throws {
        let origin = try LocalOrigin.start()
        try origin.inject(.neverAnswer, on: .operation(.publish))
        try origin.inject(.delay(600), on: .operation(.time))
        try origin.inject(.stallSubscribe(nil))
        let held = try HTTPTestClient(port: origin.port)
        let delayed = try HTTPTestClient(port: origin.port)
        let stalled = try HTTPTestClient(port: origin.port)
        try held.sendGet("/publish/pub/sub/0/c/0/1")
        try delayed.sendGet("/time/0")
        try stalled.sendGet("/subscribe/sub/c/0/0")
        // All three are held: the black-holed publish, the time answer waiting out its delay, the subscribe.
        try eventuallyBlocking("origin.faults.heldCount == 3") { origin.faults.heldCount == 3 }
        let stopped = Locked(false)
        Thread { [origin] in
            origin.stop()
            stopped.withLock { $0 = true }
        }.start()
        try eventuallyBlocking("stopped.withLock { $0 }", within: 10) { stopped.withLock { $0 } }
        try held.expectEndOfStream()
        try delayed.expectEndOfStream()
        try stalled.expectEndOfStream()
        #expect(origin.activeFaults.isEmpty)
        #expect(throws: OriginFaultError.stopped) { try origin.inject(.neverAnswer) }
        try origin.clearFaults()  // a no-op once stopped
        #expect(connectError(port: origin.port) == ECONNREFUSED)
    }
}
