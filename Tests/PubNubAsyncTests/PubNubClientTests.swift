import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubAsync
@testable import PubNubLegacy

/// Every call and stream of `PubNubClient` against a `LocalOrigin` over real sockets.
@Suite struct PubNubClientTests {
    @Test func everyCallRoundTripsAgainstLocalOrigin() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await AsyncFixture.connected(origin)
        let statuses = Collector(client.statuses)
        let channel = AsyncFixture.unique("calls")
        let messages = Collector(client.messages(on: channel))
        let presence = Collector(client.presence(on: channel))
        let everything = Collector(client.messages())
        let elsewhere = Collector(client.messages(on: AsyncFixture.unique("elsewhere")))
        let elsewherePresence = Collector(client.presence(on: AsyncFixture.unique("elsewhere")))

        try await client.subscribe(to: [channel], withPresence: true)
        #expect(client.legacy.subscribedChannels().map(\.name) == [channel])
        let uuid = try #require(client.legacy.clientIdentifier())
        let join = try await presence.wait(for: "own join") { $0.uuid == uuid }
        #expect(join.type == .PNPresenceEventJoin)

        let token = try await client.publish(["text": "hello"], to: channel)
        #expect(token > 0)
        let received = try await messages.wait(for: 1)
        #expect((received[0].message as? [String: String]) == ["text": "hello"])
        #expect(received[0].channel?.name == channel)
        try await everything.wait(for: 1)

        let stored = try await client.history(of: channel)
        #expect(stored.count == 1)
        #expect((stored.first?.message as? [String: String]) == ["text": "hello"])

        let here = try await client.hereNow(channel)
        #expect(here.contains(uuid))

        let now = try await client.time()
        #expect(now >= token)

        // Streams of other channels got nothing.
        #expect(elsewhere.items.current.isEmpty)
        #expect(elsewherePresence.items.current.isEmpty)
        try await client.unsubscribe(from: [channel])
        #expect(client.legacy.subscribedChannels().isEmpty)
        try await client.disconnect()
        #expect(!client.legacy.isConnected())
        try await statuses.wait(for: "disconnected") { $0.category == .disconnected }
        #expect(statuses.items.current.map(\.category) == [.disconnected])
        #expect(
            blocks(client) == [
                "connect": 1, "subscribe": 1, "publish": 1, "history": 1, "hereNow": 1, "time": 1, "unsubscribe": 1,
            ]
        )
    }

    @Test func historyHonoursLimitAndOrder() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await AsyncFixture.connected(origin)
        let channel = AsyncFixture.unique("history")
        for index in 1...5 {
            try await client.publish(index, to: channel)
        }
        let newest = try await client.history(of: channel, limit: 2)
        #expect(newest.compactMap { ($0.message as? NSNumber)?.intValue } == [4, 5])
        let oldest = try await client.history(of: channel, limit: 2, reverse: true)
        #expect(oldest.compactMap { ($0.message as? NSNumber)?.intValue } == [1, 2])
        try await client.disconnect()
    }

    @Test func failuresAreThrownAsPNErrorsWithThe34Codes() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = PubNubClient(configuration: AsyncFixture.configuration(origin))
        // Not connected: 105 for every request.
        let notReady = await #expect(throws: PNError.self) { try await client.publish("x", to: "a") }
        #expect(notReady?.code == kPNRequestExecutionFailedClientNotReadyError)
        let history = await #expect(throws: PNError.self) { try await client.history(of: "a") }
        #expect(history?.code == kPNRequestExecutionFailedClientNotReadyError)
        let reconnect = await #expect(throws: PNError.self) { try await client.reconnect() }
        #expect(reconnect?.code == kPNRequestExecutionFailedClientNotReadyError)
        try await client.connect()
        try await client.connect()  // already connected: returns, no 101
        let refused = await #expect(throws: PNError.self) { try await client.subscribe(to: ["a,b"]) }
        #expect(refused?.code == kPNRestrictedCharacterInChannelNameError)
        let empty = await #expect(throws: PNError.self) { try await client.publish("", to: "a") }
        #expect(empty?.code == kPNMessageHasNoContentError)
        try await client.disconnect()
        try await client.disconnect()  // not connected: returns
    }

    @Test func aConnectThatCannotReachTheOriginThrows102() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        try origin.inject(.refuseConnections(dropExisting: true))
        let client = PubNubClient(configuration: AsyncFixture.configuration(origin))
        let statuses = Collector(client.statuses)
        let error = await #expect(throws: PNError.self) { try await client.connect() }
        #expect(error?.code == kPNClientConnectionFailedOnInternetFailureError)
        let status = try await statuses.wait(for: "network issues") { $0.category == .networkIssues }
        #expect(status.error?.code == kPNClientConnectionFailedOnInternetFailureError)
    }

    @Test func streamsEndWhenTheClientIsDeallocated() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        var client: PubNubClient? = PubNubClient(configuration: AsyncFixture.configuration(origin))
        weak let weakClient = client
        let messages = Collector(try #require(client).messages())
        let presence = Collector(try #require(client).presence(on: "a"))
        let statuses = Collector(try #require(client).statuses)
        client = nil
        #expect(weakClient == nil)
        try await eventually("the streams to end") {
            messages.ended.current && presence.ended.current && statuses.ended.current
        }
    }

    @Test func aSlowConsumerIsToldWhatItsStreamDropped() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let delegate = RecordingDelegate()
        let client = try await AsyncFixture.connected(origin)
        client.legacy.setDelegate(delegate)
        let statuses = Collector(client.statuses)
        let channel = AsyncFixture.unique("slow")
        let slow = client.messages(on: channel, bufferingNewest: 3)
        try await client.subscribe(to: [channel])
        for index in 1...10 {
            try await client.publish(index, to: channel)
        }
        // Every message reached the 3.4 delegate, and so went through the stream's buffer.
        try await eventually("10 messages at the delegate") { delegate.count("didReceiveMessage") == 10 }
        let first = try await statuses.wait(for: "the first overflow report") { $0.category == .bufferOverflow }
        #expect(first.droppedCount == 1)
        #expect(first.affectedChannels.map(\.name) == [channel])
        var iterator = slow.makeAsyncIterator()
        var kept: [Int] = []
        for _ in 0..<3 {
            if let message = await iterator.next() { kept.append((message.message as? NSNumber)?.intValue ?? 0) }
        }
        #expect(kept == [8, 9, 10])
        // The consumer caught up: the next message ends the overflow and reports the rest of it.
        try await client.publish(11, to: channel)
        #expect((await iterator.next()?.message as? NSNumber)?.intValue == 11)
        let reports = try await statuses.wait(for: 2).filter { $0.category == .bufferOverflow }
        #expect(reports.map(\.droppedCount) == [1, 6])
        #expect(delegate.statuses.current.allSatisfy { $0.category != .bufferOverflow })
        try await client.disconnect()
    }

    /// The count of each 3.4 block the overlay passed.
    private func blocks(_ client: PubNubClient) -> [String: Int] {
        client.blockRuns.current
    }
}
