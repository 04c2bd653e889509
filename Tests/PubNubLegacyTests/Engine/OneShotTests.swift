import Foundation
import Testing

@testable import PubNubLegacy

/// `OneShot` and `ClientEngine.oneShot(timeout:timedOut:_:)`: an answer, a timeout and a cancellation race to
/// conclude one exchange; the body runs once, for the first of them.
@Suite struct OneShotTests {
    @Test func onlyTheFirstFireRunsTheBody() {
        var seen: [String] = []
        let shot = OneShot<String> { seen.append($0) }
        #expect(!shot.isSpent)
        #expect(shot.fire("first"))
        #expect(!shot.fire("second"))
        #expect(shot.isSpent)
        #expect(seen == ["first"])
    }

    @Test func aDisarmedShotNeverRuns() {
        var seen: [String] = []
        let shot = OneShot<String> { seen.append($0) }
        shot.disarm()
        #expect(shot.isSpent)
        #expect(!shot.fire("answer"))
        #expect(seen.isEmpty)
    }

    @Test func theTimeoutFiresOnceAndALaterAnswerIsIgnored() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        let (engine, outcomes) = (harness.engine, harness.outcomes)
        engine.queue.async {
            let shot = engine.oneShot(timeout: 0.05, timedOut: { "timed out" }) { outcomes.add($0) }
            engine.schedule(after: 0.3) {
                outcomes.add(shot.fire("late answer") ? "late answer ran" : "late answer ignored")
                outcomes.add(Outcomes.settledMark)
            }
        }
        let reported = try await outcomes.beforeSettledMark()
        #expect(reported == ["timed out", "late answer ignored"])
    }

    @Test func anAnswerBeforeTheTimeoutCancelsIt() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        let (engine, outcomes) = (harness.engine, harness.outcomes)
        engine.queue.async {
            let shot = engine.oneShot(
                timeout: 0.05,
                timedOut: {
                    outcomes.add("timedOut ran")
                    return "timed out"
                }
            ) { outcomes.add($0) }
            shot.fire("answer")
            // Well after the timeout's deadline: had the timer not been cancelled, it would have run before this.
            engine.schedule(after: 0.3) { outcomes.add(Outcomes.settledMark) }
        }
        let reported = try await outcomes.beforeSettledMark()
        #expect(reported == ["answer"])
    }
}
