import Dispatch
import Foundation
import PNObservation
import PubNubLegacy

/// Workload 5 of `LegacyDemo bench`: what delivering one event through the four channels of docs/DESIGN.md §4 costs.
///
/// Method: a real publish spends far more time on the wire than in its delivery, so the fan-out is timed without
/// the network, through the package hook `PubNub.deliverSentMessageEvents`: it hands the client's own dispatcher
/// the events an acknowledged publish produces, which then take the production path — one hop to the delivery
/// queue per event, the delegate's `didSendMessage:`, a `PNObservationCenter` message-processing observer, the
/// `kPNClientDidSendMessageNotification` post to a `NotificationCenter.default` observer, and the completion
/// block, each listener only counting. One round times `events` events from the first hand-over until the delivery
/// queue has run them all. The same rounds run on a second client with no listener at all (no delegate, observer,
/// notification observer or block; the notification is still posted, to nobody). Rounds alternate and the best
/// of each kind counts, as other processes only ever slow a round down.
enum BenchFanOut {
    /// Microseconds per event with all four listeners (the figure of the goal), with none, and the difference.
    struct Figures {
        var withListeners: Double
        var bare: Double
        var listeners: Double { self.withListeners - self.bare }
    }

    private static let roundTimeout = 60.0

    /// Runs `rounds` rounds of each kind; throws when a round does not finish in time or a listener missed an event.
    static func measure(events: Int, rounds: Int) throws -> Figures {
        let channel = PNChannel.channelWithName("bench-fan-out")
        let listened = Self.client(label: "fan-out")
        let bare = Self.client(label: "fan-out-bare")
        let listener = FanOutListener()
        listened.client.setDelegate(listener)
        let center = PNObservationCenter(client: listened.client)
        center.addMessageProcessingObserver(listener) { state, _ in
            if state == .PNMessageSent { listener.observed += 1 }
        }
        let token = NotificationCenter.default.addObserver(
            forName: kPNClientDidSendMessageNotification,
            object: listened.client,
            queue: nil
        ) { _ in listener.notified += 1 }
        defer {
            NotificationCenter.default.removeObserver(token)
            center.stopObserving(listened.client)
        }
        let completion: PNClientMessageProcessingBlock = { state, _ in
            if state == .PNMessageSent { listener.completed += 1 }
        }

        var best = (listened: Double.infinity, bare: Double.infinity)
        for _ in 0..<max(rounds, 1) {
            best.listened = min(
                best.listened,
                try Self.round(listened, events: events, channel: channel, completion: completion)
            )
            best.bare = min(best.bare, try Self.round(bare, events: events, channel: channel, completion: nil))
        }
        let expected = events * max(rounds, 1)
        let counts = listened.queue.sync {
            (listener.delegateCalls, listener.observed, listener.notified, listener.completed)
        }
        guard counts == (expected, expected, expected, expected) else {
            throw BenchError(
                "fan-out: expected \(expected) calls of each listener, got delegate \(counts.0), observer"
                    + " \(counts.1), notification \(counts.2), block \(counts.3)"
            )
        }
        return Figures(withListeners: best.listened * 1e6, bare: best.bare * 1e6)
    }

    /// Seconds per event of one round on `target`.
    private static func round(
        _ target: (client: PubNub, queue: DispatchQueue),
        events: Int,
        channel: PNChannel,
        completion: PNClientMessageProcessingBlock?
    ) throws -> Double {
        let finished = DispatchSemaphore(value: 0)
        let started = nowNanos()
        guard
            target.client.deliverSentMessageEvents(events, payload: "fan-out", channel: channel, completion: completion)
        else { throw BenchError("fan-out: the probe message was refused") }
        // The delivery queue is serial: once this runs, every event before it has been delivered.
        target.queue.async { finished.signal() }
        guard finished.wait(timeout: deadline(in: Self.roundTimeout)) == .success else {
            throw BenchError("fan-out: \(events) events not delivered within \(Int(Self.roundTimeout)) s")
        }
        return Double(nowNanos() - started) / 1e9 / Double(max(events, 1))
    }

    /// A client that is never connected (no request is made), with a serial delivery queue of its own.
    private static func client(label: String) -> (client: PubNub, queue: DispatchQueue) {
        let queue = DispatchQueue(label: "LegacyDemo.bench.\(label)")
        let configuration = PNConfiguration(
            origin: "127.0.0.1",
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = queue
        return (PubNub(configuration: configuration), queue)
    }
}

/// The trivial listeners of the fan-out workload: each only counts its calls.
private final class FanOutListener: PNDelegate, @unchecked Sendable {
    // @unchecked: the counters are only touched on the fan-out client's delivery queue (every listener runs
    // there), and read with `queue.sync` on that queue.
    var delegateCalls = 0
    var observed = 0
    var notified = 0
    var completed = 0

    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        self.delegateCalls += 1
    }
}
