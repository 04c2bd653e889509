import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc

// The order in which one loop writes the answers a request decided: a publish answers the long-polls parked on its
// channel, then itself. On loopback a write lands in the peer's socket at once, and the thread it wakes on the loop's
// core runs before the loop writes again, so the answer written first is the one that reaches its reader first.

extension HTTPServerTests {
    /// The parked request's answer is written before the answer of the request that released it; the kernel's
    /// arrival times of the two (`SO_TIMESTAMPNS`) show the order of the writes.
    @Test func anAnswerToAParkedRequestIsWrittenBeforeTheAnswerOfTheRequestThatGaveIt() throws {
        var limits = HTTPServerLimits()
        limits.eventLoopCount = 1  // both connections on one loop: the order is that loop's
        try withHTTPServer(limits: limits) { server, handler in
            let parked = try HTTPTestClient(port: server.port)
            let releaser = try HTTPTestClient(port: server.port)
            parked.stampArrivals()
            releaser.stampArrivals()
            try parked.send("GET /park/a HTTP/1.1\r\nHost: t\r\n\r\n")
            try eventuallyBlocking("the request parked") { handler.parkedCount == 1 }
            try releaser.send("GET /release/a HTTP/1.1\r\nHost: t\r\n\r\n")
            let releasedAt = try parked.readStamped()
            let ownAt = try releaser.readStamped()
            #expect(try parked.readResponse().bodyText == "released")
            #expect(try releaser.readResponse().bodyText == "releaser")
            #expect(releasedAt < ownAt)
        }
    }
}
#endif
