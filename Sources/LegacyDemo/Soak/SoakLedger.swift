import Foundation

/// The soak's bookkeeping: every numbered message it publishes, what the origin said about it, and what came back.
///
/// Not thread-safe: `SoakClient` touches it only on its delivery queue. Memory stays nearly flat over long runs:
/// one byte per message once it has arrived (its details are dropped then), plus a fixed latency histogram.
struct SoakLedger {
    /// What is remembered of a message until its first arrival, to check that arrival against.
    private struct Outgoing {
        let channel: String
        let checksum: UInt32
        let sentAt: UInt64
    }

    /// How one arrival compared with what was sent, for the log.
    enum Arrival {
        case intact(sequence: Int, latencyMs: Double)
        case duplicate(sequence: Int)
        case corrupted(String)
    }

    /// The totals of `docs/DESIGN.md` §9, plus the publishes still waiting for an answer.
    struct Tally {
        var sent = 0
        var failed = 0
        var received = 0
        var matched = 0
        var lost = 0
        var duplicated = 0
        var corrupted = 0
        var unconfirmed = 0
        var unanswered = 0
    }

    // The state byte of each sequence number: bits 0–1 the publish outcome, bit 2 a corrupted arrival, bits 3–7 the
    // number of arrivals (saturating at 31).
    private static let pending: UInt8 = 0
    private static let acknowledged: UInt8 = 1
    private static let refused: UInt8 = 2
    private static let corruptedBit: UInt8 = 4

    private var states: [UInt8] = []
    private var details: [Int: Outgoing] = [:]
    private var awaitingAnswer = 0
    private var awaitingArrival = 0
    private var arrivals = 0
    private var corruptedUnknown = 0
    private(set) var latency = LatencyHistogram()

    /// Publishes without an answer plus acknowledged messages that have not arrived yet.
    var inFlight: Int { self.awaitingAnswer + self.awaitingArrival }

    /// Numbers the next message for `channel` and returns the payload to publish.
    mutating func nextMessage(channel: String, wallClockMs: Double, now: UInt64) -> [String: Any] {
        let sequence = self.states.count
        let filler = String(repeating: "~", count: sequence % 48)
        let body = "soak #\(sequence) on \(channel) \"ü✓\" \(filler)"
        let checksum = Self.checksum(body)
        self.states.append(Self.pending)
        self.details[sequence] = Outgoing(channel: channel, checksum: checksum, sentAt: now)
        self.awaitingAnswer += 1
        return ["seq": sequence, "channel": channel, "sent": wallClockMs, "body": body, "sum": Int(checksum)]
    }

    /// The origin acknowledged the publish of `sequence`.
    mutating func acknowledge(_ sequence: Int) {
        guard self.states.indices.contains(sequence), self.states[sequence] & 3 == Self.pending else { return }
        self.states[sequence] |= Self.acknowledged
        self.awaitingAnswer -= 1
        if self.states[sequence] >> 3 == 0 { self.awaitingArrival += 1 }
    }

    /// The publish of `sequence` was reported failed.
    mutating func fail(_ sequence: Int) {
        guard self.states.indices.contains(sequence), self.states[sequence] & 3 == Self.pending else { return }
        self.states[sequence] |= Self.refused
        self.awaitingAnswer -= 1
    }

    /// Records a numbered message that arrived on `channel`; `payload` is the decoded JSON value.
    mutating func arrive(_ payload: Any?, on channel: String, now: UInt64) -> Arrival {
        self.arrivals += 1
        guard let fields = payload as? [String: Any], let sequence = (fields["seq"] as? NSNumber)?.intValue,
            self.states.indices.contains(sequence)
        else {
            self.corruptedUnknown += 1
            return .corrupted("unknown or missing sequence number in \(String(describing: payload).prefix(120))")
        }
        let count = self.states[sequence] >> 3
        if count < 31 { self.states[sequence] = (self.states[sequence] & 7) | ((count + 1) << 3) }
        guard count == 0 else { return .duplicate(sequence: sequence) }
        if self.states[sequence] & 3 == Self.acknowledged { self.awaitingArrival -= 1 }
        guard let outgoing = self.details.removeValue(forKey: sequence) else {
            return .duplicate(sequence: sequence)
        }
        let body = fields["body"] as? String ?? ""
        let sum = (fields["sum"] as? NSNumber)?.uint32Value
        let problem: String? =
            if channel != outgoing.channel || fields["channel"] as? String != outgoing.channel {
                "#\(sequence) sent on \(outgoing.channel) arrived on \(channel)"
            } else if Self.checksum(body) != outgoing.checksum || sum != outgoing.checksum {
                "#\(sequence) content differs from what was sent"
            } else {
                nil
            }
        if let problem {
            self.states[sequence] |= Self.corruptedBit
            return .corrupted(problem)
        }
        let latencyMs = Double(now &- outgoing.sentAt) / 1_000_000
        self.latency.record(latencyMs)
        return .intact(sequence: sequence, latencyMs: latencyMs)
    }

    /// Acknowledged messages that have not arrived `seconds` after their publish (at `now`): what the report would
    /// count as lost if the run ended now, for the progress lines. Looks only at messages still in flight.
    func overdue(after seconds: Double, now: UInt64) -> Int {
        let limit = UInt64(seconds * 1e9)
        return self.details.reduce(0) { count, entry in
            let acknowledged = self.states[entry.key] & 3 == Self.acknowledged
            return count + (acknowledged && now &- entry.value.sentAt > limit ? 1 : 0)
        }
    }

    /// Counts every message by its outcome.
    func tally() -> Tally {
        var tally = Tally()
        tally.received = self.arrivals
        tally.corrupted = self.corruptedUnknown
        for state in self.states {
            let count = state >> 3
            switch state & 3 {
            case Self.acknowledged:
                tally.sent += 1
                if state & Self.corruptedBit != 0 {
                    tally.corrupted += 1
                } else if count == 0 {
                    tally.lost += 1
                } else if count == 1 {
                    tally.matched += 1
                } else {
                    tally.duplicated += 1
                }
            case Self.refused:
                tally.failed += 1
                if count > 0 { tally.unconfirmed += 1 }
                if state & Self.corruptedBit != 0 { tally.corrupted += 1 }
            default:
                tally.unanswered += 1
                if state & Self.corruptedBit != 0 { tally.corrupted += 1 }
            }
        }
        return tally
    }

    /// FNV-1a over the UTF-8 bytes: cheap, and any changed byte changes it.
    static func checksum(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return hash
    }
}

/// Latencies in logarithmic buckets 3 % wide: percentiles within 3 % in constant memory, however long the run.
struct LatencyHistogram {
    private static let ratio = 1.03
    private static let bucketCount = 800
    private var buckets = [Int](repeating: 0, count: LatencyHistogram.bucketCount)
    private(set) var count = 0
    private(set) var maximum = 0.0

    /// Adds one latency in milliseconds.
    mutating func record(_ milliseconds: Double) {
        // Bucket 0 holds everything under 10 µs; bucket i ≥ 1 holds [0.01·r^(i-1), 0.01·r^i) ms.
        let scaled = max(milliseconds, 0) / 0.01
        let index = scaled < 1 ? 0 : min(Self.bucketCount - 1, Int(log(scaled) / log(Self.ratio)) + 1)
        self.buckets[index] += 1
        self.count += 1
        self.maximum = max(self.maximum, milliseconds)
    }

    /// The latency below which `fraction` of the samples lie (the bucket's upper bound), or 0 without samples.
    func percentile(_ fraction: Double) -> Double {
        guard self.count > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(self.count)).rounded(.up)))
        var seen = 0
        for (index, bucket) in self.buckets.enumerated() {
            seen += bucket
            if seen >= rank {
                return min(self.maximum, 0.01 * pow(Self.ratio, Double(index)))
            }
        }
        return self.maximum
    }
}
