import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

/// Issue 31: the setters from many threads at once. `configuration` and `clientIdentifier()` answer at once (the
/// snapshot the setter writes), while the client applies the change on its queue: both must end on the same call's
/// values. Before the snapshot and the hand-over to the queue were one step, about one trial in a thousand ended with
/// the getter naming one origin while the client used another.
@Suite struct PubNubSetterRaceTests {
    /// Threads calling the setter at once in each trial.
    static let threads = 16
    /// Trials per test, unless the time budget ends them first.
    static let trials = 4_000
    /// Seconds a test may spend on trials; the verdict counts the trials run (at least `minimumTrials`).
    static let budget: TimeInterval = 60
    static let minimumTrials = 200

    /// Runs `trial` until `trials` ran or `budget` passed; returns the trials run and the descriptions of those
    /// whose getter and engine disagreed.
    static func stress(_ trial: (Int) -> String?) -> (trials: Int, mismatches: [String]) {
        let started = Date()
        var mismatches: [String] = []
        var run = 0
        while run < Self.trials && Date().timeIntervalSince(started) < Self.budget {
            if let mismatch = trial(run) { mismatches.append(mismatch) }
            run += 1
        }
        return (run, mismatches)
    }

    @Test func theConfigurationGetterNamesTheOriginTheClientUses() {
        let client = PubNub(configuration: nil, delegate: nil, eventSinks: [], serviceLane: FakeTransport.origin())
        let configurations = (0..<Self.threads).map { index -> PNConfiguration in
            PNConfiguration.testing(origin: "origin-\(index).test:\(8_000 + index)")
        }
        let result = Self.stress { trial in
            DispatchQueue.concurrentPerform(iterations: Self.threads) { index in
                // Each trial starts from another thread's value, so every trial has a change to race.
                client.setConfiguration(configurations[(index + trial) % Self.threads])
            }
            let applied = client.engine.queue.sync { client.engine.settings?.origin }
            let reported = client.configuration?.origin
            return applied == reported
                ? nil : "trial \(trial): configuration \(reported ?? "nil"), client \(applied ?? "nil")"
        }
        #expect(result.trials >= Self.minimumTrials)
        #expect(
            result.mismatches.isEmpty,
            "\(result.mismatches.count) of \(result.trials): \(result.mismatches.prefix(5))"
        )
        print(
            "configuration race: \(result.mismatches.count) mismatches in \(result.trials) trials of \(Self.threads) threads"
        )
    }

    @Test func theIdentifierGetterNamesTheIdentifierTheClientUses() {
        let client = PubNub(configuration: nil, delegate: nil, eventSinks: [], serviceLane: FakeTransport.origin())
        client.setConfiguration(.testing(origin: "race.test:1"))
        let result = Self.stress { trial in
            DispatchQueue.concurrentPerform(iterations: Self.threads) { index in
                client.setClientIdentifier("uuid-\((index + trial) % Self.threads)")
            }
            let applied = client.engine.queue.sync { client.engine.uuid }
            let reported = client.clientIdentifier()
            return applied == reported
                ? nil : "trial \(trial): clientIdentifier \(reported ?? "nil"), client \(applied ?? "nil")"
        }
        #expect(result.trials >= Self.minimumTrials)
        #expect(
            result.mismatches.isEmpty,
            "\(result.mismatches.count) of \(result.trials): \(result.mismatches.prefix(5))"
        )
        print(
            "identifier race: \(result.mismatches.count) mismatches in \(result.trials) trials of \(Self.threads) threads"
        )
    }
}
