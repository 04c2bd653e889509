import Foundation
import PlatformSupport
import PubNubLegacy

/// `LegacyDemo cost`: one small workload per process, so that what a whole process counts — instructions under
/// callgrind, system calls under `perf stat` or `strace -c` — can be charged to that workload by running it twice with
/// different counts and taking the difference (Scripts/cost.sh does). Each run also prints what it can count itself
/// over the measured window: context switches and CPU time (`getrusage`), and for `idle` the resident set and the
/// threads. Figures are `COST <name> <value> <unit>` lines on stdout; progress goes to stderr.
enum CostCommand {
    static let usage = """
          LegacyDemo cost publish --origin HOST:PORT --count N [--channels a,b,…] [--warm-up N] [--pipeline-depth D]
            One client connects, publishes --warm-up messages (default 50, not counted), then N messages
            {"n":i} back to back on the channels in turn (sent one at a time in call order, or D at once with
            --pipeline-depth), and waits for every acknowledgement; prints the context switches and CPU time of
            those N publishes.
          LegacyDemo cost sequential --origin HOST:PORT --count N [--channels a,b,…] [--warm-up N]
            As publish, but each message is sent from the completion block of the one before (how a 3.x app sends
            one message after another, and Scripts/bench.sh's publish_sequential): one publish at a time, with the
            client's delivery queue on the path of every one.
          LegacyDemo cost receive --origin HOST:PORT --count N --channels a,b,…
            One client subscribes to the channels, prints `ready PID` on stdout, and exits once it received N
            distinct messages {"n":i} (another process publishes them); prints the context switches and CPU time
            from `ready` to the last message.
          LegacyDemo cost idle --origin HOST:PORT [--seconds S]
            One client connects, subscribes to one channel and stays idle for S seconds (default 7, past the
            transport's 5 s worker linger); prints its resident memory (all, and anonymous), threads and the
            context switches of the idle time.
        """

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        guard let workload = arguments.first else {
            throw UsageError(message: "cost needs publish, sequential, receive or idle")
        }
        let options = try Options(
            arguments.dropFirst(),
            valueFlags: ["--origin", "--count", "--channels", "--warm-up", "--pipeline-depth", "--seconds"],
            switchFlags: []
        )
        guard let origin = options.string("--origin") else { throw UsageError(message: "cost needs --origin") }
        let channels = (options.string("--channels") ?? "cost").split(separator: ",").map(String.init)
        guard !channels.isEmpty else { throw UsageError(message: "--channels needs at least one name") }
        switch workload {
        case "publish", "sequential":
            try Self.publish(
                origin: origin,
                count: try Self.count(options, "--count", default: nil),
                channels: channels,
                warmUp: try Self.count(options, "--warm-up", default: 50),
                pipelineDepth: try Self.count(options, "--pipeline-depth", default: 1),
                fromBlocks: workload == "sequential"
            )
        case "receive":
            try Self.receive(
                origin: origin,
                count: try Self.count(options, "--count", default: nil),
                channels: channels
            )
        case "idle":
            try Self.idle(origin: origin, seconds: try options.seconds("--seconds", default: 7))
        default:
            throw UsageError(message: "unknown cost workload \(workload)")
        }
        return 0
    }

    private static func count(_ options: Options, _ flag: String, default fallback: Int?) throws -> Int {
        guard let text = options.string(flag) else {
            guard let fallback else { throw UsageError(message: "cost needs \(flag)") }
            return fallback
        }
        guard let value = Int(text), value >= 0 else { throw UsageError(message: "\(flag) must be a whole number") }
        return value
    }

    private static func cost(_ name: String, _ value: Double, _ unit: String, decimals: Int = 3) {
        say("COST \(name) \(String(format: "%.\(decimals)f", value)) \(unit)")
    }

    /// The window's counts, per message.
    private static func report(_ prefix: String, _ usage: ProcessUsage, messages: Int, seconds: Double) {
        let per = Double(max(messages, 1))
        Self.cost("\(prefix)_messages", Double(messages), "msg", decimals: 0)
        Self.cost("\(prefix)_switches_per_message", Double(usage.switches) / per, "switches")
        Self.cost("\(prefix)_voluntary_switches_per_message", Double(usage.voluntarySwitches) / per, "switches")
        Self.cost("\(prefix)_involuntary_switches_per_message", Double(usage.involuntarySwitches) / per, "switches")
        Self.cost("\(prefix)_cpu_per_message", usage.cpuSeconds / per * 1e6, "us")
        Self.cost("\(prefix)_rate", Double(messages) / max(seconds, 1e-9), "msg/s", decimals: 0)
    }

    // MARK: - Workloads

    private static func client(origin: String, name: String, pipelineDepth: Int = 1) -> BenchClient {
        BenchClient(
            name: name,
            address: origin,
            publishKey: "demo",
            subscribeKey: "demo",
            pipelineDepth: pipelineDepth
        )
    }

    private static func publish(
        origin: String,
        count: Int,
        channels: [String],
        warmUp: Int,
        pipelineDepth: Int,
        fromBlocks: Bool
    ) throws {
        let client = Self.client(origin: origin, name: "cost-publisher", pipelineDepth: pipelineDepth)
        try client.connect(timeout: 15)
        defer { client.disconnect(timeout: 5) }
        let targets = channels.map(PNChannel.channelWithName)
        let timeout = 30 + Double(warmUp + count) * 0.02
        // Warm-up: the connection is open and every lazy initialisation done before the window starts.
        let round = fromBlocks ? Self.sequentialRound : Self.publishRound
        try round(client, targets, warmUp, timeout)
        let residentBefore = ProcessUsage.statusField("VmRSS:")
        _ = BenchMemory.resetPeak()
        let before = ProcessUsage.now()
        let started = nowNanos()
        try round(client, targets, count, timeout)
        let seconds = Double(nowNanos() &- started) / 1e9
        Self.report(
            fromBlocks ? "sequential" : "publish",
            ProcessUsage.now().since(before),
            messages: count,
            seconds: seconds
        )
        // What the N calls queued at once made the process hold: its peak, and what it still holds after them.
        if let residentBefore, let peak = BenchMemory.peakKiB(), let after = ProcessUsage.statusField("VmRSS:") {
            Self.cost("publish_rss_peak_growth", Double(peak - residentBefore), "KiB", decimals: 0)
            Self.cost("publish_rss_growth", Double(after - residentBefore), "KiB", decimals: 0)
        }
    }

    /// Publishes `count` messages, each from the completion block of the one before (on the client's delivery
    /// queue), and waits until all are acknowledged, in order.
    private static func sequentialRound(
        _ client: BenchClient,
        _ targets: [PNChannel],
        _ count: Int,
        _ timeout: Double
    ) throws {
        guard count > 0 else { return }
        let tally = CostTally(target: count)
        client.handle((sent: { tally.acknowledged($0) }, received: nil, failed: { tally.fail($0) }))
        let pubnub = client.client
        @Sendable func publish(_ number: Int) {
            let sent = pubnub.sendMessage(["n": number], toChannel: targets[number % targets.count]) { state, _ in
                if state == .PNMessageSent, number + 1 < count {
                    publish(number + 1)
                }
            }
            if sent == nil {
                tally.fail("message \(number) was refused before sending")
            }
        }
        publish(0)
        try tally.wait(timeout: timeout, what: "sequential publish")
    }

    /// Publishes `count` messages back to back and waits until all are acknowledged, in call order.
    private static func publishRound(
        _ client: BenchClient,
        _ targets: [PNChannel],
        _ count: Int,
        _ timeout: Double
    )
        throws
    {
        guard count > 0 else { return }
        let tally = CostTally(target: count)
        client.handle((sent: { tally.acknowledged($0) }, received: nil, failed: { tally.fail($0) }))
        for number in 0..<count {
            guard client.client.sendMessage(["n": number], toChannel: targets[number % targets.count]) != nil else {
                throw BenchError("cost: message \(number) was refused before sending")
            }
        }
        try tally.wait(timeout: timeout, what: "publish")
    }

    private static func receive(origin: String, count: Int, channels: [String]) throws {
        let client = Self.client(origin: origin, name: "cost-subscriber")
        try client.connect(timeout: 15)
        defer { client.disconnect(timeout: 5) }
        let tally = CostTally(target: count)
        client.handle((sent: nil, received: { tally.received($0) }, failed: { tally.fail($0) }))
        try client.subscribe(channels.map(PNChannel.channelWithName), timeout: 15)
        let before = ProcessUsage.now()
        let started = nowNanos()
        say("ready \(getpid())")
        try tally.wait(timeout: 120 + Double(count) * 0.05, what: "receive")
        let seconds = Double(nowNanos() &- started) / 1e9
        Self.report("receive", ProcessUsage.now().since(before), messages: count, seconds: seconds)
    }

    private static func idle(origin: String, seconds: Double) throws {
        guard let idle = try BenchIdle.measure(address: origin, seconds: seconds) else {
            throw BenchError("cost: idle: /proc/self/status cannot be read")
        }
        Self.cost("idle_rss", Double(idle.residentKiB), "KiB", decimals: 0)
        Self.cost("idle_anonymous_rss", Double(idle.anonymousKiB), "KiB", decimals: 0)
        Self.cost("idle_threads", Double(idle.threads), "threads", decimals: 0)
        Self.cost("idle_switches_per_second", idle.switchesPerSecond, "switches")
    }
}

/// Counts one workload's events on the client's delivery queue and opens a latch at the last one, so the waiting
/// thread is woken once, not per event (a wake-up per event would add a context switch per message to the figures).
private final class CostTally: Sendable {
    private struct State {
        var next = 0
        var seen: Set<String> = []
        var failure: String?
    }

    private let target: Int
    private let state = Locked(State())
    private let done = Latch()

    init(target: Int) {
        self.target = target
        if target == 0 { self.done.open() }
    }

    /// An acknowledged publish: its number must be the next in call order.
    func acknowledged(_ message: PNMessage) {
        let number = (message.message as? String).flatMap(Self.number(inJSON:))
        let finished = self.state.withLock { state -> Bool in
            if number != state.next, state.failure == nil {
                state.failure = "acknowledgement \(number.map(String.init) ?? "?") where \(state.next) was due"
            }
            state.next += 1
            return state.next == self.target || state.failure != nil
        }
        if finished { self.done.open() }
    }

    /// A received message, counted once per channel and number.
    func received(_ message: PNMessage) {
        guard let fields = message.message as? [String: Any], let number = jsonInteger(fields["n"]) else { return }
        let key = "\(message.channel?.name ?? "")/\(number)"
        let finished = self.state.withLock { state -> Bool in
            state.seen.insert(key)
            return state.seen.count >= self.target
        }
        if finished { self.done.open() }
    }

    func fail(_ reason: String) {
        self.state.withLock { if $0.failure == nil { $0.failure = reason } }
        self.done.open()
    }

    func wait(timeout: Double, what: String) throws {
        guard self.done.wait(timeout: timeout) else { throw BenchError("cost: \(what) not done within \(timeout) s") }
        if let failure = self.state.withLock({ $0.failure }) { throw BenchError("cost: \(what): \(failure)") }
    }

    /// The integer after `"n":` in a message's JSON text, read without a JSON parser (the tally must cost little).
    private static func number(inJSON text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            let key: [UInt8] = [0x22, 0x6E, 0x22, 0x3A]  // "n":
            guard bytes.count > key.count else { return nil }
            var index = 0
            while index + key.count < bytes.count {
                if bytes[index] == key[0], bytes[index + 1] == key[1], bytes[index + 2] == key[2],
                    bytes[index + 3] == key[3]
                {
                    break
                }
                index += 1
            }
            index += key.count
            var value = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value = value * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            return digits > 0 ? value : nil
        }
    }
}
