import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

// A request whose deadline passes while its answer may be waiting unread on a socket worker is left to the lane
// (`TransportTask.expire()` returns false, docs/BEHAVIOR.md §4.3): what the lane reports then decides, and the
// deadline still covers re-sends. On the manual clock, with a lane whose tasks leave their outcome to it.

extension RequestRunnerTests {
    /// A harness whose lane leaves its outcomes at the deadline, with one idempotent time request sent, unanswered,
    /// and its deadline passed.
    private static func pastTheDeadline() -> (RunnerHarness, ManualClock) {
        let clock = ManualClock()
        let harness = RunnerHarness(timeout: 10, clock: clock)
        harness.lane.leaveOutcomesAtDeadline()
        harness.runTime(idempotent: true, label: "left")
        harness.drainClientQueue()
        clock.advance(by: 10)
        harness.drainClientQueue()
        return (harness, clock)
    }

    @Test func anAnswerTheLaneTakesAfterTheDeadlineCompletesTheRequest() async throws {
        let (harness, _) = Self.pastTheDeadline()
        defer { harness.engine.shutdown() }
        #expect(harness.outcomes.entries.isEmpty, "the deadline waits for the lane")
        harness.lane.answerHeld(Self.answer(200, "[42]"))
        let reported = try await harness.settled()
        #expect(reported == ["left success 42"])
        #expect(harness.lane.sent.count == 1)
    }

    @Test func aFailureTheLaneReportsAfterTheDeadlineIsTheDeadlinesTimeoutAndNothingIsResent() async throws {
        let (harness, _) = Self.pastTheDeadline()
        defer { harness.engine.shutdown() }
        harness.lane.answerHeld(.failure(.network(code: -1005, description: "network connection lost")))
        let reported = try await harness.settled()
        #expect(reported == ["left \(Self.timedOut)"])
        #expect(harness.lane.sent.count == 1, "a lost connection after the deadline is not re-sent")
    }

    @Test func aMalformedAnswerTakenAfterTheDeadlineIsNotResentButTimesOut() async throws {
        // Before the deadline a malformed answer to an idempotent request is re-sent; the deadline covers re-sends.
        let (harness, _) = Self.pastTheDeadline()
        defer { harness.engine.shutdown() }
        harness.lane.answerHeld(Self.answer(200, "["))
        let reported = try await harness.settled()
        #expect(reported == ["left \(Self.timedOut)"])
        #expect(harness.lane.sent.count == 1)
    }
}
