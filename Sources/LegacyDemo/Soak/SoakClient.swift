import Dispatch
import Foundation
import PubNubLegacy

/// The soak test written as a 3.x app was: a `PNDelegate` driving its own `PubNub` instance.
///
/// Every callback arrives on `queue` (the client's delivery queue), and every field below is used only there, so
/// the soak needs no lock; the main thread reads results through `queue.sync`.
final class SoakClient: PNDelegate, @unchecked Sendable {
    // @unchecked: all mutable state is confined to `queue` (the delivery queue and the timers' queue).
    let queue = DispatchQueue(label: "LegacyDemo.soak")
    private let settings: SoakSettings
    private let output: SoakOutput
    private let channels: [PNChannel]
    private var client: PubNub?
    private var ledger = SoakLedger()
    private var outgoing: [ObjectIdentifier: (message: PNMessage, sequence: Int?)] = [:]
    private var timers: [DispatchSourceTimer] = []
    private var publishing = false
    private var stopped = false
    private var connected = false
    /// Whether the client was ever connected: a soak that never was proves nothing.
    private var everConnected = false
    /// The last connection failure, for the verdict of a soak that never connected.
    private var lastConnectionError: String?
    private var background = false
    private var angle = 0.0
    private var locationsSent = 0
    private var locationsReceived = 0
    private var skippedRounds = 0
    private var firstAcknowledged = false
    private var settled: (() -> Void)?
    /// Publishes answered or failed and messages arrived so far: the end of the run waits while this grows.
    private var outcomes = 0
    /// When `start` ran (uptime nanoseconds): the progress lines count from it.
    private var started: UInt64 = 0

    init(settings: SoakSettings, output: SoakOutput) {
        self.settings = settings
        self.output = output
        self.channels = settings.channels.map { PNChannel.channelWithName($0) }
    }

    // MARK: - Run

    /// Connects to `origin` (trusting the CA certificates in `caFile` for TLS, when given) and subscribes to the
    /// channels; publishing starts once the subscription is in place.
    func start(origin: String, publishKey: String, subscribeKey: String, secure: Bool, caFile: String? = nil) {
        let configuration = PNConfiguration(
            origin: origin,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: nil,
            cipherKey: self.settings.cipherKey
        )
        configuration.useSecureConnection = secure
        configuration.anchorCertificatesFile = caFile
        configuration.deliveryQueue = self.queue
        self.queue.sync {
            let client = PubNub(configuration: configuration, delegate: self)
            self.client = client
            self.output.essential("connecting to \(origin)\(secure ? " (TLS)" : "")")
            client.connect()
            client.subscribeOnChannels(self.channels)
            self.started = DispatchTime.now().uptimeNanoseconds
            let interval = self.output.statusInterval
            // The live line from the start; progress lines after each interval (the first one would say nothing).
            self.repeatEvery(interval, startAfter: self.output.isTerminal ? 0 : interval) { $0.showStatus() }
            if let every = self.settings.backgroundEvery {
                self.repeatEvery(every, startAfter: every) { $0.toggleBackground() }
            }
        }
    }

    /// Switches between foreground and background mode (SIGUSR1 and `--background-every`).
    func toggleBackground() {
        self.queue.async {
            guard !self.stopped else { return }
            self.background.toggle()
            self.output.essential(self.background ? "entering background mode" : "back in the foreground")
            if self.background { self.sendLocation() }
        }
    }

    /// Stops publishing and calls `done` on `queue` once every message in flight is answered and arrived, once
    /// `quiet` seconds pass in which none was answered, failed or arrived, or after `limit` seconds in all.
    ///
    /// The wait ends on silence rather than at a fixed time: on a loaded machine messages can take seconds and still
    /// arrive, and a message that is only late is not lost.
    func stopPublishing(
        quietAtMost quiet: Double,
        limit: Double,
        then done: @escaping @Sendable () -> Void
    ) {
        self.queue.async {
            self.publishing = false
            self.stopped = true
            self.timers.forEach { $0.cancel() }
            self.timers = []
            let once = OnceFlag()
            let finish: @Sendable () -> Void = {
                guard once.claim() else { return }
                self.settled = nil
                done()
            }
            if self.ledger.inFlight == 0 {
                finish()
                return
            }
            self.output.essential("stopped publishing; waiting for \(self.ledger.inFlight) message(s) in flight")
            self.settled = finish
            self.queue.asyncAfter(deadline: .now() + limit) { finish() }
            self.finishWhenQuiet(for: quiet, seen: self.outcomes, then: finish)
        }
    }

    /// Calls `finish` if no outcome came in the `quiet` seconds since `outcomes` was `seen`, else looks again
    /// `quiet` seconds later; stops looking once the wait has ended otherwise (`settled` is cleared then).
    private func finishWhenQuiet(for quiet: Double, seen: Int, then finish: @escaping @Sendable () -> Void) {
        self.queue.asyncAfter(deadline: .now() + quiet) {
            guard self.settled != nil else { return }
            if self.outcomes == seen {
                finish()
            } else {
                self.finishWhenQuiet(for: quiet, seen: self.outcomes, then: finish)
            }
        }
    }

    /// Unsubscribes from every channel (the leave is best effort) and disconnects; `done` gets the unsubscribe
    /// error, if any, and whether the client was connected (offline, the leave cannot be sent).
    func unsubscribeAndDisconnect(then done: @escaping @Sendable (PNError?, Bool) -> Void) {
        self.queue.async {
            let online = self.connected
            guard let client = self.client else { return done(nil, online) }
            self.output.essential(
                "unsubscribing from \(self.settings.channels.joined(separator: ", "))"
                    + (online ? "" : " while offline: the leave cannot be sent")
            )
            client.unsubscribeFromChannels(self.channels, withPresenceEvent: true) { _, error in
                client.disconnect()
                done(error, online)
            }
        }
    }

    /// What the report shows.
    struct Results {
        var tally: SoakLedger.Tally
        var latency: LatencyHistogram
        var locations: (sent: Int, received: Int)
        var skipped: Int
        /// Whether the client connected at least once.
        var connected: Bool
        /// The last connection failure's text, if any.
        var lastError: String?
    }

    /// The totals so far, with the latency histogram, location counts and whether the client ever connected.
    func results() -> Results {
        self.queue.sync {
            Results(
                tally: self.ledger.tally(),
                latency: self.ledger.latency,
                locations: (self.locationsSent, self.locationsReceived),
                skipped: self.skippedRounds,
                connected: self.everConnected,
                lastError: self.lastConnectionError
            )
        }
    }

    // MARK: - Publishing (on `queue`)

    private func repeatEvery(_ interval: Double, startAfter delay: Double = 0, _ body: @escaping (SoakClient) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: self.queue)
        timer.schedule(deadline: .now() + delay, repeating: max(interval, 0.001))
        timer.setEventHandler { [weak self] in
            if let self { body(self) }
        }
        timer.resume()
        self.timers.append(timer)
    }

    private func publishRound() {
        guard self.publishing, let client = self.client else { return }
        // Back-pressure: never queue more than 100 rounds of unanswered publishes, so a stalled origin cannot make
        // the soak grow without bound.
        guard self.outgoing.count < 100 * self.channels.count else {
            self.skippedRounds += 1
            return
        }
        for channel in self.channels {
            let now = DispatchTime.now().uptimeNanoseconds
            let payload = self.ledger.nextMessage(
                channel: channel.name,
                wallClockMs: Date().timeIntervalSince1970 * 1_000,
                now: now
            )
            let sequence = payload["seq"] as? Int
            if let message = client.sendMessage(payload, toChannel: channel, withCompletionBlock: self.fallback) {
                self.outgoing[ObjectIdentifier(message)] = (message, sequence)
            } else if let sequence {
                self.ledger.fail(sequence)
                self.output.essential("publish #\(sequence) on \(channel.name) refused before sending")
            }
        }
        if self.background { self.sendLocation() }
    }

    /// Sends the simulated position (a small circle, one step per call) to every channel.
    private func sendLocation() {
        guard let client = self.client else { return }
        self.angle += 0.05
        let position: [String: Any] = [
            "lat": 52.520_008 + 0.01 * sin(self.angle), "lng": 13.404_954 + 0.01 * cos(self.angle),
        ]
        for channel in self.channels {
            if let message = client.sendMessage(position, toChannel: channel, withCompletionBlock: self.fallback) {
                self.outgoing[ObjectIdentifier(message)] = (message, nil)
            }
        }
    }

    /// The publish block, used only for outcomes the delegate did not see: 3.4 tells the delegate about a failed
    /// publish only while connected, so without this a publish that failed offline would stay in flight forever.
    /// The block runs after the delegate (docs/DESIGN.md §4), so an outcome the delegate handled is already settled.
    private func fallback(_ state: PNMessageState, _ object: Any?) {
        guard let client = self.client else { return }
        switch state {
        case .PNMessageSent:
            if let message = object as? PNMessage, self.outgoing[ObjectIdentifier(message)] != nil {
                self.pubnubClient(client, didSendMessage: message)
            }
        case .PNMessageSendingError:
            if let error = object as? PNError, let message = error.associatedObject as? PNMessage,
                self.outgoing[ObjectIdentifier(message)] != nil
            {
                self.pubnubClient(client, didFailMessageSend: message, withError: error)
            }
        default:
            break
        }
    }

    private func showStatus() {
        let tally = self.ledger.tally()
        let p50 = String(format: "%.1f", self.ledger.latency.percentile(0.5))
        let p99 = String(format: "%.1f", self.ledger.latency.percentile(0.99))
        let now = DispatchTime.now().uptimeNanoseconds
        let lost = self.ledger.overdue(after: Self.overdueSeconds, now: now)
        let elapsed = Int((Double(now &- self.started) / 1e9).rounded())
        let memory = SoakCommand.residentKiB().map { String(format: ", RSS %.1f MiB", Double($0) / 1_024) } ?? ""
        self.output.status(
            live: "\(self.connected ? "connected" : "NOT CONNECTED") | \(self.settings.channels.joined(separator: ","))"
                + " | sent \(tally.sent) received \(tally.received) in flight \(self.ledger.inFlight)"
                + " failed \(tally.failed) corrupted \(tally.corrupted) duplicated \(tally.duplicated)"
                + " | p50 \(p50) ms\(self.background ? " | background" : "")",
            progress: "\(elapsed) s: \(self.connected ? "connected" : "NOT CONNECTED"), sent \(tally.sent)"
                + ", received \(tally.received), in flight \(self.ledger.inFlight), lost \(lost), failed \(tally.failed)"
                + ", duplicated \(tally.duplicated), corrupted \(tally.corrupted), latency p50 \(p50) ms p99 \(p99) ms"
                + memory + (self.background ? ", background" : "")
        )
    }

    /// A message acknowledged but not arrived this long after its publish counts as lost in a progress line (the
    /// end of the run waits until messages in flight have been silent as long).
    static let overdueSeconds = 3.0

    private func checkSettled() {
        self.outcomes += 1
        if self.ledger.inFlight == 0 { self.settled?() }
    }

    // MARK: - PNDelegate (on `queue`)

    func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.connected = true
        self.everConnected = true
        self.output.essential("connected to \(didConnectToOrigin)")
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.connected = false
        self.output.essential("disconnected from \(didDisconnectFromOrigin)")
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {
        self.connected = false
        self.output.essential("disconnected from \(didDisconnectFromOrigin): \(withError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {
        self.connected = false
        self.lastConnectionError =
            "\(connectionDidFailWithError.code) \(connectionDidFailWithError.localizedDescription)"
        self.output.essential("connection failed: \(connectionDidFailWithError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, error: PNError) {
        self.output.essential("client error \(error.code): \(error.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.output.essential("subscribed on \(didSubscribeOnChannels.map(\.name).joined(separator: ", "))")
        guard !self.publishing, !self.stopped else { return }
        self.publishing = true
        self.repeatEvery(self.settings.idle) { $0.publishRound() }
    }

    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {
        self.output.essential(
            "subscription restored on \(didRestoreSubscriptionOnChannels.map(\.name).joined(separator: ", "))"
        )
    }

    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {
        self.output.essential("subscribe failed: \(subscriptionDidFailWithError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel]) {
        self.output.essential("unsubscribed from \(didUnsubscribeOnChannels.map(\.name).joined(separator: ", "))")
    }

    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError) {
        self.output.essential("unsubscribe failed: \(unsubscriptionDidFailWithError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        guard let entry = self.outgoing.removeValue(forKey: ObjectIdentifier(didSendMessage)) else { return }
        if let sequence = entry.sequence {
            self.ledger.acknowledge(sequence)
            self.output.detail("sent #\(sequence) on \(didSendMessage.channel?.name ?? "?")")
            if !self.firstAcknowledged {
                // The evidence a soak needs before it can pass (see `SoakCommand`), shown once.
                self.firstAcknowledged = true
                self.output.essential("first publish acknowledged")
            }
            self.checkSettled()
        } else {
            self.locationsSent += 1
            self.output.detail("sent location on \(didSendMessage.channel?.name ?? "?")")
        }
    }

    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {
        let entry = didFailMessageSend.flatMap { self.outgoing.removeValue(forKey: ObjectIdentifier($0)) }
        let what = entry?.sequence.map { "#\($0)" } ?? "message"
        if let sequence = entry?.sequence { self.ledger.fail(sequence) }
        self.output.essential("publish \(what) failed: \(withError.code) \(withError.localizedDescription)")
        self.checkSettled()
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        let channel = didReceiveMessage.channel?.name ?? "?"
        if let fields = didReceiveMessage.message as? [String: Any], fields["seq"] == nil, fields["lat"] != nil,
            fields["lng"] != nil
        {
            self.locationsReceived += 1
            self.output.detail("received location \(fields["lat"] ?? "?"),\(fields["lng"] ?? "?") on \(channel)")
            return
        }
        switch self.ledger.arrive(didReceiveMessage.message, on: channel, now: DispatchTime.now().uptimeNanoseconds)
        {
        case .intact(let sequence, let latency):
            self.output.detail("received #\(sequence) on \(channel) after \(String(format: "%.1f", latency)) ms")
        case .duplicate(let sequence):
            self.output.essential("DUPLICATE #\(sequence) on \(channel)")
        case .corrupted(let problem):
            self.output.essential("CORRUPTED on \(channel): \(problem)")
        }
        self.checkSettled()
    }
}

/// True for the first `claim()` only; used on one queue, so it needs no lock.
private final class OnceFlag: @unchecked Sendable {
    // @unchecked: only touched on `SoakClient.queue`.
    private var claimed = false

    func claim() -> Bool {
        defer { self.claimed = true }
        return !self.claimed
    }
}
