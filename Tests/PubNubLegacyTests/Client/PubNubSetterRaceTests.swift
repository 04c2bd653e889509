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

    /// Runs `trial` until `trials` ran or `budget` passed, then checks that no trial ended with the getter (what
    /// `reported` reads) naming another value than the client (what `applied` reads, on its queue), and prints the
    /// count. `change` is the setter call of one thread in one trial.
    static func stress(
        _ what: String,
        change: @escaping @Sendable (_ thread: Int, _ trial: Int) -> Void,
        applied: () -> String?,
        reported: () -> String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let started = Date()
        var mismatches: [String] = []
        var trials = 0
        while trials < Self.trials && Date().timeIntervalSince(started) < Self.budget {
            let trial = trials
            DispatchQueue.concurrentPerform(iterations: Self.threads) { change($0, trial) }
            let (client, getter) = (applied(), reported())
            if client != getter {
                mismatches.append("trial \(trial): getter \(getter ?? "nil"), client \(client ?? "nil")")
            }
            trials += 1
        }
        #expect(trials >= Self.minimumTrials, sourceLocation: sourceLocation)
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) of \(trials): \(mismatches.prefix(5))",
            sourceLocation: sourceLocation
        )
        print("\(what) race: \(mismatches.count) mismatches in \(trials) trials of \(Self.threads) threads")
    }

    @Test func theConfigurationGetterNamesTheOriginTheClientUses() {
        let client = PubNub(configuration: nil, delegate: nil, eventSinks: [], serviceLane: FakeTransport.origin())
        let configurations = (0..<Self.threads).map { index -> PNConfiguration in
            PNConfiguration.testing(origin: "origin-\(index).test:\(8_000 + index)")
        }
        // Each trial starts from another thread's value, so every trial has a change to race.
        Self.stress(
            "configuration",
            change: { thread, trial in client.setConfiguration(configurations[(thread + trial) % Self.threads]) },
            applied: { client.engine.queue.sync { client.engine.settings?.origin } },
            reported: { client.configuration?.origin }
        )
    }

    @Test func theIdentifierGetterNamesTheIdentifierTheClientUses() {
        let client = PubNub(configuration: nil, delegate: nil, eventSinks: [], serviceLane: FakeTransport.origin())
        client.setConfiguration(.testing(origin: "race.test:1"))
        Self.stress(
            "identifier",
            change: { thread, trial in client.setClientIdentifier("uuid-\((thread + trial) % Self.threads)") },
            applied: { client.engine.queue.sync { client.engine.uuid } },
            reported: { client.clientIdentifier() }
        )
    }
}
