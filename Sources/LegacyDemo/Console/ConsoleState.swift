import Foundation
import PlatformSupport

/// What the console knows from the events it saw — connection state, occupancy per channel, how many events of
/// each kind arrived — shared between the delivery queue (which records) and the input thread (which waits and
/// shows the status).
final class ConsoleState: Sendable {
    /// Events a command can wait for; counted when their notification has been posted (the last channel before the
    /// completion block, and present even with the delegate switched off).
    enum Signal: Hashable {
        case connected
        case disconnected
        case connectionFailed
        case configurationError
        case subscribed
        case unsubscribed
        case message
        case presence
    }

    /// One event `wait` can report: what it was (`channel=… message=…`) and when it arrived.
    struct Arrival: Equatable {
        var detail: String
        var at: Date
    }

    /// How many arrivals of one kind wait to be reported by `wait`; older ones are dropped past it.
    static let waitingLimit = 1_000

    private struct Fields {
        var seen: [Signal: Int] = [:]
        /// Arrivals of each kind that no `wait` reported yet, oldest first.
        var unreported: [Signal: [Arrival]] = [:]
        var connection = "not connected"
        var occupancy: [String: UInt] = [:]
    }

    private let fields = Monitor(Fields())

    /// Records one event of `signal` (with `detail`, what `wait` reports of it, for messages and presence events),
    /// wakes the waiters, and updates the connection state if it changed.
    func record(_ signal: Signal, connection: String? = nil, detail: String? = nil) {
        self.fields.withLock { fields in
            fields.seen[signal, default: 0] += 1
            if let connection { fields.connection = connection }
            if let detail {
                fields.unreported[signal, default: []].append(Arrival(detail: detail, at: Date()))
                if fields.unreported[signal, default: []].count > Self.waitingLimit {
                    fields.unreported[signal]?.removeFirst()
                }
            }
            self.fields.broadcast()
        }
    }

    /// Sets the connection state shown by the status line.
    func setConnection(_ text: String) {
        self.fields.withLock { $0.connection = text }
    }

    /// Sets the occupancy of `channel`, from a presence event or a here-now answer.
    func setOccupancy(_ count: UInt, of channel: String) {
        self.fields.withLock { $0.occupancy[channel] = count }
    }

    /// How many events of `signal` arrived so far: the baseline for `wait(for:after:timeout:)`.
    func count(_ signal: Signal) -> Int {
        self.fields.withLock { $0.seen[signal, default: 0] }
    }

    /// Waits until more than `baseline` events of any of `signals` arrived, or `timeout` seconds passed; returns the
    /// signal that arrived, nil at the deadline.
    func wait(for signals: [Signal], after baseline: [Signal: Int], timeout: Double) -> Signal? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return self.fields.wait { fields, wake -> MonitorStep<Signal?> in
            // At the deadline the answer is nil, even for an event recorded just before it.
            if wake == .timedOut { return .done(nil) }
            if let signal = signals.first(where: { fields.seen[$0, default: 0] > baseline[$0, default: 0] }) {
                return .done(signal)
            }
            return .waitUntil(deadline)
        }
    }

    /// The oldest event of `signal` that no earlier `take` returned — one that arrived before the call, or the next
    /// one within `timeout` seconds (the console's `wait` command); nil when none came.
    func take(_ signal: Signal, timeout: Double) -> Arrival? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return self.fields.wait { fields, wake -> MonitorStep<Arrival?> in
            if let first = fields.unreported[signal]?.first {
                fields.unreported[signal]?.removeFirst()
                return .done(first)
            }
            return wake == .timedOut ? .done(nil) : .waitUntil(deadline)
        }
    }

    /// The status line's fields: connection state and occupancy per channel (channels sorted by name).
    func snapshot() -> (connection: String, occupancy: [(String, UInt)]) {
        self.fields.withLock { fields in
            (fields.connection, fields.occupancy.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}
