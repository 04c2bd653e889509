import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// `restart(keepingStore:)`: same address, every connection closed, the store kept whole (catch-up from an old cursor
// across the restart) or started empty, faults and observers carried over.

@Suite struct LocalOriginRestartTests {
    @Test func keepingTheStoreLetsAnOldCursorCatchUpAcrossTheRestart() throws {
        try withOrigin { origin throws in
            let address = origin.address
            let cursor = try currentTimetoken(origin)
            let before = [try publish(origin, "m1", on: "r"), try publish(origin, "m2", on: "r")]
            let parked = try HTTPTestClient(port: origin.port)
            try parked.sendGet("/subscribe/sub/idle/0/\(try currentTimetoken(origin))")
            try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }

            try origin.restart(keepingStore: true)

            #expect(origin.address == address)
            try parked.expectEndOfStream()  // the restart closed it without an answer
            let after = try publish(origin, "m3", on: "r")
            #expect(before[0] < before[1] && before[1] < after)  // strictly increasing across the restart
            let caughtUp = try subscribeAnswer(try get(origin, "/subscribe/sub/r/0/\(cursor)"))
            #expect(caughtUp.messages == ["m1", "m2", "m3"])
            #expect(caughtUp.cursor >= after)
            #expect(try historyMessages(origin, "r") == ["m1", "m2", "m3"])
            #expect(origin.counters.publishes == 3)  // counters carry on
            #expect(origin.faultCounters.restarts == 1)
        }
    }

    @Test func restartingEmptyForgetsEverythingButKeepsTheAddressAndTheClockMovingOn() throws {
        try withOrigin { origin throws in
            let address = origin.address
            let cursor = try currentTimetoken(origin)
            let old = try publish(origin, "old", on: "e")
            let seen = Locked<[String]>([])
            origin.addRequestObserver { entry in seen.withLock { $0.append(entry.target) } }

            try origin.restart(keepingStore: false)

            #expect(origin.address == address)
            #expect(try historyMessages(origin, "e").isEmpty)
            #expect(origin.counters.publishes == 0)
            let new = try publish(origin, "new", on: "e")
            #expect(new > old)
            let answer = try subscribeAnswer(try get(origin, "/subscribe/sub/e/0/\(cursor)"))
            #expect(answer.messages == ["new"])
            // Observers added before the restart hear the new store's requests.
            try eventuallyBlocking("seen.withLock { $0.contains { $0.hasPrefix(\"/subscribe/sub/e/\") } }") {
                seen.withLock { $0.contains { $0.hasPrefix("/subscribe/sub/e/") } }
            }
        }
    }

    @Test func faultsStayInEffectAcrossARestartAndARefusalIsReapplied() throws {
        try withOrigin { origin throws in
            let port = origin.port
            try origin.inject(.serverError(status: 503), on: .operation(.history))
            try origin.inject(.refuseConnections(dropExisting: false))
            #expect(connectError(port: port) == ECONNREFUSED)

            try origin.restart(keepingStore: true)

            #expect(connectError(port: port) == ECONNREFUSED)
            #expect(origin.faultCounters.refusals == 2)
            try origin.clearFault(OriginFaultID(rawValue: 2))
            #expect(try get(origin, "/v2/history/sub-key/sub/channel/c").status == 503)
            #expect(try get(origin, "/time/0").status == 200)
        }
    }

    @Test func aRestartDropsWhatFaultsHold() throws {
        try withOrigin { origin throws in
            try origin.inject(.neverAnswer, on: .operation(.publish))
            try origin.inject(.stallSubscribe(nil))
            let held = try HTTPTestClient(port: origin.port)
            let stalled = try HTTPTestClient(port: origin.port)
            try held.sendGet("/publish/pub/sub/0/c/0/1")
            try stalled.sendGet("/subscribe/sub/c/0/0")
            try eventuallyBlocking("origin.faults.heldCount == 2") { origin.faults.heldCount == 2 }
            try origin.restart(keepingStore: true)
            try held.expectEndOfStream()
            try stalled.expectEndOfStream()
            #expect(origin.faults.heldCount == 0)
            #expect(origin.activeFaults.count == 2)
        }
    }

    @Test func concurrentRestartsRunOneAfterTheOther() throws {
        try withOrigin { origin throws in
            let failures = Locked<[OriginFaultError]>([])
            let finished = Locked(0)
            for keep in [true, false, true] {
                Thread {
                    do {
                        try origin.restart(keepingStore: keep)
                    } catch {
                        failures.withLock { $0.append(error as? OriginFaultError ?? .stopped) }
                    }
                    finished.withLock { $0 += 1 }
                }.start()
            }
            try eventuallyBlocking("finished.withLock { $0 } == 3", within: 30) { finished.withLock { $0 } == 3 }
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(origin.faultCounters.restarts == 3)
            #expect(try get(origin, "/time/0").status == 200)
        }
    }

    @Test func restartIsRefusedOnAServerThreadAndAfterStop() throws {
        let origin = try LocalOrigin.start()
        let result = Locked<OriginFaultError?>(nil)
        origin.addRequestObserver { _ in
            do {
                try origin.restart(keepingStore: true)
            } catch {
                result.withLock { $0 = error as? OriginFaultError }
            }
        }
        #expect(try get(origin, "/time/0").status == 200)
        try eventuallyBlocking("result.withLock { $0 } != nil") { result.withLock { $0 } != nil }
        #expect(result.withLock { $0 } == .onServerThread)
        origin.stop()
        #expect(throws: OriginFaultError.stopped) { try origin.restart(keepingStore: true) }
    }

    @Test func stopFromAnObserverDuringARestartStopsTheOrigin() throws {
        let origin = try LocalOrigin.start()
        let port = origin.port
        // A parked poll whose connection the restart closes: its drop is logged, so the observer runs on a server
        // thread while the restart waits for that thread.
        let parked = try HTTPTestClient(port: port)
        try parked.sendGet("/subscribe/sub/c/0/\(try currentTimetoken(origin))")
        try eventuallyBlocking("origin.counters.parkedPolls == 1") { origin.counters.parkedPolls == 1 }
        origin.addRequestObserver { entry in
            if entry.status == 0 { origin.stop() }
        }
        #expect(throws: OriginFaultError.stopped) { try origin.restart(keepingStore: true) }
        origin.stop()
        #expect(connectError(port: port) == ECONNREFUSED)
    }
}
