import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

// docs/BEHAVIOR.md §9 "Connect and configuration": S-01 … S-07, S-14, S-15 (S-08 … S-13 need network or TLS faults and
// are tested with them).

extension ScenarioTests {
    @Test("S-01: connect without configuration reports 100 through error: and the error block, sends nothing")
    func s01ConnectWithoutConfiguration() async throws {
        let harness = try MatrixHarness(.unconfigured)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let start = harness.mark
        let (success, failure) = ledger.connect("connect")
        harness.client.connectWithSuccessBlock(success, errorBlock: failure)
        try await harness.check(
            [
                Row(
                    event: "configuration error",
                    delegate: "error",
                    notification: kPNClientErrorNotification,
                    block: "connect.error",
                    code: kPNClientConfigurationError
                )
            ],
            from: start
        )
        #expect(harness.transport?.requests.isEmpty == true)
        #expect(Self.state(harness.client) == .created)
        ledger.verify()
    }

    @Test("S-02: an invalid configuration is reported with 100 and the previous one stays in effect")
    func s02InvalidConfigurationRejected() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let origin = try #require(harness.origin)
        let invalid = PNConfiguration.testing(origin: origin.address, subscribeKey: "")
        invalid.deliveryQueue = harness.client.engine.dispatcher.queue
        var start = harness.mark
        harness.client.setConfiguration(invalid)
        try await harness.check(
            [
                Row(
                    event: "configuration error",
                    delegate: "error",
                    notification: kPNClientErrorNotification,
                    code: kPNClientConfigurationError
                )
            ],
            from: start
        )
        start = harness.mark
        let sentBefore = harness.traffic.count
        _ = harness.client.sendMessage("after", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        try await harness.check([Self.willSend, Self.sent], from: start)
        let publish = try #require(harness.traffic.since(sentBefore).first { $0.target.hasPrefix("/publish/") })
        #expect(publish.target.hasPrefix("/publish/pub-c-test/sub-c-test/"))
        #expect(harness.client.isConnected())
        ledger.verify()
    }

    @Test(
        "S-03: connect emits will-connect then did-connect with the same origin, then the success block, nothing else"
    )
    func s03NormalConnectOrder() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let origin = try #require(harness.origin)
        let start = harness.mark
        let (success, failure) = ledger.connect("connect")
        harness.client.connectWithSuccessBlock(success, errorBlock: failure)
        try await harness.check([Self.willConnect, Self.connected()], from: start)
        let keys = Set(harness.recorder.entries.dropFirst(start).map(\.key))
        #expect(keys == ["origin:\(origin.address)"])
        #expect(Self.state(harness.client) == .connected)
        #expect(harness.client.isConnected())
        ledger.verify()
    }

    @Test("S-04: connect while connected fails with 101, reported as 3.4.2 did; the running long-poll is untouched")
    func s04ConnectWhileConnected() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        let poll = try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe")
        let start = harness.mark
        let sentBefore = harness.traffic.count
        let (success, failure) = ledger.connect("again")
        harness.client.connectWithSuccessBlock(success, errorBlock: failure)
        // Layer rule (issue 13): 3.4.2 told the delegate, the notification observers and thus the connection
        // observers (`connectionDidFailWithError:` 101), then the block.
        try await harness.check([Self.alreadyConnected], from: start)
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        #expect(harness.traffic.requests[poll].failure == nil)
        // The same long-poll request, not a replacement, carries the next message.
        let next = harness.mark
        try await Self.publish(["still polling"], to: harness.channel, from: harness)
        try await harness.check([Self.received], from: next)
        #expect(harness.traffic.requests[poll].status == 200)
        ledger.verify()
    }

    @Test("S-05: connect while connecting fails with 101 once the first connect completed and a publish ran")
    func s05ConnectWhileConnecting() async throws {
        // Engine timing: the fake transport holds the connect attempt until the test answers it. The second connect
        // was called after the publish, so (calls start in call order, docs/BEHAVIOR.md §1.2) its 101 follows the
        // publish.
        // The test counts `/time/0` requests: the reachability probe (every 10 s after the connect) would add one
        // when a loaded machine stretches the test past 10 s.
        let harness = try MatrixHarness(.fake, timings: .quietProbe)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let start = harness.mark
        let transport = try await Self.connectHeld(harness, ledger, id: "first")
        _ = harness.client.sendMessage("x", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        let (again, againFailure) = ledger.connect("second")
        harness.client.connectWithSuccessBlock(again, errorBlock: againFailure)
        try await harness.check([Self.willConnect], from: start)
        #expect(!transport.targets.contains { $0.hasPrefix("/publish/") })
        Self.answerHeldConnect(harness, transport)
        try await harness.check(
            [
                Self.willConnect, Self.connected(), Self.willSend, Self.sent, Self.alreadyConnected,
            ],
            from: start
        )
        #expect(transport.targets.filter { $0.hasPrefix("/time/") }.count == 1)
        #expect(harness.client.isConnected())
        ledger.verify()
    }

    @Test("S-06: calls made during connect run in call order after did-connect, each block once")
    func s06CallsDuringConnectAreDeferredInOrder() async throws {
        // Engine timing: the fake transport holds the connect attempt until the test answers it.
        let harness = try MatrixHarness(.fake)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let start = harness.mark
        let transport = try await Self.connectHeld(harness, ledger, id: "connect")
        harness.client.subscribeOnChannel(harness.channel, withCompletionHandlingBlock: ledger.subscribe("subscribe"))
        _ = harness.client.sendMessage("x", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        harness.client.requestServerTimeTokenWithCompletionBlock(ledger.time("time"))
        try await harness.check([Self.willConnect], from: start)
        #expect(transport.targets.count == 1)
        Self.answerHeldConnect(harness, transport)
        try await harness.check(
            [Self.willConnect, Self.connected(), Self.subscribed(), Self.willSend, Self.sent, Self.timeReceived],
            from: start
        )
        let targets = transport.targets
        let handshake = try #require(targets.firstIndex { $0.hasPrefix("/v2/subscribe/") && $0.contains("tt=0") })
        let longPoll = try #require(targets.firstIndex { $0.hasPrefix("/v2/subscribe/") && !$0.contains("tt=0") })
        let publish = try #require(targets.firstIndex { $0.hasPrefix("/publish/") })
        let time = try #require(targets.lastIndex { $0.hasPrefix("/time/") })
        // didSubscribe is emitted when the long-poll after the handshake is issued (docs/BEHAVIOR.md §3.2), so the
        // publish follows it.
        #expect(handshake < longPoll)
        #expect(longPoll < publish)
        #expect(publish < time)
        ledger.verify()
    }

    @Test("S-07: after a user disconnect a publish fails at once with 105 through the block only, nothing is sent")
    func s07CallsWhileDisconnectedFailFast() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        var start = harness.mark
        harness.client.disconnect()
        try await harness.check([Self.disconnected], from: start)
        start = harness.mark
        let sentBefore = harness.traffic.count
        _ = harness.client.sendMessage("x", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        try await harness.check(
            [Self.blockOnly("send:2", code: kPNRequestExecutionFailedClientNotReadyError)],
            from: start
        )
        #expect(harness.traffic.callsSince(sentBefore).isEmpty)
        ledger.verify()
    }

    @Test("S-07: with the network down and a failed probe the same publish fails with 104")
    func s07CallsWhileOfflineFailWith104() async throws {
        // The "black-holed switch" is the fake transport's network switch; the probe is the emulated reachability
        // check of docs/BEHAVIOR.md §2.2, run at once instead of waiting for its 10 s interval.
        let harness = try MatrixHarness(.fake)
        defer { harness.stop() }
        let transport = try #require(harness.transport)
        let ledger = BlockLedger(harness.recorder)
        try await Self.connect(harness, ledger)
        var start = harness.mark
        harness.client.disconnect()
        try await harness.check([Self.disconnected], from: start)
        transport.setNetworkDown(true)
        let engine = harness.client.engine
        engine.probeReachabilityNow()
        try await eventually("a failed probe") { engine.reachabilityNow == .notReachable }
        start = harness.mark
        let sentBefore = transport.requests.count
        _ = harness.client.sendMessage("x", toChannel: harness.channel, withCompletionBlock: ledger.send("publish"))
        try await harness.check(
            [Self.blockOnly("send:2", code: kPNRequestExecutionFailedOnInternetFailureError)],
            from: start
        )
        #expect(!transport.targets.dropFirst(sentBefore).contains { $0.hasPrefix("/publish/") })
        ledger.verify()
    }

    @Test("S-14: a configuration change during connect abandons the first origin and connects once to the new one")
    func s14ConfigurationChangeDuringConnect() async throws {
        // Engine timing: the fake transport holds the attempt to the first origin. Restarting T5 with the new
        // configuration (T16) announces the new origin with its own will-connect. The reachability probe (a Time
        // request every 10 s once connected) is moved an hour away: a whole run that stretched this test past 10 s
        // counted the probe as a second connect to the new origin.
        let harness = try MatrixHarness(.fake, timings: .quietProbe)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        let start = harness.mark
        let transport = try await Self.connectHeld(harness, ledger, id: "connect")
        harness.unhold("/time/")
        harness.client.setConfiguration(Self.configuration(harness, origin: "second.origin:2"))
        try await harness.check([Self.willConnect, Self.willConnect, Self.connected()], from: start)
        let keys = harness.recorder.entries.dropFirst(start).filter { $0.channel == .delegate }.map(\.key)
        #expect(keys == ["origin:fake.origin:1", "origin:second.origin:2", "origin:second.origin:2"])
        let hosts = transport.requests.filter { $0.url.path.hasPrefix("/time/") }.map { $0.url.host ?? "" }
        #expect(hosts == ["fake.origin", "second.origin"])
        #expect(harness.client.isConnected())
        ledger.verify()
    }

    @Test("S-15: without an app-set UUID every request of two sessions carries the same uuid")
    func s15UUIDStableAcrossConnects() async throws {
        let harness = try MatrixHarness(.local)
        defer { harness.stop() }
        let ledger = BlockLedger(harness.recorder)
        for session in 1...2 {
            try await Self.connect(harness, ledger, id: "connect \(session)")
            try await Self.subscribe(harness, ledger, [harness.channel], id: "subscribe \(session)")
            let start = harness.mark
            _ = harness.client.sendMessage(
                session,
                toChannel: harness.channel,
                withCompletionBlock: ledger.send("publish \(session)")
            )
            try await harness.waitFor(.block, "send:1", from: start)
            let disconnect = harness.mark
            harness.client.disconnect()
            try await harness.waitFor(.delegate, "didDisconnect", from: disconnect)
        }
        let uuids = harness.traffic.requests.compactMap { $0.parameter("uuid") }
        #expect(harness.traffic.requests.filter { $0.target.hasPrefix("/publish/") }.count == 2)
        #expect(harness.traffic.subscribes.count >= 4)
        #expect(Set(uuids).count == 1)
        #expect(uuids.first == harness.client.clientIdentifier().map { PercentEncoding.escape($0) })
        ledger.verify()
    }
}
