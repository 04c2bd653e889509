import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// The conformance scenarios of docs/BEHAVIOR.md §9 that need no injected network fault, one test per scenario id
/// (named after it), grouped by section in `ScenarioTests+Section.swift`. Each drives a client on an in-process
/// LocalOrigin (the in-memory transport where the scenario is about engine timing or an answer LocalOrigin does
/// not give) and checks the exact event sequence on all four channels — delegate, observers, notifications,
/// completion blocks — with `MatrixHarness.check`, which also fails on any extra or repeated entry, and that every
/// block completed exactly once with `BlockLedger`. Where a Layer rule (docs/BEHAVIOR.md §8, docs/DESIGN.md §5)
/// replaces the 3.4 behaviour a scenario describes, the test checks the Layer rule and says so.
@Suite struct ScenarioTests {
    static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    // MARK: - Rows

    static let willConnect = EventMatrixTests.willConnect
    static let willSend = EventMatrixTests.willSend

    static func connected(block: Bool = true) -> Row {
        Row(
            event: "connected",
            delegate: "didConnect",
            observer: "connection:up",
            notification: kPNClientDidConnectToOriginNotification,
            block: block ? "connect" : nil
        )
    }

    /// `connect` while connected: 101 on every channel, as 3.4.2 reported it (issue 13).
    static let alreadyConnected = Row(
        event: "connect while connected",
        delegate: "connectionDidFail",
        observer: "connection:error",
        notification: kPNClientConnectionDidFailWithErrorNotification,
        block: "connect.error",
        code: kPNClientTriedConnectWhileConnectedError
    )

    static let disconnected = Row(
        event: "disconnected",
        delegate: "didDisconnect",
        observer: "connection:down",
        notification: kPNClientDidDisconnectFromOriginNotification
    )

    static func subscribed(block: Bool = true) -> Row {
        Row(
            event: "subscribed",
            delegate: "didSubscribe",
            observer: "subscription:1",
            notification: kPNClientSubscriptionDidCompleteNotification,
            block: block ? "subscribe:1" : nil
        )
    }

    static func unsubscribed(block: Bool = true) -> Row {
        Row(
            event: "unsubscribed",
            delegate: "didUnsubscribe",
            observer: "unsubscription",
            notification: kPNClientUnsubscriptionDidCompleteNotification,
            block: block ? "unsubscribe" : nil
        )
    }

    static let sent = Row(
        event: "sent",
        delegate: "didSendMessage",
        observer: "messageProcessing:1",
        notification: kPNClientDidSendMessageNotification,
        block: "send:1"
    )

    static let received = Row(
        event: "message received",
        delegate: "didReceiveMessage",
        observer: "messageReceive",
        notification: kPNClientDidReceiveMessageNotification
    )

    static let timeReceived = Row(
        event: "time token",
        delegate: "didReceiveTimeToken",
        observer: "time",
        notification: kPNClientDidReceiveTimeTokenNotification,
        block: "time"
    )

    /// A failure reported through the completion block only (pre-flight with the gate closed, docs/API-3.4.md §3.3).
    static func blockOnly(_ block: String, code: Int) -> Row {
        Row(event: "\(block) (block only)", block: block, code: code)
    }

    /// Presence events on any channel (the client's own joins when it observes presence).
    static let isPresenceEvent: @Sendable (FourChannelRecorder.Entry) -> Bool = { entry in
        entry.label == "didReceivePresenceEvent" || entry.label == "presenceEvent"
            || entry.label == kPNClientDidReceivePresenceEventNotification.rawValue
    }

    // MARK: - Steps

    /// Connects with a ledger block and waits for the connect to complete.
    static func connect(_ harness: MatrixHarness, _ ledger: BlockLedger, id: String = "connect") async throws {
        let start = harness.mark
        let (success, failure) = ledger.connect(id)
        harness.client.connectWithSuccessBlock(success, errorBlock: failure)
        try await harness.waitFor(.block, "connect", from: start)
    }

    /// Starts a connect on the in-memory origin with its Time request held, and returns once that request is on the
    /// wire; `answerHeldConnect` releases it. For rows about what happens while a connect is in progress.
    static func connectHeld(_ harness: MatrixHarness, _ ledger: BlockLedger, id: String) async throws -> FakeTransport {
        let transport = try #require(harness.transport)
        harness.hold("/time/")
        let (success, failure) = ledger.connect(id)
        harness.client.connectWithSuccessBlock(success, errorBlock: failure)
        try await transport.waitForRequest(containing: "/time/")
        return transport
    }

    /// Answers the connect attempt `connectHeld` holds, and lets later Time requests through.
    static func answerHeldConnect(_ harness: MatrixHarness, _ transport: FakeTransport) {
        harness.unhold("/time/")
        transport.answerHeld(containing: "/time/", status: 200, body: "[17000000000000000]")
    }

    /// Subscribes (with presence event) and waits until the long-poll after the handshake is on its way; returns
    /// that long-poll's index in the traffic log (in the fake transport's list on the in-memory transport).
    @discardableResult
    static func subscribe(
        _ harness: MatrixHarness,
        _ ledger: BlockLedger,
        _ channels: [PNChannel],
        id: String
    ) async throws -> Int {
        let start = harness.mark
        let sentBefore = harness.traffic.count
        harness.client.subscribeOnChannels(channels, withCompletionHandlingBlock: ledger.subscribe(id))
        try await harness.waitFor(.block, "subscribe:1", from: start)
        if let transport = harness.transport {
            let longPoll: (String) -> Bool = { $0.hasPrefix("/v2/subscribe/") && !$0.contains("tt=0&") }
            try await transport.waitForRequest(containing: "/v2/subscribe/")
            try await eventually("long-poll") { transport.targets.contains(where: longPoll) }
            return try #require(transport.targets.lastIndex(where: longPoll))
        }
        try await harness.traffic.wait(from: sentBefore, "long-poll") { $0.isSubscribe && $0.timetoken != 0 }
        return try #require(harness.traffic.requests.lastIndex { $0.isSubscribe })
    }

    /// The connection state now.
    static func state(_ client: PubNub) -> ConnectionStateMachine.State {
        client.engine.connectionStateNow
    }

    /// A connected peer on the harness's origin that publishes `messages` to `channel` in order and waits until the
    /// origin acknowledged them all.
    static func publish(
        _ messages: [Any],
        to channel: PNChannel,
        from harness: MatrixHarness,
        uuid: String = "peer"
    ) async throws {
        let peer = try await harness.peer(uuid: uuid)
        let acknowledged = Locked(0)
        let failed = Locked(0)
        peer.connect()
        for message in messages {
            peer.sendMessage(message, toChannel: channel) { state, _ in
                switch state {
                case .PNMessageSent: acknowledged.withLock { $0 += 1 }
                case .PNMessageSendingError: failed.withLock { $0 += 1 }
                case .PNMessageSending: break
                }
            }
        }
        try await eventually("\(messages.count) acknowledged publishes", within: 20) {
            acknowledged.current + failed.current == messages.count
        }
        #expect(failed.current == 0)
    }

    /// Records the channel and text of every message the harness's client receives, through the observation center.
    final class MessageWatcher: @unchecked Sendable {
        // @unchecked: `received` is a `Locked` box.
        let received = Locked<[(channel: String, text: String)]>([])

        init(_ harness: MatrixHarness) {
            harness.center.addMessageReceiveObserver(self) { [weak self] message in
                let text = message.message.map { String(describing: $0) } ?? "nil"
                self?.received.withLock { $0.append((message.channel?.name ?? "", text)) }
            }
        }
    }

    /// A configuration for `origin` that delivers on the harness's delivery queue.
    static func configuration(_ harness: MatrixHarness, origin: String) -> PNConfiguration {
        let configuration = PNConfiguration.testing(origin: origin)
        configuration.deliveryQueue = harness.client.engine.dispatcher.queue
        return configuration
    }
}
