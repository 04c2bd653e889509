import Foundation
import LocalOrigin

@testable import PubNubLegacy

/// One client of the chaos test: it publishes numbered messages (`NAME:CHANNEL-INDEX:SEQ`) round-robin on the
/// test's channels, keeps a ledger of every publish's outcomes, and records every message it receives, in delivery
/// order. All state is in `Locked` boxes; the client's callbacks arrive on its delivery queue.
final class ChaosParticipant: ClientEventSink, @unchecked Sendable {
    // @unchecked: the mutable state is `ledger`, `inbox` and `connectionLog`, all `Locked` boxes; the rest are lets.

    /// Every callback a publish block received, in order (0 Sending, 1 Sent, 2 SendingError), by publish.
    struct Publish: Sendable {
        let channel: Int
        let seq: Int
        var states: [Int] = []
        /// The error code of the SendingError, if any.
        var errorCode: Int?

        /// Sent (1) or SendingError (2) calls.
        var terminalCount: Int { self.states.filter { $0 != 0 }.count }
        var isSent: Bool { self.states.contains(1) }
    }

    /// A received message that parsed as a chaos message.
    struct Received: Sendable, Equatable {
        let sender: String
        let channel: Int
        let seq: Int
    }

    let name: String
    let channels: [PNChannel]
    let client: PubNub
    private let ledger = Locked<[Publish]>([])
    private let nextSeq: Locked<[Int]>
    private let inbox = Locked<[Received]>([])
    private let unparsed = Locked<[String]>([])
    private let connectionLog = Locked<[String]>([])

    /// A client on `origin` (plain HTTP, probes every `probeInterval` s, long-poll idle limit `idle` s) that
    /// reports to this participant — or, with `tls`, on that terminator in front of the origin, over TLS, trusting
    /// its CA. Not connected yet.
    init(
        name: String,
        origin: LocalOrigin,
        channels: [PNChannel],
        probeInterval: TimeInterval,
        idle: TimeInterval,
        tls: (proxy: TLSProxy, authority: TestCertificateAuthority)? = nil
    ) {
        self.name = name
        self.channels = channels
        self.nextSeq = Locked(Array(repeating: 0, count: channels.count))
        let configuration =
            tls.map { MatrixHarness.secureConfiguration(proxy: $0.proxy, authority: $0.authority) }
            ?? PNConfiguration.testing(origin: origin.address)
        configuration.subscribeMaximumIdleTime = idle
        configuration.deliveryQueue = DispatchQueue(label: "chaos-\(name)")
        self.client = PubNub(
            configuration: configuration,
            delegate: nil,
            eventSinks: [],
            timings: .probing(every: probeInterval)
        )
        self.client.addEventSink(self, toNotificationSlot: false)
    }

    /// Disconnects the client and stops listening to it.
    func stop() {
        self.client.disconnect()
        self.client.removeEventSink(self)
    }

    // MARK: - Publishing

    /// Publishes the next numbered message on channel `index`; returns its ledger index.
    @discardableResult
    func publish(on index: Int) -> Int {
        let seq = self.nextSeq.withLock { next -> Int in
            next[index] += 1
            return next[index]
        }
        let slot = self.ledger.withLock { ledger -> Int in
            ledger.append(Publish(channel: index, seq: seq))
            return ledger.count - 1
        }
        self.client.sendMessage("\(self.name):\(index):\(seq)", toChannel: self.channels[index]) {
            [ledger = self.ledger] state, value in
            ledger.withLock {
                $0[slot].states.append(state.rawValue)
                if state == .PNMessageSendingError { $0[slot].errorCode = (value as? PNError)?.code }
            }
        }
        return slot
    }

    /// The ledger so far.
    var publishes: [Publish] { self.ledger.current }

    /// Publishes without an outcome (Sent or SendingError) yet.
    var outstanding: Int { self.ledger.current.filter { $0.terminalCount == 0 }.count }

    /// The outcome of publish `slot`: nil while pending, true for Sent, false for SendingError.
    func outcome(_ slot: Int) -> Bool? {
        let publish = self.ledger.current[slot]
        return publish.terminalCount == 0 ? nil : publish.isSent
    }

    // MARK: - Receiving

    /// Messages from `sender` on channel `index`, as sequence numbers in delivery order.
    func received(from sender: String, on index: Int) -> [Int] {
        self.inbox.current.filter { $0.sender == sender && $0.channel == index }.map(\.seq)
    }

    /// Received payloads that were not chaos messages (must stay empty).
    var strays: [String] { self.unparsed.current }

    /// Connection-level events, for the failure report.
    var connectionEvents: [String] { self.connectionLog.current }

    func handle(_ event: ClientEvent, from client: PubNub) {
        switch event {
        case .didReceiveMessage(let message):
            let text = message.message as? String ?? "\(message.message ?? "nil")"
            let parts = text.split(separator: ":")
            if parts.count == 3, let channel = Int(parts[1]), let seq = Int(parts[2]) {
                self.inbox.withLock { $0.append(Received(sender: String(parts[0]), channel: channel, seq: seq)) }
            } else {
                self.unparsed.withLock { $0.append(text) }
            }
        case .willDisconnectWithError, .didDisconnectWithError, .willConnect, .didConnect, .connectionDidFail,
            .willRestoreSubscription, .didRestoreSubscription, .subscriptionDidFail, .didDisconnect, .didUnsubscribe:
            let name = EventRecorder.name(of: event)
            self.connectionLog.withLock { $0.append(name) }
        default:
            break
        }
    }
}
