import Dispatch
import Foundation
import PlatformSupport

/// Why a bench run could not produce its figures: a deadline passed, a publish failed, a figure makes no sense.
/// `LegacyDemo` prints the message and exits with status 1.
struct BenchError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { self.message }
}

/// Counts the events of one workload as they arrive on the clients' delivery queues — each numbered by the
/// message it belongs to — and lets the bench thread wait for a number of them with a deadline.
///
/// A number seen again counts as a duplicate, not as a new event. An optional sample (a latency) is kept per
/// first arrival, and so is the time of the latest one, which ends the workload's stopwatch.
final class BenchCounter: Sendable {
    private struct Counts {
        var seen: Set<Int> = []
        var highest = -1
        var reordered = 0
        var duplicated = 0
        var samples: [Double] = []
        var lastNanos: UInt64 = 0
        var failure: String?
        /// The count a waiter waits for: only reaching it wakes the waiter, so the figures do not pay a thread
        /// wake-up per event.
        var target = Int.max
    }

    private let counts = Monitor(Counts())

    /// Counts event `number` (with `sample`, when given) at the current time.
    func record(_ number: Int, sample: Double? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
        self.counts.withLock { counts in
            if counts.seen.insert(number).inserted {
                if number < counts.highest { counts.reordered += 1 }
                counts.highest = max(counts.highest, number)
                if let sample { counts.samples.append(sample) }
                counts.lastNanos = now
                if counts.seen.count >= counts.target { self.counts.broadcast() }
            } else {
                counts.duplicated += 1
            }
        }
    }

    /// Ends every wait on this counter with `reason` (the first reason given wins).
    func fail(_ reason: String) {
        self.counts.withLock { counts in
            if counts.failure == nil { counts.failure = reason }
            self.counts.broadcast()
        }
    }

    /// Blocks until `target` distinct events were counted (one waiting thread at a time). Throws when `fail(_:)` was called, or at `deadline`
    /// with what was missing (`what` names the workload in the message).
    func wait(for target: Int, until deadline: DispatchTime, what: String) throws {
        let seconds = Double(deadline.uptimeNanoseconds &- DispatchTime.now().uptimeNanoseconds) / 1e9
        let limit = Date(timeIntervalSinceNow: max(seconds, 0))
        let (seen, failure) = self.counts.wait { counts, wake -> MonitorStep<(Int, String?)> in
            if counts.seen.count < target && counts.failure == nil && wake != .timedOut {
                counts.target = target
                return .waitUntil(limit)
            }
            counts.target = Int.max
            return .done((counts.seen.count, counts.failure))
        }
        if let failure { throw BenchError("\(what): \(failure)") }
        if seen < target {
            throw BenchError("\(what): only \(seen) of \(target) after waiting \(String(format: "%.1f", seconds)) s")
        }
    }

    /// Distinct events counted so far.
    var count: Int { self.counts.withLock { $0.seen.count } }

    /// The numbers of `0..<total` never counted, as ranges, oldest first (what a workload lost).
    func missing(below total: Int) -> [ClosedRange<Int>] {
        let seen = self.counts.withLock { $0.seen }
        var ranges: [ClosedRange<Int>] = []
        for number in 0..<total where !seen.contains(number) {
            if let last = ranges.last, last.upperBound == number - 1 {
                ranges[ranges.count - 1] = last.lowerBound...number
            } else {
                ranges.append(number...number)
            }
        }
        return ranges
    }

    /// Events that arrived after one with a higher number.
    var reorderedCount: Int { self.counts.withLock { $0.reordered } }

    /// Events counted again after their first arrival.
    var duplicateCount: Int { self.counts.withLock { $0.duplicated } }

    /// The samples of first arrivals, in arrival order.
    var allSamples: [Double] { self.counts.withLock { $0.samples } }

    /// When the latest first arrival was counted (`DispatchTime` nanoseconds), 0 before any.
    var lastArrival: UInt64 { self.counts.withLock { $0.lastNanos } }
}

/// The `DispatchTime` `seconds` from now.
func deadline(in seconds: Double) -> DispatchTime {
    .now() + .nanoseconds(Int(seconds * 1e9))
}

/// Nanoseconds since an arbitrary start, on the clock every figure of the bench uses.
func nowNanos() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// The value at fraction `p` (0…1) of `samples` by the nearest-rank method; 0 for no samples.
func percentile(_ p: Double, of samples: [Double]) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// An integer read from a decoded JSON number, whichever type the decoder chose for it.
func jsonInteger(_ value: Any?) -> Int? {
    switch value {
    case let number as Int: return number
    case let number as Int64: return Int(exactly: number)
    case let number as UInt64: return Int(exactly: number)
    case let number as Double: return Int(exactly: number)
    case let number as NSNumber: return number.intValue
    default: return nil
    }
}
