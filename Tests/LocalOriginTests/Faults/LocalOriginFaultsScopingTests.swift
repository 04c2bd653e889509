import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

// Which requests a fault takes (scope, first match, count), what clearing releases, which faults are refused, and
// cutting connections off with `closeAllConnections()`.

@Suite struct LocalOriginFaultsScopingTests {
    @Test func aSubscribeOnlyFaultLeavesPublishWorking() throws {
        try withOrigin { origin throws in
            try origin.inject(.serverError(status: 503), on: .operation(.subscribe))
            let client = try HTTPTestClient(port: origin.port)
            #expect(try client.get("/subscribe/sub/c/0/0").status == 503)
            #expect(try client.get("/v2/subscribe/sub/c/0?tt=0").status == 503)
            #expect(try client.get("/publish/pub/sub/0/c/0/1").status == 200)
            #expect(try client.get("/time/0").status == 200)
            #expect(try client.get("/v2/history/sub-key/sub/channel/c").status == 200)
        }
    }

    @Test func aCountedFaultExpiresAfterItsRequests() throws {
        try withOrigin { origin throws in
            try origin.inject(.serverError(status: 502), on: .operation(.time), count: 2)
            #expect(origin.activeFaults.first?.remaining == 2)
            let client = try HTTPTestClient(port: origin.port)
            #expect(try client.get("/time/0").status == 502)
            #expect(origin.activeFaults.first?.remaining == 1)
            #expect(try client.get("/time/0").status == 502)
            #expect(origin.activeFaults.isEmpty)
            #expect(try client.get("/time/0").status == 200)
            #expect(origin.faultCounters.serverErrors == 2)
        }
    }

    @Test func aPathPrefixScopesToMatchingTargetsOnly() throws {
        try withOrigin { origin throws in
            try origin.inject(.accessDenied, on: .pathPrefix("/publish/pub/sub/0/secret/"))
            let client = try HTTPTestClient(port: origin.port)
            #expect(try client.get("/publish/pub/sub/0/secret/0/1").status == 403)
            #expect(try client.get("/publish/pub/sub/0/open/0/1").status == 200)
        }
    }

    @Test func theFirstMatchingFaultWinsAndCountsOnlyWhatItTakes() throws {
        try withOrigin { origin throws in
            let timeFault = try origin.inject(.serverError(status: 504), on: .operations([.time, .history]))
            let allFault = try origin.inject(.accessDenied, count: 5)
            #expect(origin.activeFaults.map(\.id) == [timeFault, allFault])
            let client = try HTTPTestClient(port: origin.port)
            #expect(try client.get("/time/0").status == 504)
            #expect(try client.get("/v2/history/sub-key/sub/channel/c").status == 504)
            #expect(try client.get("/publish/pub/sub/0/c/0/1").status == 403)
            #expect(origin.activeFaults.last?.remaining == 4)
            #expect(try origin.clearFault(timeFault))
            #expect(try !origin.clearFault(timeFault))
            #expect(try client.get("/time/0").status == 403)
            try origin.clearFaults()
            #expect(origin.activeFaults.isEmpty)
            #expect(try client.get("/time/0").status == 200)
            #expect(origin.faultCounters.requestsFaulted == 4)
        }
    }

    @Test func clearingOneFaultReleasesOnlyWhatItHolds() throws {
        try withOrigin { origin throws in
            let publishHole = try origin.inject(.neverAnswer, on: .operation(.publish), count: 1)
            try origin.inject(.neverAnswer, on: .operation(.time))
            let publisher = try HTTPTestClient(port: origin.port)
            let timer = try HTTPTestClient(port: origin.port)
            try publisher.sendGet("/publish/pub/sub/0/c/0/1")
            try timer.sendGet("/time/0")
            try eventuallyBlocking("origin.faultCounters.unanswered == 2") { origin.faultCounters.unanswered == 2 }
            #expect(origin.activeFaults.count == 1)  // the counted one is spent, but still holds its request
            #expect(try origin.clearFault(publishHole))
            try publisher.expectEndOfStream()
            #expect(!timer.hasInput(within: .milliseconds(100)))
        }
    }

    @Test(arguments: [
        (OriginFault.serverError(status: 404), OriginFaultScope.all, nil as Int?),
        (.serverError(status: 600), .all, nil),
        (.delay(-1), .all, nil),
        (.delay(.nan), .all, nil),
        (.delay(86_401), .all, nil),
        (.stallSubscribe(.infinity), .all, nil),
        (.neverAnswer, .all, 0),
        (.refuseConnections(dropExisting: false), .operation(.time), nil),
        (.refuseConnections(dropExisting: true), .all, 1),
        (.htmlPage, .operations([]), nil),
        (.htmlPage, .pathPrefix(""), nil),
    ])
    func unacceptableFaultsAreRefusedWithAnError(fault: OriginFault, scope: OriginFaultScope, count: Int?) throws {
        try withOrigin { origin throws in
            #expect {
                try origin.inject(fault, on: scope, count: count)
            } throws: { error in
                guard case .invalidFault = error as? OriginFaultError else { return false }
                return true
            }
            #expect(origin.activeFaults.isEmpty)
            #expect(try get(origin, "/time/0").status == 200)
        }
    }
}

@Suite struct LocalOriginCloseAllConnectionsTests {
    @Test func closingAllConnectionsEndsThemWithoutAnswersAndKeepsListening() throws {
        try withOrigin { origin throws in
            let idle = try HTTPTestClient(port: origin.port)
            #expect(try idle.get("/time/0").status == 200)
            let parked = try HTTPTestClient(port: origin.port)
            try parked.sendGet("/subscribe/sub/c/0/\(try currentTimetoken(origin))")
            try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
            origin.closeAllConnections()
            try idle.expectEndOfStream()
            try parked.expectEndOfStream()
            #expect(try get(origin, "/time/0").status == 200)
        }
    }

    @Test func aSubscriberCutOffWhileOthersPublishCatchesUpFromItsCursor() throws {
        try withOrigin { origin throws in
            let cursor = try currentTimetoken(origin)
            let subscriber = try HTTPTestClient(port: origin.port)
            try subscriber.sendGet("/subscribe/sub/news/0/\(cursor)")
            try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
            // The outage: subscribes and time probes go unanswered, live long-polls are cut, publishes go on.
            let outage = try origin.inject(.neverAnswer, on: .operations([.subscribe, .time]))
            origin.closeAllConnections()
            try subscriber.expectEndOfStream()
            let retry = try HTTPTestClient(port: origin.port)
            try retry.sendGet("/subscribe/sub/news/0/\(cursor)")
            _ = try publish(origin, "m1", on: "news")
            _ = try publish(origin, "m2", on: "news")
            try eventuallyBlocking("origin.faultCounters.unanswered == 1") { origin.faultCounters.unanswered == 1 }
            #expect(!retry.hasInput(within: .milliseconds(100)))
            try origin.clearFault(outage)
            try retry.expectEndOfStream()  // the black hole lost that request
            let caughtUp = try subscribeAnswer(try get(origin, "/subscribe/sub/news/0/\(cursor)"))
            #expect(caughtUp.messages == ["m1", "m2"])
        }
    }
}
