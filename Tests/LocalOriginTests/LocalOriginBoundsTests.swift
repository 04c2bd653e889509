import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// The amplification findings of the hostile-input probe, end to end against a started `LocalOrigin`: pipelined
// history answers are produced only as the client drains them, and more idle connections than the cap do not lock
// other clients out. (One channel repeated in a v3 history request is `OriginStoreHistoryTests`.) The presence
// finding — uuids announced with `heartbeat=1e9` stayed for good — runs on the harness's manual clock, since its
// bound is time.

@Suite(.holdsAThread) struct LocalOriginBoundsTests {
    /// POSTs `body` as a publish on `channel` and expects it stored.
    private func publish(_ client: HTTPTestClient, _ channel: String, _ body: String) throws {
        try client.send(
            "POST /publish/pub/sub/0/\(channel)/0 HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        #expect(try client.readResponse().status == 200)
    }

    @Test func pipelinedHistoryRequestsAreAnsweredOnlyAsTheClientReads() throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let publisher = try HTTPTestClient(port: origin.port)
        let text = "\"" + String(repeating: "h", count: 30_000) + "\""
        for _ in 0..<100 { try self.publish(publisher, "big", text) }
        let before = origin.counters.requests
        let reader = try HTTPTestClient(port: origin.port, receiveBufferBytes: 4_096)
        let request = "GET /v2/history/sub-key/sub/channel/big?count=100 HTTP/1.1\r\n\r\n"
        try reader.send(String(repeating: request, count: 32))  // 2 KB asking for 32 answers of 3 MB
        // Once the connection holds answers up to the bound that the client does not take, it reads no more
        // requests until the client does; without the bound it never gets there (the probe saw ~137 MB held).
        let server = origin.control.withLock { $0.server }
        try eventuallyBlocking("server.heldBackConnectionCount == 1", within: 30) {
            server.heldBackConnectionCount == 1
        }
        #expect(origin.counters.requests - before <= 4)
        for _ in 0..<32 {
            let response = try reader.readResponse(within: .seconds(60))
            #expect(response.status == 200)
            #expect(response.body.count > 3_000_000)
        }
        #expect(origin.counters.requests - before == 32)
    }

    @Test func uuidsAnnouncedWithAHugeHeartbeatStillTimeOut() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        let count = 20_000
        for index in 0..<count {
            origin.send("/v2/presence/sub-key/sub/channel/room\(index % 100)/heartbeat?heartbeat=1e9&uuid=u\(index)")
        }
        let before = origin.get("/v2/presence/sub-key/sub")
        #expect((before.object["payload"] as? [String: Any])?["total_occupancy"] as? Int == count)
        origin.clock.advance(by: OriginStore.maximumPresenceTimeout + 1)
        origin.handler.sweepPresence()
        let after = origin.get("/v2/presence/sub-key/sub")
        #expect((after.object["payload"] as? [String: Any])?["total_occupancy"] as? Int == 0)
    }

    @Test func moreIdleConnectionsThanTheCapDoNotLockOthersOut() throws {
        var configuration = LocalOrigin.Configuration()
        configuration.limits.maxConnections = 32
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        // 40 connections that never send a byte against a cap of 32 (the probe: 10,050 against 10,000).
        let idle = try (0..<40).map { _ in try HTTPTestClient(port: origin.port) }
        let server = origin.control.withLock { $0.server }
        #expect(idle.count == 40)
        try eventuallyBlocking("server.connectionCount == 32") { server.connectionCount == 32 }
        let client = try HTTPTestClient(port: origin.port)
        try client.send("GET /time/0 HTTP/1.1\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }
}
