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

    private struct Fields {
        var seen: [Signal: Int] = [:]
        var consumed: [Signal: Int] = [:]
        var connection = "not connected"
        var occupancy: [String: UInt] = [:]
    }

    private let fields = Monitor(Fields())

    /// Records one event of `signal`, wakes the waiters, and updates the connection state if it changed.
    func record(_ signal: Signal, connection: String? = nil) {
        self.fields.withLock { fields in
            fields.seen[signal, default: 0] += 1
            if let connection { fields.connection = connection }
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

    /// Waits for one event of `signal` that no earlier `take` returned (the console's `wait` command): true when one
    /// arrived before the deadline.
    func take(_ signal: Signal, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return self.fields.wait { fields, wake in
            if wake == .timedOut { return .done(false) }
            guard fields.seen[signal, default: 0] > fields.consumed[signal, default: 0] else {
                return .waitUntil(deadline)
            }
            fields.consumed[signal, default: 0] += 1
            return .done(true)
        }
    }

    /// The status line's fields: connection state and occupancy per channel (channels sorted by name).
    func snapshot() -> (connection: String, occupancy: [(String, UInt)]) {
        self.fields.withLock { fields in
            (fields.connection, fields.occupancy.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}
