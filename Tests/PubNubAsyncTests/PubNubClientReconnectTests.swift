import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubAsync
@testable import PubNubLegacy

/// `reconnect()`, the statuses of a long outage, and a half-ported app using both APIs on one client.
@Suite struct PubNubClientReconnectTests {
    @Test func reconnectReplacesTheLongPollAndCatchesUpFromTheLastTimeToken() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let listener = try await AsyncFixture.connected(origin)
        let delegate = RecordingDelegate()
        listener.legacy.setDelegate(delegate)
        let sender = try await AsyncFixture.connected(origin)
        let channel = AsyncFixture.unique("reconnect")
        let messages = Collector(listener.messages(on: channel))
        let statuses = Collector(listener.statuses)
        try await listener.subscribe(to: [channel])
        try await sender.publish("m0", to: channel)
        try await messages.wait(for: 1)
        try await eventually("the long-poll after m0 to park") {
            origin.requestLog.contains { $0.target.contains("/v2/subscribe/") && AsyncFixture.token($0.target) != "0" }
        }
        let cursor = try #require(listener.legacy.engine.subscribeCursorNow)
        let before = origin.requestLog.count

        // The replacement long-poll is held by the origin while m1 is published: it must still bring m1, once.
        try origin.inject(.stallSubscribe(nil))
        let reconnect = Task { try await listener.reconnect() }
        try await eventually("the restore request to reach the origin") {
            origin.faultCounters.stalledSubscribes >= 1
        }
        try await sender.publish("m1", to: channel)
        try origin.clearFaults()
        try await reconnect.value
        try await messages.wait(for: 2)
        try await sender.publish("m2", to: channel)
        try await messages.wait(for: 3)
        // Nothing more comes: no duplicate.
        _ = try await listener.time()
        #expect(messages.items.current.map { $0.message as? String } == ["m0", "m1", "m2"])

        let restores = origin.requestLog.dropFirst(before).map(\.target).filter { $0.contains("/v2/subscribe/") }
        #expect(restores.first.flatMap(AsyncFixture.token) == String(cursor.timetoken))
        #expect(!restores.contains { AsyncFixture.token($0) == "0" })  // no handshake: catch-up
        let reconnected = try await statuses.wait(for: "reconnected") { $0.category == .reconnected }
        #expect(reconnected.affectedChannels.map(\.name) == [channel])
        #expect(delegate.count("willRestoreSubscription") == 1)
        #expect(delegate.count("didRestoreSubscription") == 1)
        #expect(delegate.statuses.current.map(\.category) == [.reconnected])
        try await sender.disconnect()
        try await listener.disconnect()
    }

    @Test func reconnectWithoutChannelsReturnsAtOnce() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await AsyncFixture.connected(origin)
        try await client.reconnect()
        #expect(client.legacy.isConnected())
        try await client.disconnect()
    }

    @Test func reconnectWhileTheNetworkIsDownThrows104AndProbesAtOnce() async throws {
        // Probes every 1,000 s: only the probe `reconnect()` sends can find the origin back within the test.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await AsyncFixture.connected(origin)
        let statuses = Collector(client.statuses)
        let channel = AsyncFixture.unique("down")
        try await client.subscribe(to: [channel])
        try origin.inject(.refuseConnections(dropExisting: true))
        try await statuses.wait(within: 15, for: "unexpected disconnect") { $0.category == .unexpectedDisconnect }
        try origin.clearFaults()
        let error = await #expect(throws: PNError.self) { try await client.reconnect() }
        #expect(error?.code == kPNRequestExecutionFailedOnInternetFailureError)
        let back = try await statuses.wait(within: 15, for: "reconnected") { $0.category == .reconnected }
        #expect(back.affectedChannels.map(\.name) == [channel])
        #expect(client.legacy.isConnected())
        try await client.disconnect()
    }

    @Test func aLongOutageEndsWithTheMessageCountStatusBeforeTheCaughtUpMessages() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let listener = try await AsyncFixture.connected(origin, probeInterval: 0.3) {
            $0.requestMessageCountThreshold = 5
        }
        let delegate = RecordingDelegate()
        listener.legacy.setDelegate(delegate)
        let notifications = Locked<[PNStatus]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: kPNClientDidReceiveStatusNotification,
            object: listener.legacy,
            queue: nil
        ) { note in
            if let status = note.pnPayload(as: PNStatus.self) { notifications.withLock { $0.append(status) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let sender = try await AsyncFixture.connected(origin)
        let channel = AsyncFixture.unique("outage")
        let messages = Collector(listener.messages(on: channel))
        let statuses = Collector(listener.statuses)
        try await listener.subscribe(to: [channel])
        try await sender.publish("before", to: channel)
        try await messages.wait(for: 1)

        try origin.inject(.refuseConnections(dropExisting: true))
        let lost = try await statuses.wait(within: 15, for: "unexpected disconnect") {
            $0.category == .unexpectedDisconnect
        }
        #expect(lost.error?.code == kPNClientConnectionClosedOnInternetFailureError)
        #expect(lost.affectedChannels.map(\.name) == [channel])
        // The origin is back for the sender; the listener's probes still go unanswered: its outage goes on.
        try origin.inject(.neverAnswer, on: .operation(.time))
        try origin.clearFault(
            try #require(origin.activeFaults.first { $0.fault == .refuseConnections(dropExisting: true) }?.id)
        )
        for index in 1...6 {
            try await sender.publish("during \(index)", to: channel)
        }
        try origin.clearFaults()
        let exceeded = try await statuses.wait(within: 20, for: "message count exceeded") {
            $0.category == .messageCountExceeded
        }
        #expect(exceeded.error?.code == kPNRequestMessageCountExceededError)
        try await messages.wait(for: 7)
        #expect(messages.items.current.map { $0.message as? String } == ["before"] + (1...6).map { "during \($0)" })
        let expected: [PNStatusCategory] = [.unexpectedDisconnect, .reconnected, .messageCountExceeded]
        #expect(statuses.items.current.map(\.category) == expected)
        // The same statuses reached the 3.4 delegate and the notification.
        #expect(delegate.statuses.current.map(\.category) == expected)
        // 3.4 order: the status, then the messages of the answer that carried them.
        let afterExceeded = delegate.names.current.drop { $0 != "status:\(PNStatusCategory.messageCountExceeded)" }
        #expect(afterExceeded.filter { $0 == "didReceiveMessage" }.count == 6)
        try await eventually("the notifications") { notifications.current.count == 3 }
        #expect(notifications.current.map(\.category) == expected)
        try await sender.disconnect()
        try await listener.disconnect()
    }

    @Test func aHalfPortedAppUsesBothAPIsOnOneClient() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        // The 3.4 part of the app: its delegate, its connect and subscribe with blocks.
        let delegate = RecordingDelegate()
        let legacy = PubNub(configuration: AsyncFixture.configuration(origin), delegate: delegate)
        let modern = PubNubClient(wrapping: legacy)
        let statuses = Collector(modern.statuses)
        let channel = AsyncFixture.unique("half-ported")
        let subscribed = Locked(0)
        legacy.connect()
        legacy.subscribeOnChannels([PNChannel.channelWithName(channel)]) { state, _, _ in
            if state == .PNSubscriptionProcessSubscribedState { subscribed.withLock { $0 += 1 } }
        }
        try await eventually("the 3.4 subscribe block") { subscribed.current == 1 }
        // The modernised part: publishes and reads through the overlay on the same connection.
        let messages = Collector(modern.messages(on: channel))
        let token = try await modern.publish("from async", to: channel)
        legacy.sendMessage("from 3.4", toChannel: PNChannel.channelWithName(channel))
        try await messages.wait(for: 2)
        try await eventually("both messages at the delegate") { delegate.count("didReceiveMessage") == 2 }
        #expect(Set(messages.items.current.compactMap { $0.message as? String }) == ["from async", "from 3.4"])
        #expect(Set(delegate.messages.current) == ["from async", "from 3.4"])
        #expect(try await modern.history(of: channel).count == 2)
        #expect(try await modern.time() >= token)
        #expect(delegate.count("didConnect") == 1)
        #expect(delegate.statuses.current.map(\.category) == [.connected])
        // The async disconnect reaches the 3.4 delegate; both see the disconnected status.
        try await modern.disconnect()
        #expect(delegate.count("didDisconnect") == 1)
        try await statuses.wait(for: "disconnected") { $0.category == .disconnected }
        #expect(statuses.items.current.map(\.category) == [.connected, .disconnected])
        #expect(delegate.statuses.current.map(\.category) == [.connected, .disconnected])
    }
}
