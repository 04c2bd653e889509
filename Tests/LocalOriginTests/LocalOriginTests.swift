import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// End-to-end: a started `LocalOrigin` on 127.0.0.1 with a kernel-chosen port, driven over real sockets by the raw
// client of the HTTP tests. Every test stops the origin it started.

@Suite struct LocalOriginTests {
    /// Sends a GET (keep-alive) and reads its answer.
    private func get(_ client: HTTPTestClient, _ target: String) throws -> HTTPTestResponse {
        try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nV: 3.4\r\nAccept: */*\r\n\r\n")
        return try client.readResponse()
    }

    private func json(_ response: HTTPTestResponse, callback: String? = nil) throws -> Any {
        var text = response.bodyText
        if let callback {
            guard text.hasPrefix(callback + "("), text.hasSuffix(")") else {
                throw HTTPTestError("not wrapped in \(callback)(…): \(text)")
            }
            text = String(text.dropFirst(callback.count + 1).dropLast())
        }
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// The v2 handshake cursor for `channels`.
    private func handshake(_ client: HTTPTestClient, _ channels: String) throws -> String {
        let object = try self.json(try self.get(client, "/v2/subscribe/sub/\(channels)/0?tt=0")) as? [String: Any]
        return (object?["t"] as? [String: Any])?["t"] as? String ?? ""
    }

    private func payloads(_ response: HTTPTestResponse) throws -> [Any] {
        let object = try self.json(response) as? [String: Any]
        return (object?["m"] as? [[String: Any]] ?? []).compactMap { $0["d"] }
    }

    @Test func servesTimeOnAKernelChosenPort() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        #expect(origin.port != 0)
        #expect(origin.host == "127.0.0.1")
        #expect(origin.address == "127.0.0.1:\(origin.port)")
        let client = try HTTPTestClient(port: origin.port)
        let response = try self.get(client, "/time/t_a1b2c")
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.header("Content-Type") == "text/javascript; charset=\"UTF-8\"")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Content-Length") == String(response.body.count))
        let time = try self.json(response, callback: "t_a1b2c") as? [NSNumber]
        #expect(time?.count == 1)
        #expect((time?.first?.uint64Value ?? 0) > 10_000_000_000_000_000)
    }

    @Test func aParkedLongPollIsWokenByAPublishOnAnotherConnection() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let subscriber = try HTTPTestClient(port: origin.port)
        let publisher = try HTTPTestClient(port: origin.port)
        let cursor = try self.handshake(subscriber, "live")
        try subscriber.send("GET /v2/subscribe/sub/live/0?tt=\(cursor)&uuid=s HTTP/1.1\r\nHost: x\r\n\r\n")
        try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
        let published = try self.get(publisher, "/publish/pub/sub/0/live/0/%22wake%22?uuid=p")
        #expect(published.status == 200)
        let answer = try subscriber.readResponse(within: .seconds(10))
        #expect(try self.payloads(answer) as? [String] == ["wake"])
    }

    @Test func oneThousandParkedLongPollsAreAllAnsweredByOnePublish() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let control = try HTTPTestClient(port: origin.port)
        let cursor = try self.handshake(control, "fanout")
        let clients = try (0..<1_000).map { _ in try HTTPTestClient(port: origin.port) }
        for (index, client) in clients.enumerated() {
            try client.send("GET /v2/subscribe/sub/fanout/0?tt=\(cursor)&uuid=u\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        try eventuallyBlocking("origin.counters.parkedPolls == 1_000", within: 60) {
            origin.counters.parkedPolls == 1_000
        }
        let published = try self.get(control, "/publish/pub/sub/0/fanout/0/%7B%22n%22%3A1%7D")
        #expect(published.status == 200)
        var answered = 0
        for client in clients {
            let response = try client.readResponse(within: .seconds(30))
            if try self.payloads(response) as? [[String: Int]] == [["n": 1]] { answered += 1 }
        }
        #expect(answered == 1_000)
        #expect(origin.counters.parkedPolls == 0)
        #expect(origin.counters.deliveries >= 1_000)
    }

    @Test func longPollsExpireAfterTheConfiguredTimeout() throws {
        var configuration = LocalOrigin.Configuration()
        configuration.longPollTimeout = 0.2
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        let client = try HTTPTestClient(port: origin.port)
        try client.send("GET /subscribe/sub/quiet/s_abcde/1?uuid=u HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse(within: .seconds(10))
        let body = try self.json(response, callback: "s_abcde") as? [Any]
        #expect((body?.first as? [Any])?.isEmpty == true)
        #expect((body?.last as? String).flatMap(UInt64.init) ?? 0 > 1)
        #expect(origin.counters.expiredPolls == 1)
    }

    @Test func silentUUIDsTimeOutAfterTheConfiguredPresenceTimeout() throws {
        var configuration = LocalOrigin.Configuration()
        configuration.defaultPresenceTimeout = 0.3
        configuration.presenceSweepInterval = 0.05
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        let watcher = try HTTPTestClient(port: origin.port)
        let ghost = try HTTPTestClient(port: origin.port)
        var cursor = try self.handshake(watcher, "room-pnpres")
        #expect(try self.get(ghost, "/v2/presence/sub-key/sub/channel/room/heartbeat?uuid=ghost").status == 200)
        var actions: [String] = []
        while actions.count < 2 {
            let response = try self.get(watcher, "/v2/subscribe/sub/room-pnpres/0?tt=\(cursor)")
            let object = try self.json(response) as? [String: Any]
            cursor = (object?["t"] as? [String: Any])?["t"] as? String ?? cursor
            for case let event as [String: Any] in try self.payloads(response) {
                actions.append(event["action"] as? String ?? "?")
                #expect(event["uuid"] as? String == "ghost")
            }
        }
        #expect(actions == ["join", "timeout"])
    }

    @Test func pipelinedThirtyFourStyleRequestsAreAnsweredInOrderWithTheirCallbacks() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try HTTPTestClient(port: origin.port)
        let requests = [
            "/time/t_aaaaa",
            "/publish/pub/sub/0/order/m_bbbbb/%22x%22?uuid=u",
            "/v2/history/sub-key/sub/channel/order?callback=h_ccccc&count=100&reverse=false",
            "/v2/presence/sub_key/sub/channel/order/leave?uuid=u&callback=lv_ddddd",
        ]
        try client.send(requests.map { "GET \($0) HTTP/1.1\r\nHost: x\r\nV: 3.4\r\n\r\n" }.joined())
        for callback in ["t_aaaaa", "m_bbbbb", "h_ccccc", "lv_ddddd"] {
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.bodyText.hasPrefix(callback + "("), "\(response.bodyText)")
        }
    }

    @Test func postPublishOverTheWire() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try HTTPTestClient(port: origin.port)
        let body = "\"via POST\""
        try client.send(
            "POST /publish/pub/sub/0/posted/0?uuid=py HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect((try self.json(response) as? [Any])?[1] as? String == "Sent")
        let history = try self.json(try self.get(client, "/v2/history/sub-key/sub/channel/posted")) as? [Any]
        #expect(history?.first as? [String] == ["via POST"])
    }

    @Test func anAbandonedLongPollConnectionConsumesNothing() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let control = try HTTPTestClient(port: origin.port)
        let cursor = try self.handshake(control, "drop")
        do {
            let leaving = try HTTPTestClient(port: origin.port)
            try withExtendedLifetime(leaving) {
                try leaving.send("GET /v2/subscribe/sub/drop/0?tt=\(cursor) HTTP/1.1\r\nHost: x\r\n\r\n")
                try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
            }
        }  // the last reference goes: the client closes its socket
        try eventuallyBlocking("origin.counters.parkedPolls == 0") { origin.counters.parkedPolls == 0 }
        try eventuallyBlocking("origin.requestLog.contains { $0.status == 0 }") {
            origin.requestLog.contains { $0.status == 0 }
        }
        _ = try self.get(control, "/publish/pub/sub/0/drop/0/1")
        #expect(try self.payloads(try self.get(control, "/v2/subscribe/sub/drop/0?tt=\(cursor)")) as? [Int] == [1])
    }

    @Test func observersSeeRequestsFromTheWire() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let seen = LockedEntries()
        origin.addRequestObserver { seen.append($0) }
        let client = try HTTPTestClient(port: origin.port)
        _ = try self.get(client, "/time/0")
        _ = try self.get(client, "/missing")
        try eventuallyBlocking("seen.entries.count == 2") { seen.entries.count == 2 }
        #expect(seen.entries.map(\.status) == [200, 404])
        #expect(origin.requestLog.map(\.target) == ["/time/0", "/missing"])
        #expect(origin.counters.requests == 2)
    }

    @Test func configuredKeysAreEnforcedOverTheWire() throws {
        var configuration = LocalOrigin.Configuration()
        configuration.publishKeys = ["pub-ok"]
        configuration.subscribeKeys = ["sub-ok"]
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        let client = try HTTPTestClient(port: origin.port)
        let badPublish = try self.get(client, "/publish/pub-bad/sub-ok/0/c/0/1")
        #expect(badPublish.status == 400)
        #expect((try self.json(badPublish) as? [Any])?[1] as? String == "Invalid Key")
        let badHistory = try self.get(client, "/v2/history/sub-key/sub-bad/channel/c")
        #expect(badHistory.status == 400)
        #expect(try badHistory.json()["message"] as? String == "Invalid Subscribe Key")
        #expect(try self.get(client, "/publish/pub-ok/sub-ok/0/c/0/1").status == 200)
    }

    @Test func stopClosesEveryConnectionFreesThePortAndIsIdempotent() throws {
        let origin = try LocalOrigin.start()
        let port = origin.port
        let parked = try HTTPTestClient(port: port)
        let idle = try HTTPTestClient(port: port)
        _ = try self.get(idle, "/time/0")
        try parked.send("GET /v2/subscribe/sub/c/0?tt=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
        origin.stop()
        #expect(origin.counters.parkedPolls == 0)
        try parked.expectEndOfStream()
        try idle.expectEndOfStream()
        origin.stop()
        var again = LocalOrigin.Configuration()
        again.port = port
        let second = try LocalOrigin.start(again)
        defer { second.stop() }
        #expect(second.port == port)
    }

    @Test func aTakenPortIsReportedAsAnError() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        var configuration = LocalOrigin.Configuration()
        configuration.port = origin.port
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: origin.port)) {
            try LocalOrigin.start(configuration)
        }
    }

    @Test func outOfRangeSettingsDoNotTrap() throws {
        var configuration = LocalOrigin.Configuration()
        configuration.longPollTimeout = .infinity
        configuration.defaultPresenceTimeout = -1
        configuration.presenceSweepInterval = .nan
        configuration.historyLimitPerChannel = -5
        configuration.maxChannels = 0
        configuration.requestLogLimit = -1
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        let client = try HTTPTestClient(port: origin.port)
        #expect(try self.get(client, "/publish/pub/sub/0/c/0/1").status == 200)
        #expect(try self.get(client, "/v2/history/sub-key/sub/channel/c").bodyText.hasPrefix("[[1],"))
        #expect(origin.requestLog.isEmpty)
    }

    @Test func rawBytesThatAreNotUTF8AreRefusedLikeTheirEscapedForm() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try HTTPTestClient(port: origin.port)
        let refusal = #"{"status":400,"error":true,"message":"Invalid UTF-8","service":"Balancer"}"#
        // The probe stored raw `\xff\xfe` as U+FFFD while `%FF%FE` got 400; and `a%FFb` / `a%FEb` were one channel.
        let raw = Array("GET /publish/pub/sub/0/c/0/\"".utf8) + [0xFF, 0xFE] + Array("\" HTTP/1.1\r\n\r\n".utf8)
        for request in [raw, Array("GET /publish/pub/sub/0/c/0/%22%FF%FE%22 HTTP/1.1\r\n\r\n".utf8)] {
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.bodyText == refusal)
        }
        let rawChannel = Array("GET /publish/pub/sub/0/a".utf8) + [0xFF] + Array("b/0/1 HTTP/1.1\r\n\r\n".utf8)
        try client.send(rawChannel)
        #expect(try client.readResponse().bodyText == refusal)
        #expect(try self.get(client, "/v2/history/sub-key/sub/channel/a%FEb").bodyText == refusal)
        #expect(try self.get(client, "/v2/history/sub-key/sub/channel/c").bodyText == "[[],0,0]")  // still open
        #expect(origin.counters.publishes == 0)
    }

}
