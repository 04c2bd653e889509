import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

// Issue 31: a request's timeout counts from the call, the wait for its turn included (docs/BEHAVIOR.md §1.2), and a
// call the overlay's caller withdrew before its turn never runs. On the manual clock, so the times are exact.

extension RequestRunnerTests {
    static let timedOut = "failure \(kPNRequestExecutionFailedByTimeoutError)"

    @Test func aRequestsTimeoutCountsFromItsCallNotFromItsTurn() async throws {
        let clock = ManualClock()
        let harness = RunnerHarness(timeout: 10, clock: clock)
        defer { harness.engine.shutdown() }
        harness.runTime(idempotent: true, label: "first")  // sent at once, never answered
        harness.drainClientQueue()
        clock.advance(by: 4)
        harness.runTime(idempotent: true, label: "second")  // waits behind the first
        harness.drainClientQueue()
        clock.advance(by: 6)  // 10 s: the first times out, the second starts
        try await harness.outcomes.wait(for: "first \(Self.timedOut)")
        #expect(harness.lane.sent.count == 2)
        clock.advance(by: 4)  // 10 s since the second was called: 6 waiting, 4 running
        try await harness.outcomes.wait(for: "second \(Self.timedOut)")
        let reported = try await harness.settled()
        #expect(reported == ["first \(Self.timedOut)", "second \(Self.timedOut)"])
    }

    @Test func aRequestWhoseTimeoutPassesWhileItWaitsFailsWithoutBeingSent() async throws {
        let clock = ManualClock()
        let harness = RunnerHarness(timeout: 10, clock: clock)
        defer { harness.engine.shutdown() }
        harness.holdTheQueue()
        harness.runTime(idempotent: true, label: "waiting")
        harness.drainClientQueue()
        clock.advance(by: 9.5)
        #expect(harness.outcomes.entries.isEmpty)
        clock.advance(by: 0.5)
        try await harness.outcomes.wait(for: "waiting \(Self.timedOut)")
        let reported = try await harness.settled()
        #expect(reported == ["waiting \(Self.timedOut)"])
        #expect(harness.lane.sent.isEmpty)
        #expect(clock.pendingDelays.isEmpty, "the deadline went with the request")
    }

    @Test func theTimeoutCountsFromTheCallEvenWhenTheClientQueueIsBusy() async throws {
        let clock = ManualClock()
        let harness = RunnerHarness(timeout: 10, clock: clock)
        defer { harness.engine.shutdown() }
        harness.drainClientQueue()
        // The client's queue is busy when the call is made, and for 8 s of the clock after it.
        let busy = DispatchSemaphore(value: 0)
        harness.engine.queue.async { busy.wait() }
        harness.holdTheQueue()
        harness.runTime(idempotent: true, label: "late")
        clock.advance(by: 8)
        busy.signal()
        harness.drainClientQueue()
        clock.advance(by: 1.5)
        #expect(harness.outcomes.entries.isEmpty)
        clock.advance(by: 0.5)  // 10 s since the call
        try await harness.outcomes.wait(for: "late \(Self.timedOut)")
        #expect(harness.lane.sent.isEmpty)
    }

    @Test func aWithdrawnCallNeverRunsAndItsBlockRunsOnceAlone() async throws {
        // The kept call must not time out while a loaded machine runs the test.
        let harness = RunnerHarness(timeout: 600)
        defer { harness.engine.shutdown() }
        harness.holdTheQueue()
        let withdrawn = CallTicket()
        let kept = CallTicket()
        withdrawn.scope { harness.runTime(idempotent: true, label: "withdrawn") }
        kept.scope { harness.runTime(idempotent: true, preflight: .succeed(5), label: "kept") }
        harness.drainClientQueue()
        withdrawn.withdraw()
        withdrawn.withdraw()  // again: harmless
        let notReady = "failure \(kPNRequestExecutionFailedClientNotReadyError)"
        try await harness.outcomes.wait(for: "withdrawn \(notReady)")
        let reported = try await harness.settled()
        #expect(reported == ["withdrawn \(notReady)"], "the other call still waits")
        #expect(harness.lane.sent.isEmpty)
    }

    @Test func aCallWithdrawnBeforeItReachesTheQueueIsNeverQueued() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        let ticket = CallTicket()
        ticket.withdraw()
        ticket.scope { harness.runTime(idempotent: true, label: "late") }
        let notReady = "failure \(kPNRequestExecutionFailedClientNotReadyError)"
        try await harness.outcomes.wait(for: "late \(notReady)")
        // The queue is free: the next call runs at once.
        harness.runTime(idempotent: true, preflight: .succeed(3), label: "next")
        try await harness.outcomes.wait(for: "next success 3")
        #expect(harness.lane.sent.isEmpty)
    }
}
