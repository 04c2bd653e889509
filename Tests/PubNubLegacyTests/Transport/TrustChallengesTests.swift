import Foundation
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bookkeeping of URLSession's server-trust challenges (`TrustChallenges`), which the Apple-only delegate
/// (`TrustEvaluation+Security.swift`) only carries out: which tasks the package judges, and that a refusal becomes
/// the task's outcome instead of the cancellation URLSession reports.
@Suite struct TrustChallengesTests {
    static let evaluation = TrustEvaluation(
        host: "origin.example",
        trust: TLSTrust(pinnedKeyDigests: [[UInt8](repeating: 7, count: 32)]),
        relaxed: false
    )
    static let refusal = TransportFailure.tls(code: -1202, description: "refused")

    @Test func anUnregisteredTaskGetsThePlatformsOwnEvaluation() {
        let challenges = TrustChallenges()
        var judged = false
        let answer = challenges.answer(1) { _ in
            judged = true
            return nil
        }
        #expect(answer == .platformDefault)
        #expect(!judged)
        #expect(challenges.finish(1) == nil)
    }

    @Test func aRegisteredTaskIsJudgedByItsEvaluationAndAcceptedOrRefused() {
        let challenges = TrustChallenges()
        challenges.register(1, Self.evaluation)
        challenges.register(2, Self.evaluation)
        var seen: [TrustEvaluation] = []
        #expect(
            challenges.answer(1) {
                seen.append($0); return nil
            } == .accept
        )
        #expect(
            challenges.answer(2) {
                seen.append($0); return Self.refusal
            } == .refuse
        )
        #expect(seen == [Self.evaluation, Self.evaluation])
        #expect(challenges.finish(1) == nil, "accepted: the task's own outcome stands")
        #expect(challenges.finish(2) == Self.refusal, "refused: the refusal replaces URLSession's cancellation")
        #expect(challenges.count == 0)
        #expect(challenges.finish(2) == nil, "reported once")
    }

    @Test func aSecondHandshakeOfTheSameTaskIsJudgedAgain() {
        let challenges = TrustChallenges()
        challenges.register(5, Self.evaluation)
        #expect(challenges.answer(5) { _ in Self.refusal } == .refuse)
        #expect(challenges.answer(5) { _ in nil } == .accept)
        #expect(challenges.finish(5) == Self.refusal, "the refusal stays the outcome: the request failed")
    }
}
