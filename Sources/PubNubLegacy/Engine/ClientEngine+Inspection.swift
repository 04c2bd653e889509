import Foundation

// Read-only views of the queue-confined state, for tests and diagnostics on other threads. Nothing here changes a
// decision: each accessor copies a value on the queue (or waits for the queues to go through what they hold).
// Never call these on the engine queue or the delivery queue: they wait for them.

extension ClientEngine {
    /// Returns once everything handed to the engine queue before this call has run, and then once the delivery queue
    /// has gone through everything the engine gave it by then.
    func flush() {
        self.queue.sync {}
        self.dispatcher.queue.sync {}
    }

    /// Returns once everything handed to the engine queue before this call has run.
    func flushEngineQueue() {
        self.queue.sync {}
    }

    /// Returns once the delivery queue has gone through everything handed to it before this call.
    func flushDeliveryQueue() {
        self.dispatcher.queue.sync {}
    }

    /// The connection machine's state now.
    var connectionStateNow: ConnectionStateMachine.State {
        self.queue.sync { self.connection.state }
    }

    /// The origin's reachability as the last probe or connect attempt left it.
    var reachabilityNow: ConnectionStateMachine.Reachability {
        self.queue.sync { self.connection.reachability }
    }

    /// The identifier the engine has applied (the getter's read-your-writes copy aside).
    var uuidNow: String? {
        self.queue.sync { self.uuid }
    }

    /// Whether the https transport can accept any certificate (the TLS ladder's relaxed rung), read on the queue.
    var canRelaxCertificateValidationNow: Bool {
        self.queue.sync { self.canRelaxCertificateValidation }
    }

    /// The subscribe loop's cursor now.
    var subscribeCursorNow: Cursor? {
        self.queue.sync { self.loop.machine.cursor }
    }

    /// Sends a reachability probe now, as the probe timer would (docs/BEHAVIOR.md §2.2), from any thread.
    func probeReachabilityNow() {
        self.queue.async { self.startProbe() }
    }
}
