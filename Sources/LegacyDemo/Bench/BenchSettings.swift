import Foundation

/// What `LegacyDemo bench` was asked to do, read and checked from its flags.
struct BenchSettings {
    /// How much work each workload does.
    struct Counts {
        /// Workload 1: publishes, made back to back.
        var publishes: Int
        /// Workload 2: paced messages, and the pace.
        var latencyMessages: Int
        var latencyInterval: Double
        /// Workload 3: messages published as fast as the publisher can.
        var deliveryMessages: Int
        /// Workload 5: events per round, rounds per variant (the best round counts).
        var fanOutEvents: Int
        var fanOutRounds: Int
        /// Workload 6: timing rounds of at least `cryptoRoundSeconds` each (the best round counts).
        var cryptoRounds: Int
        var cryptoRoundSeconds: Double
        /// Workload 7: messages in the one subscribe answer.
        var batchMessages: Int
        /// Workload 8: timing rounds of at least `jsonRoundSeconds` each, per figure (the best round counts).
        var jsonRounds: Int
        var jsonRoundSeconds: Double
        /// Workload 4: requests on a new connection each, and as many on one kept-alive connection.
        var requestCostRequests: Int

        /// The counts the issue names, for release builds.
        static let full = Counts(
            publishes: 5_000,
            latencyMessages: 2_000,
            latencyInterval: 0.002,
            deliveryMessages: 5_000,
            fanOutEvents: 100_000,
            fanOutRounds: 5,
            cryptoRounds: 9,
            cryptoRoundSeconds: 0.05,
            batchMessages: 100_000,
            jsonRounds: 9,
            jsonRoundSeconds: 0.05,
            requestCostRequests: 300
        )

        /// A few seconds per workload at most (a smoke test; the figures are rougher).
        static let quick = Counts(
            publishes: 500,
            latencyMessages: 250,
            latencyInterval: 0.002,
            deliveryMessages: 500,
            fanOutEvents: 20_000,
            fanOutRounds: 3,
            cryptoRounds: 3,
            cryptoRoundSeconds: 0.02,
            batchMessages: 100_000,
            jsonRounds: 3,
            jsonRoundSeconds: 0.02,
            requestCostRequests: 50
        )

        /// Every workload with `messages` messages (or 20 times as many fan-out events): the tests' hidden
        /// `--messages` knob, which still runs every workload.
        static func tiny(_ messages: Int) -> Counts {
            Counts(
                publishes: messages,
                latencyMessages: messages,
                latencyInterval: 0.002,
                deliveryMessages: messages,
                fanOutEvents: 20 * messages,
                fanOutRounds: 1,
                cryptoRounds: 1,
                cryptoRoundSeconds: 0.005,
                batchMessages: 10 * messages,
                jsonRounds: 1,
                jsonRoundSeconds: 0.005,
                requestCostRequests: messages
            )
        }
    }

    /// HOST:PORT of `--origin`; nil runs every workload on an embedded `LocalOrigin`.
    var origin: String?
    var publishKey = "demo"
    var subscribeKey = "demo"
    /// TLS to `origin` (`--secure`), trusting `caFile` (`--ca-file`) instead of the system's trust store when set.
    var secure = false
    var caFile: String?
    /// Only the workloads that use the given origin (`--network-only`): fan-out, crypto, batch and JSON do not.
    var networkOnly: Bool
    var quick: Bool
    var counts: Counts
    /// `--storm SECONDS`: only the storm workload (`BenchStorm`), for that long.
    var storm: Double?

    init(_ arguments: ArraySlice<String>) throws {
        let options = try Options(
            arguments,
            valueFlags: ["--origin", "--publish-key", "--subscribe-key", "--messages", "--ca-file", "--storm"],
            switchFlags: ["--quick", "--secure", "--network-only"]
        )
        self.networkOnly = options.has("--network-only")
        self.quick = options.has("--quick")
        self.counts = self.quick ? .quick : .full
        if options.string("--storm") != nil {
            let seconds = try options.seconds("--storm", default: 0)
            guard seconds > 0 else { throw UsageError(message: "--storm must be more than 0 seconds") }
            self.storm = seconds
        }
        if let text = options.string("--messages") {
            guard let messages = Int(text), (1...100_000).contains(messages) else {
                throw UsageError(message: "--messages must be a whole number 1…100000")
            }
            self.counts = .tiny(messages)
        }
        if let address = options.string("--origin") {
            guard !address.isEmpty, !address.contains("/"), !address.contains(where: \.isWhitespace) else {
                throw UsageError(message: "--origin takes HOST:PORT, without scheme or path")
            }
            self.origin = address
            self.publishKey = options.string("--publish-key") ?? "demo"
            self.subscribeKey = options.string("--subscribe-key") ?? "demo"
            self.secure = options.has("--secure")
            self.caFile = options.string("--ca-file")
            if let caFile = self.caFile {
                guard self.secure else { throw UsageError(message: "--ca-file needs --secure") }
                guard FileManager.default.isReadableFile(atPath: caFile) else {
                    throw UsageError(message: "--ca-file \(caFile) is not a readable file")
                }
            }
        } else {
            for flag in ["--publish-key", "--subscribe-key", "--ca-file", "--secure"]
            where options.string(flag) != nil || options.has(flag) {
                throw UsageError(message: "\(flag) needs --origin (the embedded origin takes any key, plain HTTP)")
            }
        }
    }
}
