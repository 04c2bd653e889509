import Foundation

/// What the console knows from the events it saw — connection state, occupancy per channel, how many events of
/// each kind arrived — shared between the delivery queue (which records) and the input thread (which waits and
/// shows the status).
final class ConsoleState: @unchecked Sendable {
    // @unchecked: every stored `var` is only read or written while holding `condition`.

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

    private let condition = NSCondition()
    private var seen: [Signal: Int] = [:]
    private var consumed: [Signal: Int] = [:]
    private var connection = "not connected"
    private var occupancy: [String: UInt] = [:]

    /// Records one event of `signal`, wakes the waiters, and updates the connection state if it changed.
    func record(_ signal: Signal, connection: String? = nil) {
        self.condition.lock()
        self.seen[signal, default: 0] += 1
        if let connection { self.connection = connection }
        self.condition.broadcast()
        self.condition.unlock()
    }

    /// Sets the connection state shown by the status line.
    func setConnection(_ text: String) {
        self.condition.lock()
        self.connection = text
        self.condition.unlock()
    }

    /// Sets the occupancy of `channel`, from a presence event or a here-now answer.
    func setOccupancy(_ count: UInt, of channel: String) {
        self.condition.lock()
        self.occupancy[channel] = count
        self.condition.unlock()
    }

    /// How many events of `signal` arrived so far: the baseline for `wait(for:after:timeout:)`.
    func count(_ signal: Signal) -> Int {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.seen[signal, default: 0]
    }

    /// Waits until more than `baseline` events of any of `signals` arrived, or `timeout` seconds passed; returns the
    /// signal that arrived, nil at the deadline.
    func wait(for signals: [Signal], after baseline: [Signal: Int], timeout: Double) -> Signal? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        self.condition.lock()
        defer { self.condition.unlock() }
        while true {
            if let signal = signals.first(where: { self.seen[$0, default: 0] > baseline[$0, default: 0] }) {
                return signal
            }
            if !self.condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits for one event of `signal` that no earlier `take` returned (the console's `wait` command): true when one
    /// arrived before the deadline.
    func take(_ signal: Signal, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        self.condition.lock()
        defer { self.condition.unlock() }
        while self.seen[signal, default: 0] <= self.consumed[signal, default: 0] {
            if !self.condition.wait(until: deadline) { return false }
        }
        self.consumed[signal, default: 0] += 1
        return true
    }

    /// The status line's fields: connection state and occupancy per channel (channels sorted by name).
    func snapshot() -> (connection: String, occupancy: [(String, UInt)]) {
        self.condition.lock()
        defer { self.condition.unlock() }
        return (self.connection, self.occupancy.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
