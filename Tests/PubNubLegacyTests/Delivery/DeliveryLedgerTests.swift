import Testing

@testable import PubNubLegacy

@Suite struct DeliveryLedgerTests {
    private let main = ObjectIdentifier(ThreadStandIn.main)
    private let other = ObjectIdentifier(ThreadStandIn.other)

    /// Two objects whose identities stand for two threads.
    private final class ThreadStandIn: Sendable {
        static let main = ThreadStandIn()
        static let other = ThreadStandIn()
    }

    // `#expect` cannot take a mutating call as its expression; these return what the call did.
    private static func enter(_ ledger: inout DeliveryLedger<Int>, _ thread: ObjectIdentifier) -> Bool {
        ledger.enter(thread)
    }

    private static func takeAll(_ ledger: inout DeliveryLedger<Int>) -> [Int] {
        ledger.takeAll()
    }

    @Test func eachWayIsAskedOnceUntilItsDrainStarts() {
        var ledger = DeliveryLedger<Int>()
        #expect(ledger.append(1, viaRunLoop: true) == .init(queue: true, runLoop: true))
        #expect(ledger.append(2, viaRunLoop: true) == .init(queue: false, runLoop: false))
        ledger.queueDrainStarted()
        #expect(ledger.append(3, viaRunLoop: true) == .init(queue: true, runLoop: false))
        ledger.runLoopDrainStarted()
        #expect(ledger.append(4, viaRunLoop: true) == .init(queue: false, runLoop: true))
        #expect(ledger.pending == [1, 2, 3, 4])
    }

    @Test func aQueueOtherThanMainIsNeverDrainedThroughTheRunLoop() {
        var ledger = DeliveryLedger<Int>()
        #expect(ledger.append(1, viaRunLoop: false) == .init(queue: true, runLoop: false))
        ledger.queueDrainStarted()
        #expect(ledger.append(2, viaRunLoop: false) == .init(queue: true, runLoop: false))
        #expect(!ledger.runLoopDrainRequested)
    }

    /// Whichever drain comes first takes every pending job; the second finds none, so no job is delivered twice.
    @Test func theFirstDrainTakesEverythingAndTheSecondFindsNothing() {
        var ledger = DeliveryLedger<Int>()
        _ = ledger.append(1, viaRunLoop: true)
        _ = ledger.append(2, viaRunLoop: true)
        ledger.runLoopDrainStarted()
        #expect(Self.enter(&ledger, self.main))
        #expect(Self.takeAll(&ledger) == [1, 2])
        #expect(Self.takeAll(&ledger) == [])
        #expect(ledger.owner == nil)
        ledger.queueDrainStarted()
        #expect(Self.enter(&ledger, self.main))
        #expect(Self.takeAll(&ledger) == [])
        #expect(ledger.owner == nil && ledger.depth == 0)
    }

    /// A drain on the owner's thread nests (a callback that runs the run loop); one on another thread steps aside,
    /// and the owner takes what arrived meanwhile before it lets go.
    @Test func drainsNestOnTheOwnersThreadAndStepAsideOnOthers() {
        var ledger = DeliveryLedger<Int>()
        _ = ledger.append(1, viaRunLoop: true)
        #expect(Self.enter(&ledger, self.main))
        #expect(Self.takeAll(&ledger) == [1])
        _ = ledger.append(2, viaRunLoop: true)
        #expect(!Self.enter(&ledger, self.other))
        #expect(Self.enter(&ledger, self.main))
        #expect(ledger.depth == 2)
        #expect(Self.takeAll(&ledger) == [2])
        #expect(Self.takeAll(&ledger) == [])  // the nested drain ends…
        #expect(ledger.owner == self.main && ledger.depth == 1)  // …its outer one goes on
        _ = ledger.append(3, viaRunLoop: true)
        #expect(!Self.enter(&ledger, self.other))
        #expect(Self.takeAll(&ledger) == [3])
        #expect(Self.takeAll(&ledger) == [])
        #expect(ledger.owner == nil && ledger.depth == 0)
        #expect(Self.enter(&ledger, self.other))
    }
}
