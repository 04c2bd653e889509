import Foundation
import LocalOrigin
import PNObservation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// One row of the event matrix (docs/API-3.4.md §3.2 / §3.3) as the four channels must see it: the label each
/// listed channel records, nil for a channel that must receive nothing.
struct MatrixRow: Sendable, CustomStringConvertible {
    let event: String
    var delegate: String?
    var observer: String?
    var notification: Notification.Name?
    var block: String?
    /// The error code every channel's payload must carry, when the row is a failure.
    var code: Int?
    /// The block's payload when it differs from the event's (D1: a pending connect gets `errorBlock(nil)`).
    var blockKey: String?

    var description: String { self.event }

    /// The (channel, label) pairs in delivery order.
    var expected: [(FourChannelRecorder.Channel, String)] {
        var list: [(FourChannelRecorder.Channel, String)] = []
        if let delegate { list.append((.delegate, delegate)) }
        if let observer { list.append((.observer, observer)) }
        if let notification { list.append((.notification, notification.rawValue)) }
        if let block { list.append((.block, block)) }
        return list
    }
}

/// A canned answer of the fake transport.
struct FakeAnswer: Sendable {
    let status: Int
    let body: String
}

/// A client wired to a `FourChannelRecorder` through its own `PNObservationCenter`, on a LocalOrigin or on the
/// in-memory transport, plus the checks of one matrix case.
final class MatrixHarness: @unchecked Sendable {
    // @unchecked: `failing`, `garbled`, `held` and `answers` are `Locked` boxes, `peers` is changed only by the test's task; everything else is set in `init` and never changed.

    enum Origin: Sendable, Equatable {
        case local
        /// A LocalOrigin behind a TLS terminator whose certificate a CA made at test time signed; the client trusts
        /// that CA (`anchorCertificatesFile`) and speaks TLS over the socket transport. Made by `start(_:)`.
        case tls
        case fake
        /// A fake-transport client that was never given a configuration.
        case unconfigured
    }

    let client: PubNub
    let recorder: FourChannelRecorder
    let center: PNObservationCenter
    let origin: LocalOrigin?
    let transport: FakeTransport?
    /// The terminator and its CA, for `.tls`.
    let tls: (proxy: TLSProxy, authority: TestCertificateAuthority)?
    /// The client's requests as sent, on a LocalOrigin (the fake transport keeps its own list).
    let traffic = TrafficLog()
    let channel = PNChannel.channelWithName("matrix-\(UUID().uuidString.prefix(8))")
    let token = Data([0xAB, 0xCD, 0xEF, 0x01])
    /// Path prefixes the fake transport answers with 403, and those it answers with a malformed body.
    let failing = Locked<Set<String>>([])
    let garbled = Locked<[String: Int]>([:])
    /// Path prefixes the fake transport holds without an answer.
    let held = Locked<Set<String>>([])
    /// Path prefixes the fake transport answers with the given status and body.
    let answers = Locked<[String: FakeAnswer]>([:])
    private var peers: [PubNub] = []

    /// A harness of any kind; `.tls` starts its CA and terminator first.
    static func start(_ kind: Origin, configure: (PNConfiguration) -> Void = { _ in }) async throws -> MatrixHarness {
        guard kind == .tls else { return try MatrixHarness(kind, configure: configure) }
        let authority = try await TestCertificateAuthority()
        do {
            let identity = try await authority.issue("origin")
            let origin = try LocalOrigin.start()
            do {
                let proxy = try await TLSProxy.start(forwardingTo: origin.port, identity: identity)
                return try MatrixHarness(kind, configure: configure, tls: (origin, proxy, authority))
            } catch {
                origin.stop()
                throw error
            }
        } catch {
            authority.remove()
            throw error
        }
    }

    /// The configuration of a client (or peer) of a `.tls` harness: TLS to the terminator, trusting the test CA.
    static func secureConfiguration(proxy: TLSProxy, authority: TestCertificateAuthority) -> PNConfiguration {
        let configuration = PNConfiguration.testing(origin: proxy.address)
        configuration.useSecureConnection = true
        configuration.anchorCertificatesFile = authority.caFile.path
        return configuration
    }

    /// - Parameters:
    ///   - configure: adjusts the client's configuration before the client is made (not for `.unconfigured`).
    ///   - timings: the client engine's timings (`.fake` and `.unconfigured` abandon connect attempts after 120 s
    ///     on top of them).
    init(
        _ kind: Origin,
        configure: (PNConfiguration) -> Void = { _ in },
        timings: EngineTimings = .standard,
        tls: (origin: LocalOrigin, proxy: TLSProxy, authority: TestCertificateAuthority)? = nil
    ) throws {
        let failing = self.failing
        let garbled = self.garbled
        let held = self.held
        let answers = self.answers
        self.tls = tls.map { ($0.proxy, $0.authority) }
        switch kind {
        case .tls:
            guard let tls else { preconditionFailure("a .tls harness is made by MatrixHarness.start(_:)") }
            self.origin = tls.origin
            self.transport = nil
            let configuration = Self.secureConfiguration(proxy: tls.proxy, authority: tls.authority)
            configure(configuration)
            let lanes = TapTransport.lanes(log: self.traffic)
            self.client = PubNub(
                configuration: configuration,
                delegate: nil,
                eventSinks: [],
                serviceLane: lanes.service,
                longPollLane: lanes.longPoll,
                timings: timings
            )
        case .local:
            let origin = try LocalOrigin.start()
            self.origin = origin
            self.transport = nil
            let configuration = PNConfiguration.testing(origin: origin.address)
            configure(configuration)
            let lanes = TapTransport.lanes(log: self.traffic)
            self.client = PubNub(
                configuration: configuration,
                delegate: nil,
                eventSinks: [],
                serviceLane: lanes.service,
                longPollLane: lanes.longPoll,
                timings: timings
            )
        case .fake, .unconfigured:
            let transport = FakeTransport.origin { request in
                let path = request.url.path
                if failing.current.contains(where: { path.hasPrefix($0) }) {
                    return .respond(403, "{\"status\":403,\"error\":true,\"message\":\"Forbidden\"}")
                }
                if held.current.contains(where: { path.hasPrefix($0) }) {
                    return .hold
                }
                if let answer = answers.current.first(where: { path.hasPrefix($0.key) })?.value {
                    return .respond(answer.status, answer.body)
                }
                // Counted: only the next matching requests are garbled (as many as an idempotent request is
                // attempted, docs/BEHAVIOR.md §4.3), so a later reachability probe (`/time/0` every 10 s) in a slow run
                // still succeeds instead of adding a connection failure to the row.
                let garble = garbled.withLock { counts -> Bool in
                    guard let hit = counts.keys.first(where: { path.hasPrefix($0) }) else { return false }
                    counts[hit] = counts[hit]! > 1 ? counts[hit]! - 1 : nil
                    return true
                }
                if garble {
                    return .respond(200, "<html>not json")
                }
                return nil
            }
            self.origin = nil
            self.transport = transport
            let configuration: PNConfiguration? = kind == .fake ? .testing(origin: "fake.origin:1") : nil
            if let configuration { configure(configuration) }
            self.client = PubNub(
                configuration: configuration,
                delegate: nil,
                eventSinks: [],
                serviceLane: transport,
                longPollLane: transport,
                // Rows that hold the connect attempt answer it when the test says so; on a loaded machine that can
                // be later than the attempt's 10 s limit, whose retry would add a second `/time/` to the row.
                timings: timings.connectAttempts(timingOutAfter: 120)
            )
        }
        self.center = PNObservationCenter(client: self.client)
        self.recorder = FourChannelRecorder(client: self.client, center: self.center)
    }

    /// Stops the origin and the peers.
    func stop() {
        self.recorder.stop()
        for peer in self.peers { peer.disconnect() }
        self.client.disconnect()
        self.tls?.proxy.stop()
        self.origin?.stop()
        self.tls?.authority.remove()
    }

    /// The number of entries so far: the start of the next check's window.
    var mark: Int { self.recorder.entries.count }

    // MARK: - Setup steps (each waits for its own outcome)

    /// From now on the fake transport answers requests whose path starts with `prefix` with 403.
    func fail(_ prefix: String) { self.failing.withLock { _ = $0.insert(prefix) } }

    /// The next `times` requests whose path starts with `prefix` get a 200 answer that is not JSON.
    func garble(_ prefix: String, times: Int = 1) { self.garbled.withLock { $0[prefix] = times } }

    /// From now on the fake transport holds requests whose path starts with `prefix` without an answer.
    func hold(_ prefix: String) { self.held.withLock { _ = $0.insert(prefix) } }

    /// New requests whose path starts with `prefix` are no longer held (those already held stay held).
    func unhold(_ prefix: String) { self.held.withLock { _ = $0.remove(prefix) } }

    /// From now on the fake transport answers requests whose path starts with `prefix` with `status` and `body`.
    func answer(_ prefix: String, status: Int, body: String) {
        self.answers.withLock { $0[prefix] = FakeAnswer(status: status, body: body) }
    }

    func connect() async throws {
        let start = self.mark
        self.client.connectWithSuccessBlock(self.recorder.connectSuccess, errorBlock: self.recorder.connectFailure)
        try await self.waitFor(.block, "connect", from: start)
    }

    func subscribe(presence: Bool = false) async throws {
        let start = self.mark
        self.client.subscribeOnChannels(
            [self.channel],
            withPresenceEvent: false,
            andCompletionHandlingBlock: self.recorder.subscribeBlock
        )
        try await self.waitFor(.block, "subscribe:1", from: start)
        if presence {
            let start = self.mark
            self.client.enablePresenceObservationForChannels(
                [self.channel],
                withCompletionHandlingBlock: self.recorder.channelsBlock("presenceEnable")
            )
            try await self.waitFor(.block, "presenceEnable", from: start)
        }
    }

    /// Cuts the fake network and waits for the disconnect that completes the loss.
    func loseNetwork() async throws {
        let start = self.mark
        self.transport?.setNetworkDown(true)
        try await self.waitFor(.delegate, "didDisconnectWithError", from: start)
    }

    /// A second client on the same LocalOrigin (no listeners; over TLS too for `.tls`), stopped with the harness.
    func peer(uuid: String) async throws -> PubNub {
        let origin = try #require(self.origin)
        let configuration =
            self.tls.map { Self.secureConfiguration(proxy: $0.proxy, authority: $0.authority) }
            ?? PNConfiguration.testing(origin: origin.address)
        let peer = PubNub(configuration: configuration)
        peer.setClientIdentifier(uuid)
        self.peers.append(peer)
        return peer
    }

    /// The `uuid`s (percent-escaped, as sent) of the client's requests so far and of the peers.
    var uuidsSent: Set<String> {
        Set(self.traffic.requests.compactMap { $0.parameter("uuid") })
            .union(self.peers.compactMap { $0.clientIdentifier().map(PercentEncoding.escape) })
    }

    func waitFor(_ channel: FourChannelRecorder.Channel, _ label: String, from start: Int) async throws {
        try await eventually("\(channel):\(label); seen: \(self.recorder.entries.map(\.description))", within: 20) {
            self.recorder.entries.dropFirst(start).contains { $0.channel == channel && $0.label == label }
        }
        // The rest of that delivery round (observers, notification, block) lands before the next window opens.
        self.client.engine.flushDeliveryQueue()
    }

    // MARK: - The check

    /// Waits until the rows' entries arrived after `start` (20 s), lets everything the client already has in hand
    /// be delivered, then checks that exactly the rows' entries arrived, in row order and within each row in the
    /// order delegate → observer → notification → block, each row's payload the same on every channel.
    func check(
        _ rows: [MatrixRow],
        from start: Int,
        ignoring: @escaping (FourChannelRecorder.Entry) -> Bool = { _ in false },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let expected = rows.flatMap(\.expected)
        // At the deadline the comparison below runs anyway: it shows what is missing.
        _ = try? await eventually("\(expected.count) entries", within: 20) {
            self.recorder.entries.dropFirst(start).filter { !ignoring($0) }.count >= expected.count
        }
        // Everything the engine emitted by now reaches the delivery queue before this returns.
        self.client.engine.flush()
        let actual = Array(self.recorder.entries.dropFirst(start).filter { !ignoring($0) })
        #expect(
            actual.map { "\($0.channel):\($0.label)" } == expected.map { "\($0.0):\($0.1)" },
            "rows \(rows)",
            sourceLocation: sourceLocation
        )
        guard actual.count == expected.count else { return }
        var index = 0
        for row in rows {
            let slice = actual[index..<(index + row.expected.count)]
            index += row.expected.count
            let keys = slice.map { entry in entry.channel == .block && row.blockKey != nil ? nil : entry.key }
                .compactMap { $0 }
            #expect(Set(keys).count <= 1, "\(row): payloads differ: \(Array(slice))", sourceLocation: sourceLocation)
            if let code = row.code {
                #expect(
                    keys.allSatisfy { $0.hasPrefix("error(\(code))") },
                    "\(row): expected error \(code): \(Array(slice))",
                    sourceLocation: sourceLocation
                )
            }
            if let blockKey = row.blockKey, let block = slice.first(where: { $0.channel == .block }) {
                #expect(block.key == blockKey, "\(row): block payload", sourceLocation: sourceLocation)
            }
        }
    }
}
