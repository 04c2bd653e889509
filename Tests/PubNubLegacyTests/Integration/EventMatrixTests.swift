import Foundation
import PNObservation
import Testing

@testable import PubNubLegacy

/// One case of the matrix: how to bring a client to the starting state, what triggers the event(s), and the rows
/// of docs/API-3.4.md §3.2 / §3.3 (as amended by docs/DESIGN.md §4–§5) the four channels must then see, and nothing
/// else.
struct MatrixCase: Sendable, CustomTestStringConvertible {
    let name: String
    var origin: MatrixHarness.Origin = .local
    /// The client engine's timings.
    var timings = EngineTimings.standard
    var setup: @Sendable (MatrixHarness) async throws -> Void = { _ in }
    let trigger: @Sendable (MatrixHarness) async throws -> Void
    let rows: [MatrixRow]
    var ignoring: @Sendable (FourChannelRecorder.Entry) -> Bool = { _ in false }

    var testDescription: String { self.name }
}

typealias Row = MatrixRow

/// Every row of the event matrix (docs/API-3.4.md §3.2) and every pre-flight failure (docs/API-3.4.md §3.3), triggered
/// against an in-process LocalOrigin or, where LocalOrigin cannot produce the event (a refused request, a network loss,
/// a hung handshake), against the in-memory transport; each checked on all four channels at once.
@Suite struct EventMatrixTests {
    static let allCases = Self.connectionCases + Self.channelCases + Self.requestCases + Self.preflightCases

    @Test(arguments: Self.allCases)
    func everyListedChannelGetsTheEventOnceInOrderWithTheSamePayload(_ matrixCase: MatrixCase) async throws {
        let harness = try MatrixHarness(matrixCase.origin, timings: matrixCase.timings)
        defer { harness.stop() }
        try await matrixCase.setup(harness)
        let start = harness.mark
        try await matrixCase.trigger(harness)
        try await harness.check(matrixCase.rows, from: start, ignoring: matrixCase.ignoring)
    }

    /// Every case that runs against a LocalOrigin, again over TLS: connect, subscribe, presence, publish, history,
    /// here-now, time, push … through a TLS terminator whose certificate a CA made at test time signed, on the
    /// socket transport's TLS (Linux, OpenSSL), with verification on and the test CA as the trust anchor.
    @Test(.enabled(if: OpenSSLTests.loaded), arguments: Self.allCases.filter { $0.origin == .local })
    func overTLSEveryListedChannelGetsTheEventOnceInOrderWithTheSamePayload(_ matrixCase: MatrixCase) async throws {
        let harness = try await MatrixHarness.start(.tls)
        defer { harness.stop() }
        try await matrixCase.setup(harness)
        let start = harness.mark
        try await matrixCase.trigger(harness)
        try await harness.check(matrixCase.rows, from: start, ignoring: matrixCase.ignoring)
        // Every request of the case went over TLS: the terminator saw TLS connections only (none for the cases that
        // fail before sending anything). A request cancelled while its connection was still in the handshake (a
        // long-poll that an unsubscribe or a channel change replaces) closes it there, which the terminator reports
        // as `tls-abandoned`: still TLS, no byte in the clear. Seen once under ThreadSanitizer, whose slower
        // handshakes widen that window. Plain requests of other tests' clients are left out: one still trying a
        // port this terminator has been given since reached it in a loaded parallel run (`[plain, tls, plain,
        // plain]`), and this case's client has no plain fallback to send one.
        let proxy = try #require(harness.tls?.proxy)
        let connections = proxy.connections
        #expect(connections.allSatisfy { $0 == .tls || $0 == .tlsAbandoned || $0 == .plain }, "\(connections)")
        let ours = proxy.plainConnections(of: harness.uuidsSent)
        #expect(ours.isEmpty, "plain requests of this case's clients: \(ours); uuids \(harness.uuidsSent)")
        #expect(harness.traffic.requests.allSatisfy { $0.failure == nil || $0.failure == .cancelled })
    }

    // MARK: - Connection

    static let willConnect = Row(
        event: "will connect",
        delegate: "willConnect",
        notification: kPNClientWillConnectToOriginNotification
    )

    static let connectionCases: [MatrixCase] = [
        MatrixCase(
            name: "will connect, connected",
            trigger: {
                $0.client.connectWithSuccessBlock($0.recorder.connectSuccess, errorBlock: $0.recorder.connectFailure)
            },
            rows: [
                willConnect,
                Row(
                    event: "connected",
                    delegate: "didConnect",
                    observer: "connection:up",
                    notification: kPNClientDidConnectToOriginNotification,
                    block: "connect"
                ),
            ]
        ),
        MatrixCase(
            name: "disconnected (clean, user)",
            setup: { try await $0.connect() },
            trigger: { $0.client.disconnect() },
            rows: [
                Row(
                    event: "disconnected",
                    delegate: "didDisconnect",
                    observer: "connection:down",
                    notification: kPNClientDidDisconnectFromOriginNotification
                )
            ]
        ),
        MatrixCase(
            name: "disconnected while a connect is retrying (errorBlock(nil))",
            origin: .fake,
            setup: { harness in
                // The first attempt fails, so the connect is in its retries: a disconnect does not wait for them.
                harness.hold("/time/")
                let start = harness.mark
                harness.client.connectWithSuccessBlock(
                    harness.recorder.connectSuccess,
                    errorBlock: harness.recorder.connectFailure
                )
                try await harness.waitFor(.notification, kPNClientWillConnectToOriginNotification.rawValue, from: start)
                let transport = try #require(harness.transport)
                try await transport.answerWhenHeld(containing: "/time/", status: 503, body: "unavailable")
                try await transport.waitForRequest(containing: "/time/", count: 2)
            },
            trigger: { $0.client.disconnect() },
            rows: [
                Row(
                    event: "disconnected",
                    delegate: "didDisconnect",
                    observer: "connection:down",
                    notification: kPNClientDidDisconnectFromOriginNotification,
                    block: "connect.error",
                    blockKey: "none"
                )
            ]
        ),
        MatrixCase(
            name: "connection attempt failed",
            origin: .fake,
            setup: { $0.fail("/time/") },
            trigger: {
                $0.client.connectWithSuccessBlock($0.recorder.connectSuccess, errorBlock: $0.recorder.connectFailure)
            },
            rows: [
                willConnect,
                Row(
                    event: "connection failed",
                    delegate: "connectionDidFail",
                    observer: "connection:error",
                    notification: kPNClientConnectionDidFailWithErrorNotification,
                    block: "connect.error"
                ),
            ]
        ),
        MatrixCase(
            name: "will disconnect on error, disconnected on network error",
            origin: .fake,
            setup: { try await $0.connect() },
            trigger: { $0.transport?.setNetworkDown(true) },
            rows: [
                Row(
                    event: "will disconnect on error",
                    delegate: "willDisconnectWithError",
                    observer: "connection:error",
                    notification: kPNClientConnectionDidFailWithErrorNotification,
                    code: kPNClientConnectionClosedOnInternetFailureError
                ),
                Row(
                    event: "disconnected on network error",
                    delegate: "didDisconnectWithError",
                    observer: "connection:error",
                    notification: kPNClientConnectionDidFailWithErrorNotification,
                    code: kPNClientConnectionClosedOnInternetFailureError
                ),
            ]
        ),
        MatrixCase(
            name: "reconnected: will restore subscription, subscription restored",
            origin: .fake,
            // The reachability probe runs every 0.2 s instead of 10 s, so the restored network is noticed at once.
            // Only for cases that need it: the probe is a time request, which a case may have made fail.
            timings: .probing(every: 0.2),
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe()
                try await harness.loseNetwork()
            },
            trigger: { $0.transport?.setNetworkDown(false) },
            rows: [
                willConnect,
                Row(
                    event: "connected",
                    delegate: "didConnect",
                    observer: "connection:up",
                    notification: kPNClientDidConnectToOriginNotification
                ),
                Row(
                    event: "will restore",
                    delegate: "willRestoreSubscription",
                    observer: "subscription:2",
                    notification: kPNClientSubscriptionWillRestoreNotification
                ),
                Row(
                    event: "restored",
                    delegate: "didRestoreSubscription",
                    observer: "subscription:3",
                    notification: kPNClientSubscriptionDidRestoreNotification
                ),
            ]
        ),
        MatrixCase(
            name: "configuration error from setConfiguration (not gated, no block)",
            trigger: { harness in
                let bad = PNConfiguration.testing(origin: harness.origin?.address ?? "", publishKey: "")
                harness.client.setConfiguration(bad)
            },
            rows: [
                Row(
                    event: "configuration error",
                    delegate: "error",
                    notification: kPNClientErrorNotification,
                    code: kPNClientConfigurationError
                )
            ]
        ),
        MatrixCase(
            name: "connect without configuration (100, block called)",
            origin: .unconfigured,
            trigger: {
                $0.client.connectWithSuccessBlock($0.recorder.connectSuccess, errorBlock: $0.recorder.connectFailure)
            },
            rows: [
                Row(
                    event: "configuration error",
                    delegate: "error",
                    notification: kPNClientErrorNotification,
                    block: "connect.error",
                    code: kPNClientConfigurationError
                )
            ]
        ),
    ]
}
