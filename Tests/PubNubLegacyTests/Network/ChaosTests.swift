import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// Chaos (issue 6): two clients on one in-process LocalOrigin exchange numbered messages on three channels while the
/// origin is faulted at moments and in ways drawn from a seeded generator — every fault kind the origin offers at
/// least once, and a restart that keeps the store. A restart that drops the store is left out: it loses messages
/// the origin had acknowledged, which no client can deliver.
///
/// The verdict, once the faults are cleared and both clients have caught up: every publish got exactly one outcome
/// (Sent or SendingError); every message reported Sent reached the other client exactly once, in publish order per
/// channel; messages reported failed ("unconfirmed") may or may not have arrived, but never twice or out of order.
///
/// `CHAOS_SECONDS` (default 30) sets how long faults are injected; `CHAOS_SEED` replays a schedule. The seed is in
/// every failure message.
@Suite struct ChaosTests {
    static let channelCount = 3
    /// At most this many publishes of one client wait for their outcome at a time.
    static let maximumOutstanding = 4

    /// One step of the fault schedule.
    enum Step: CustomStringConvertible {
        case fault(OriginFault, OriginFaultScope, count: Int?)
        case restart
        case closeConnections

        var description: String {
            switch self {
            case .fault(let fault, let scope, let count):
                return OriginFaultSpec(fault: fault, scope: scope, count: count).description
            case .restart: return "restart(keepingStore)"
            case .closeConnections: return "close-all"
            }
        }

        /// The kind, for the every-kind-at-least-once check.
        var kind: String {
            switch self {
            case .fault(.closeMidResponse(let point), _, _): return "cut=\(point.rawValue)"
            case .fault(.serverError, _, _): return "5xx"
            case .fault(.delay, _, _): return "delay"
            case .fault(.stallSubscribe, _, _): return "stall"
            case .fault(let fault, _, _): return fault.description
            case .restart, .closeConnections: return self.description
            }
        }
    }

    /// Every kind the schedule must contain.
    static let everyKind: Set<String> = [
        "refuse", "refuse-drop", "never", "delay", "cut=status", "cut=headers", "cut=body", "5xx", "403", "malformed",
        "non-utf8", "html", "stall", "restart(keepingStore)", "close-all",
    ]

    @Test func messagesSentThroughRandomFaultsArriveExactlyOnceInOrder() async throws {
        try await Self.run(secure: false)
    }

    /// The same chaos with both clients speaking TLS (the socket transport's OpenSSL) to a TLS terminator in front of
    /// the faulted origin: every fault reaches the clients through TLS connections (a cut response is a TLS stream
    /// that ends, a refused origin a TLS connection closed after its handshake).
    @Test(.enabled(if: OpenSSLTests.loaded)) func overTLSMessagesSentThroughRandomFaultsArriveExactlyOnceInOrder()
        async throws
    {
        try await Self.run(secure: true)
    }

    static func run(secure: Bool) async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["CHAOS_SECONDS"].flatMap(Double.init) ?? 30
        let seed = environment["CHAOS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        var generator = SplitMix64(seed: seed)
        let context = "\(secure ? "TLS " : "")chaos seed \(seed) (rerun with CHAOS_SEED=\(seed))"

        var configuration = LocalOrigin.Configuration()
        configuration.longPollTimeout = 4
        configuration.requestLogLimit = 100_000
        let origin = try LocalOrigin.start(configuration)
        defer { origin.stop() }
        var tls: (proxy: TLSProxy, authority: TestCertificateAuthority)?
        if secure {
            let authority = try await TestCertificateAuthority()
            do {
                let proxy = try await TLSProxy.start(
                    forwardingTo: origin.port,
                    identity: try await authority.issue("origin")
                )
                tls = (proxy, authority)
            } catch {
                authority.remove()
                throw error
            }
        }
        defer {
            tls?.proxy.stop()
            tls?.authority.remove()
        }
        let channels = (0..<Self.channelCount).map {
            PNChannel.channelWithName(LocalOriginClientTests.unique("chaos\($0)"))
        }
        let alice = ChaosParticipant(
            name: "alice",
            origin: origin,
            channels: channels,
            probeInterval: 0.5,
            idle: 6,
            tls: tls
        )
        let bob = ChaosParticipant(
            name: "bob",
            origin: origin,
            channels: channels,
            probeInterval: 0.5,
            idle: 6,
            tls: tls
        )
        defer {
            alice.stop()
            bob.stop()
        }
        for participant in [alice, bob] {
            participant.client.connect()
            try await eventually("\(participant.name) connected; \(context)", within: 20) {
                participant.client.isConnected()
            }
            participant.client.subscribeOnChannels(channels)
        }
        try await eventually("two parked long-polls; \(context)", within: 20) { origin.counters.parkedPolls >= 2 }

        // Faults and traffic run side by side until the schedule is done.
        let kinds = Self.everyKind
        let schedule = Self.schedule(kinds, lasting: seconds, using: &generator)
        let done = Locked(false)
        defer { done.set(true) }  // the traffic task ends on every way out
        let traffic = Task {
            try await Self.publishUntil(done, alice, bob)
        }
        var applied: [String] = []
        for (step, hold, gap) in schedule {
            applied.append("\(step) for \(String(format: "%.1f", hold)) s")
            try Self.apply(step, to: origin)
            try await Task.sleep(nanoseconds: UInt64(hold * 1e9))  // pacing of the chaos, not synchronisation
            try origin.clearFaults()
            try await Task.sleep(nanoseconds: UInt64(gap * 1e9))
        }
        done.set(true)
        try await traffic.value
        try origin.clearFaults()
        let report = { "\(context); faults: \(applied.joined(separator: ", "))" }
        #expect(Set(schedule.map(\.step.kind)).isSuperset(of: kinds), "\(report())")

        // Healthy again: every publish gets its outcome, both clients reconnect and are subscribed.
        try await eventually("every publish answered; \(report())", within: 60) {
            alice.outstanding == 0 && bob.outstanding == 0
        }
        for participant in [alice, bob] {
            try await eventually(
                "\(participant.name) connected and subscribed; \(report()); events \(participant.connectionEvents)",
                within: 60
            ) {
                participant.client.isConnected() && participant.client.subscribedChannels().count == Self.channelCount
            }
        }
        // A fence per channel: one more message each that is Sent; once the other side has it, it has everything
        // published before it on that channel (per-channel order).
        for participant in [alice, bob] {
            for index in 0..<Self.channelCount {
                try await Self.publishUntilSent(participant, on: index, report())
            }
        }
        for (receiver, sender) in [(alice, bob), (bob, alice)] {
            for index in 0..<Self.channelCount {
                let fence = sender.publishes.filter { $0.channel == index }.map(\.seq).max() ?? 0
                try await eventually(
                    "\(receiver.name) has \(sender.name):\(index):\(fence); \(report()); events \(receiver.connectionEvents)",
                    within: 60
                ) { receiver.received(from: sender.name, on: index).contains(fence) }
            }
        }
        // How often the origin was asked to publish a message: a duplicate that was published twice is a re-send.
        let publishedCount = { (text: String) -> Int in
            let escaped = PercentEncoding.escape("\"\(text)\"")
            return origin.requestLog.filter { $0.target.hasPrefix("/publish/") && $0.target.contains(escaped) }.count
        }
        Self.verify(receiver: alice, sender: bob, report(), publishedCount)
        Self.verify(receiver: bob, sender: alice, report(), publishedCount)
        if let proxy = tls?.proxy {
            // Every connection the clients made was TLS: none refused (a TLS alert), none plain. A handshake the
            // client gave up (its request's timeout under load) is neither.
            #expect(
                proxy.connections.allSatisfy { $0 == .tls || $0 == .tlsAbandoned },
                "\(report()); \(proxy.connections)"
            )
        }
    }

    // MARK: - Verdict

    /// Exactly one outcome per publish; every Sent message received once, in order; nothing received twice.
    static func verify(
        receiver: ChaosParticipant,
        sender: ChaosParticipant,
        _ report: String,
        _ publishedCount: @escaping (String) -> Int
    ) {
        let publishes = sender.publishes
        for publish in publishes {
            #expect(
                publish.terminalCount == 1,
                "\(report); \(sender.name):\(publish.channel):\(publish.seq) outcomes \(publish.states)"
            )
            #expect(
                publish.states.last.map { $0 != 0 } == true,
                "\(report); \(sender.name):\(publish.channel):\(publish.seq) called after its outcome \(publish.states)"
            )
        }
        for index in 0..<Self.channelCount {
            let received = receiver.received(from: sender.name, on: index)
            let sent = publishes.filter { $0.channel == index && $0.isSent }.map(\.seq)
            let missing = sent.filter { !received.contains($0) }
            #expect(missing.isEmpty, "\(report); \(receiver.name) never got \(sender.name):\(index): \(missing)")
            let describe = { (seq: Int) -> String in
                let text = "\(sender.name):\(index):\(seq)"
                let publish = publishes.first { $0.channel == index && $0.seq == seq }
                let error = publish?.errorCode.map(String.init) ?? "none"
                return "\(text) published \(publishedCount(text))×, outcomes \(publish?.states ?? []), error \(error)"
            }
            let distinct = received.reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
            let disorder = zip(distinct, distinct.dropFirst()).filter { $0 >= $1 }.map { "\($0)→\(describe($1))" }
            #expect(
                disorder.isEmpty,
                "\(report); \(receiver.name) got \(sender.name):\(index) out of order at \(disorder); events \(receiver.connectionEvents)"
            )
            // A repeat is either delivered twice (the subscribe loop's fault) or published twice (a re-send).
            let repeated = zip(received, received.dropFirst()).filter { $0 == $1 }.map(\.1)
            let resent = repeated.filter { publishedCount("\(sender.name):\(index):\($0)") > 1 }
            let redelivered = repeated.filter { !resent.contains($0) }
            #expect(
                redelivered.isEmpty,
                "\(report); \(receiver.name) got \(sender.name):\(index) twice: \(redelivered.map(describe)); events \(receiver.connectionEvents)"
            )
            #expect(resent.isEmpty, "\(report); re-sent: \(resent.map(describe))")
        }
        #expect(receiver.strays.isEmpty, "\(report); \(receiver.name) got \(receiver.strays)")
    }

    // MARK: - Traffic

    /// Both participants publish round-robin on every channel, each with at most `maximumOutstanding` pending.
    static func publishUntil(_ done: Locked<Bool>, _ participants: ChaosParticipant...) async throws {
        var round = 0
        while !done.current {
            for participant in participants where participant.outstanding < Self.maximumOutstanding {
                participant.publish(on: round % Self.channelCount)
            }
            round += 1
            try await Task.sleep(nanoseconds: 40_000_000)  // pacing of the traffic, not synchronisation
        }
    }

    /// Publishes on channel `index` until one publish is Sent.
    static func publishUntilSent(_ participant: ChaosParticipant, on index: Int, _ report: String) async throws {
        for _ in 0..<10 {
            let slot = participant.publish(on: index)
            try await eventually("the outcome of publish \(slot); \(report)", within: 30) {
                participant.outcome(slot) != nil
            }
            if participant.outcome(slot) == true { return }
        }
        Issue.record("\(report); \(participant.name) could not publish on channel \(index) after the faults")
    }

    // MARK: - Schedule

    /// Every kind once in a seeded order, then random steps until `seconds` of chaos are planned; with each step
    /// how long it holds and the healthy gap after it.
    static func schedule(
        _ kinds: Set<String>,
        lasting seconds: Double,
        using generator: inout SplitMix64
    ) -> [(step: Step, hold: Double, gap: Double)] {
        var steps = kinds.sorted().map { Self.step(kind: $0, using: &generator) }
        steps.shuffle(using: &generator)
        var planned: [(step: Step, hold: Double, gap: Double)] = []
        var total = 0.0
        var index = 0
        while index < steps.count || total < seconds {
            if index == steps.count {
                let kind = kinds.sorted().randomElement(using: &generator) ?? "refuse"
                steps.append(Self.step(kind: kind, using: &generator))
            }
            let hold = Double.random(in: 0.3...1.8, using: &generator)
            let gap = Double.random(in: 0.3...1.2, using: &generator)
            planned.append((steps[index], hold, gap))
            total += hold + gap
            index += 1
        }
        return planned
    }

    /// A step of `kind` with random parameters: scope, count, delay, status.
    static func step(kind: String, using generator: inout SplitMix64) -> Step {
        let scopes: [OriginFaultScope] = [
            .all, .operation(.publish), .operation(.subscribe), .operation(.time), .operations([.publish, .subscribe]),
        ]
        let scope = scopes.randomElement(using: &generator) ?? .all
        let count: Int? = Bool.random(using: &generator) ? nil : Int.random(in: 1...4, using: &generator)
        switch kind {
        case "refuse": return .fault(.refuseConnections(dropExisting: false), .all, count: nil)
        case "refuse-drop": return .fault(.refuseConnections(dropExisting: true), .all, count: nil)
        case "never": return .fault(.neverAnswer, scope, count: count)
        case "delay": return .fault(.delay(Double.random(in: 0.2...12, using: &generator)), scope, count: count)
        case "cut=status": return .fault(.closeMidResponse(.statusLine), scope, count: count)
        case "cut=headers": return .fault(.closeMidResponse(.headers), scope, count: count)
        case "cut=body": return .fault(.closeMidResponse(.body), scope, count: count)
        case "5xx":
            return .fault(
                .serverError(status: [500, 502, 503, 504].randomElement(using: &generator) ?? 503),
                scope,
                count: count
            )
        case "403": return .fault(.accessDenied, scope, count: count)
        case "malformed": return .fault(.malformedJSON, scope, count: count)
        case "non-utf8": return .fault(.nonUTF8, scope, count: count)
        case "html": return .fault(.htmlPage, scope, count: count)
        case "stall":
            let seconds: Double? = Bool.random(using: &generator) ? nil : Double.random(in: 0.5...5, using: &generator)
            return .fault(.stallSubscribe(seconds), .all, count: count)
        case "restart(keepingStore)": return .restart
        default: return .closeConnections
        }
    }

    static func apply(_ step: Step, to origin: LocalOrigin) throws {
        switch step {
        case .fault(let fault, let scope, let count):
            try origin.inject(fault, on: scope, count: count)
        case .restart:
            try origin.restart(keepingStore: true)
        case .closeConnections:
            origin.closeAllConnections()
        }
    }

    // MARK: - Helpers

}

/// A small seeded generator (SplitMix64) so a chaos schedule can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var value = self.state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
