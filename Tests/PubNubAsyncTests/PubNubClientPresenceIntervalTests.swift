import Foundation
import LocalOrigin
import PubNubAsync
import TestSupport
import Testing

@testable import PubNubLegacy

/// What `PubNubAsync` sees of presence interval mode (MIGRATION.md §5, "Presence interval events"), end to end
/// against a `LocalOrigin` whose announce limit is 1: the second uuid's join comes inside an `interval` event, and
/// the presence stream yields it as a join with the interval's occupancy — not a message on the `-pnpres` channel.
/// (That LocalOrigin sends it as an interval event is `OriginStorePresenceIntervalTests`.)
@Suite struct PubNubClientPresenceIntervalTests {
    @Test func aJoinReportedByAnIntervalEventReachesThePresenceStream() async throws {
        var settings = LocalOrigin.Configuration()
        settings.presenceAnnounceMax = 1
        settings.presenceInterval = 0.2
        settings.presenceSweepInterval = 0.1
        let origin = try LocalOrigin.start(settings)
        defer { origin.stop() }
        let watcher = try await AsyncFixture.connected(origin)
        let channel = AsyncFixture.unique("interval")
        let presence = Collector(watcher.presence(on: channel))
        let presenceMessages = Collector(watcher.messages(on: channel + "-pnpres"))
        try await watcher.subscribe(to: [channel], withPresence: true)
        let own = try #require(watcher.legacy.clientIdentifier())
        try await presence.wait(for: "the watcher's own join") { $0.uuid == own }

        let joiner = try await AsyncFixture.connected(origin)
        try await joiner.subscribe(to: [channel])
        let other = try #require(joiner.legacy.clientIdentifier())
        let join = try await presence.wait(within: 15, for: "the joiner's join") { $0.uuid == other }
        #expect(join.type == .PNPresenceEventJoin)
        #expect(join.occupancy == 2)
        #expect(join.channel?.name == channel)
        // The channel object the event names was updated before the event was delivered (the process-wide channel
        // cache may be purged by a test running beside this one, so the subscribed list's object is not asked).
        #expect(join.channel?.participantsCount == 2)
        // The interval event itself was no message.
        #expect(presenceMessages.items.current.isEmpty)
        try await joiner.disconnect()
        try await watcher.disconnect()
    }
}
