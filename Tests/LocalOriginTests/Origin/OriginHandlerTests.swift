import Foundation
import PlatformSupport
import Testing

@testable import LocalOrigin

@Suite struct OriginHandlerTests {
    @Test func timeIsAOneElementArrayWithANumber() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/time/0?pnsdk=PubNub-Python%2F10.4.0&uuid=py-pub")
        #expect(reply.status == 200)
        #expect(reply.array.count == 1)
        let timetoken = reply.array.first as? NSNumber
        #expect(timetoken != nil && !(reply.array.first is String))
        // The manual clock stands at 1,700,000,000 s.
        #expect(timetoken?.uint64Value == 17_000_000_000_000_000)
        #expect(reply.text == "[17000000000000000]")
    }

    @Test func timetokensStrictlyIncreaseAcrossEndpoints() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let first = (origin.get("/time/0").array.first as? NSNumber)?.uint64Value ?? 0
        let published = origin.publish("1", on: "c")
        let second = (origin.get("/time/0").array.first as? NSNumber)?.uint64Value ?? 0
        #expect(first < published && published < second)
    }

    @Test func every200AnswerCarriesThePubNubHeaders() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/time/0")
        #expect(
            reply.headers.contains { $0.name == "Content-Type" && $0.value == "text/javascript; charset=\"UTF-8\"" }
        )
        #expect(reply.headers.contains { $0.name == "Cache-Control" && $0.value == "no-cache" })
        #expect(reply.headers.contains { $0.name == "Access-Control-Allow-Origin" && $0.value == "*" })
    }

    @Test(arguments: [
        ("/time/t_a1b2c", "t_a1b2c"),
        ("/v2/presence/sub_key/sub/channel/c/leave?uuid=u&callback=lv_abcde", "lv_abcde"),
        ("/nowhere?callback=x_12345", "x_12345"),
        ("/publish/pub/sub/0//m_12345/1", "m_12345"),
        ("/subscribe/sub/c/s_12345/abc", "s_12345"),
        ("/v2/history/sub-key/sub/channel/c?callback=h_12345&start=x", "h_12345"),
    ])
    func everyAnswerIsJSONPWrappedWhenACallbackIsGiven(_ target: String, _ callback: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(target, callback: callback)
        #expect(reply.text.hasPrefix(callback + "(") && reply.text.hasSuffix(")"))
        // 3.4.2 recognises JSONP only when `[` or `{` follows the parenthesis.
        let afterParen = reply.text.dropFirst(callback.count + 1).first
        #expect(afterParen == "[" || afterParen == "{")
        #expect(reply.json != nil, "inner body must be JSON: \(reply.text)")
    }

    @Test func callbackZeroOrAbsentMeansBareJSON() {
        let origin = OriginHarness()
        defer { origin.stop() }
        #expect(origin.get("/time/0").text.hasPrefix("["))
        #expect(origin.get("/time").text.hasPrefix("["))
        #expect(origin.get("/v2/presence/sub-key/sub/channel/c?callback=0").text.hasPrefix("{"))
    }

    @Test(arguments: [
        "/", "/nope", "/v2/nope/x", "/v1/nope", "/v3/nope", "/time/0/extra", "/publish/a/b/c",
        "/subscribe/sub/c/0", "/v2/subscribe/sub/c", "/v2/presence/sub-key/sub/channel/c/nope",
        "/v2/presence/sub-kee/sub/channel/c", "/v2/history/sub-key/sub/chanel/c", "/v1/push/sub-key/s/device/t",
        "/v1/channel-registration/sub-key/s/nope",
    ])
    func unknownPathsAre404WithAJSONBody(_ target: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(target)
        #expect(reply.status == 404)
        #expect(reply.object["status"] as? Int == 404)
        #expect(reply.object["error"] as? Bool == true)
        #expect(reply.object["message"] as? String == "Not Found")
        #expect(reply.object["service"] is String)
    }

    @Test func otherMethodsAre405WithAJSONBody() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("/time/0", method: "DELETE")
        #expect(reply.status == 405)
        #expect(reply.object["error"] as? Bool == true)
    }

    @Test func unknownQueryParametersAreIgnored() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let query = "pnsdk=PubNub-Python%2F10.4.0&signature=v2.abc&timestamp=1&filter-expr=a%3D%3D1&seqn=3&zzz"
        #expect(origin.get("/time/0?" + query).status == 200)
        #expect(origin.get("/publish/pub/sub/0/c/0/1?" + query).status == 200)
        #expect(origin.get("/v2/history/sub-key/sub/channel/c?" + query).status == 200)
    }

    @Test func countsRequestsAndLogsThem() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/time/0")
        origin.publish("\"x\"", on: "c")
        origin.get("/nope")
        let counters = origin.handler.counters
        #expect(counters.requests == 3)
        #expect(counters.publishes == 1)
        #expect(counters.messagesStored == 1)
        let log = origin.handler.requestLog
        #expect(log.map(\.status) == [200, 200, 404])
        #expect(log.first?.method == "GET" && log.first?.target == "/time/0")
        #expect(log.last?.target == "/nope")
    }

    @Test func requestLogIsBounded() {
        let origin = OriginHarness { $0.requestLogLimit = 5 }
        defer { origin.stop() }
        for index in 0..<23 { origin.get("/time/\(index)") }
        #expect(origin.handler.requestLog.map(\.target) == (18..<23).map { "/time/\($0)" })
    }

    @Test func longTargetsAreCutInTheLog() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let message = "%22" + String(repeating: "a", count: 10_000) + "%22"
        origin.get("/publish/pub/sub/0/c/0/\(message)")
        let target = origin.handler.requestLog.last?.target ?? ""
        #expect(target.hasPrefix("/publish/pub/sub/0/c/0/%22aaa"))
        #expect(target.hasSuffix("…"))
        #expect(target.utf8.count < 2_100)
    }

    @Test func observersSeeEveryAnsweredRequest() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let seen = LockedEntries()
        origin.handler.addRequestObserver { seen.append($0) }
        origin.get("/time/0")
        origin.get("/nope?x=1")
        #expect(seen.entries.map(\.status) == [200, 404])
        #expect(seen.entries.map(\.target) == ["/time/0", "/nope?x=1"])
    }

    @Test func stopClosesParkedPollsAndRefusesLaterRequests() {
        let origin = OriginHarness()
        let parked = origin.send("/v2/subscribe/sub/c/0?tt=1")
        #expect(parked.response == nil)
        #expect(origin.handler.counters.parkedPolls == 1)
        origin.stop()
        #expect(parked.isClosed)
        #expect(origin.handler.counters.parkedPolls == 0)
        let late = origin.get("/time/0")
        #expect(late.status == 503)
        #expect(late.object["error"] as? Bool == true)
        origin.stop()
    }
}

/// Entries recorded by an observer, from any thread.
final class LockedEntries: Sendable {
    private let stored = Locked<[RequestLogEntry]>([])

    func append(_ entry: RequestLogEntry) { self.stored.withLock { $0.append(entry) } }
    var entries: [RequestLogEntry] { self.stored.current }
}
