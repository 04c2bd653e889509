import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// Every suite that relies on the identity of cached channels or purges the cache is nested here: the cache is
/// process-wide, so these run one at a time, and while they run no suite that touches process-wide state does (the
/// ported HelloWorld app prints its channel's description, which names the cached instance).
@Suite(.serialized, .sharedProcessState) struct ChannelCacheTests {}

extension ChannelCacheTests {
    @Suite struct PNChannelTests {
        @Test func oneCachedInstancePerExactName() {
            let first = PNChannel.channelWithName("cache-a")
            #expect(PNChannel.channelWithName("cache-a") === first)
            #expect(PNChannel.channelWithName("Cache-A") !== first)
            #expect(PNChannel.channelWithName("Cache-A") != first)
            #expect(PNChannel.channelWithName("@at-sign").name == "@at-sign")
        }

        @Test func channelsWithNamesKeepsOrderAndUsesTheCache() {
            let channels = PNChannel.channelsWithNames(["list-b", "list-a", "list-b"])
            #expect(channels.map(\.name) == ["list-b", "list-a", "list-b"])
            #expect(channels[0] === channels[2])
            #expect(channels[1] === PNChannel.channelWithName("list-a"))
        }

        @Test func purgedChannelsStillCompareEqualByName() {
            let before = PNChannel.channelWithName("purge-a")
            before.setUpdateTimeToken(15_000_000_000_000_000)
            PNChannel.purgeChannelsCache()
            let after = PNChannel.channelWithName("purge-a")
            #expect(after !== before)
            #expect(after == before)
            #expect(after.hashValue == before.hashValue)
            #expect(Set([before, after]).count == 1)
            #expect(after.updateTimeToken == "0")
            #expect(before.updateTimeToken == "15000000000000000")
        }

        @Test func presenceFlagIsSharedAndSetOnlyByTheFlagVariant() {
            let channel = PNChannel.channelWithName("flag-a", shouldObservePresence: true)
            #expect(channel.shouldObservePresence)
            #expect(!channel.isUserDefinedPresenceObservation)
            #expect(PNChannel.channelWithName("flag-a").shouldObservePresence)
            #expect(PNChannel.channelWithName("flag-a", shouldObservePresence: false) === channel)
            #expect(!channel.shouldObservePresence)
        }

        @Test func presenceCompanionExistsOnlyWhileTheFlagIsSet() throws {
            let channel = PNChannel.channelWithName("companion-a")
            channel.shouldObservePresence = false
            #expect(channel.presenceObserver() == nil)
            channel.shouldObservePresence = true
            let presence = try #require(channel.presenceObserver())
            #expect(presence.name == "companion-a-pnpres")
            #expect(presence === PNChannelPresence.presenceForChannel(channel))
            #expect(presence.observedChannel() === channel)
        }

        @Test func pnpresNamesGivePresenceChannels() {
            let presence = PNChannel.channelWithName("pres-a-pnpres")
            #expect(presence is PNChannelPresence)
            #expect(presence.isPresenceObserver())
            #expect(!PNChannel.channelWithName("pres-a").isPresenceObserver())
            #expect(PNChannelPresence.presenceForChannel(PNChannel.channelWithName("pres-a")) === presence)
        }

        @Test func cacheIsSafeUnderConcurrentLookups() {
            let found = Locked<[ObjectIdentifier]>([])
            DispatchQueue.concurrentPerform(iterations: 64) { _ in
                let channel = PNChannel.channelWithName("concurrent-a")
                found.withLock { $0.append(ObjectIdentifier(channel)) }
            }
            #expect(Set(found.current).count == 1)
        }
    }
}

/// Channel behaviour that does not depend on the cache.
@Suite struct PNChannelStateTests {
    @Test(arguments: ["", "a,b", "a/b", ",", "/"])
    func invalidNamesGiveARestrictedCharacterError(_ name: String) throws {
        let channel = PNChannel(name: name)
        let error = try #require(channel.validationError())
        #expect(error.code == kPNRestrictedCharacterInChannelNameError)
        #expect((error.associatedObject as? PNChannel) == channel)
        #expect(error.localizedDescription.contains("channel"))
    }

    @Test(arguments: ["a", "a b", "a-pnpres", "ünï©ødé", "@a", "a.b:c", "a%2Cb"])
    func otherNamesAreValid(_ name: String) {
        #expect(PNChannel(name: name).validationError() == nil)
    }

    @Test func startsEmpty() {
        let channel = PNChannel(name: "fresh")
        #expect(channel.updateTimeToken == "0")
        #expect(channel.participants.isEmpty)
        #expect(channel.participantsCount == 0)
        #expect(channel.presenceUpdateDate == nil)
        #expect(!channel.shouldObservePresence)
    }

    @Test func updateTimeTokenKeepsAllDigitsAndResets() {
        let channel = PNChannel(name: "tt")
        channel.setUpdateTimeToken(17_000_000_000_000_001)
        #expect(channel.updateTimeToken == "17000000000000001")
        channel.resetUpdateTimeToken()
        #expect(channel.updateTimeToken == "0")
    }

    @Test func presenceEventsMaintainParticipants() throws {
        let channel = PNChannel(name: "room")
        let start = Date()
        channel.updateWithEvent(
            PNPresenceEvent(response: ["action": "join", "uuid": "u1", "timestamp": 1, "occupancy": 1])
        )
        channel.updateWithEvent(
            PNPresenceEvent(response: ["action": "join", "uuid": "u2", "timestamp": 2, "occupancy": 2])
        )
        channel.updateWithEvent(
            PNPresenceEvent(response: ["action": "join", "uuid": "u2", "timestamp": 3, "occupancy": 2])
        )
        #expect(channel.participants == ["u1", "u2"])
        #expect(channel.participantsCount == 2)
        channel.updateWithEvent(
            PNPresenceEvent(response: ["action": "timeout", "uuid": "u1", "timestamp": 4, "occupancy": 1])
        )
        #expect(channel.participants == ["u2"])
        channel.updateWithEvent(
            PNPresenceEvent(response: ["action": "leave", "uuid": "u2", "timestamp": 5, "occupancy": 0])
        )
        #expect(channel.participants.isEmpty)
        #expect(channel.participantsCount == 0)
        let updated = try #require(channel.presenceUpdateDate)
        #expect(updated.date.timeIntervalSince1970 >= start.timeIntervalSince1970.rounded(.down))
    }

    @Test func hereNowReplacesParticipants() {
        let channel = PNChannel(name: "room")
        channel.updateWithEvent(
            PNPresenceEvent(response: ["action": "join", "uuid": "gone", "timestamp": 1, "occupancy": 1])
        )
        channel.updateWithParticipantsList(PNHereNow(participants: ["a", "b"], participantsCount: 2, channel: channel))
        #expect(channel.participants == ["a", "b"])
        #expect(channel.participantsCount == 2)
        #expect(channel.presenceUpdateDate != nil)
    }

    @Test func equalityAndHashingUseTheName() {
        #expect(PNChannel(name: "x") == PNChannel(name: "x"))
        #expect(PNChannel(name: "x") != PNChannel(name: "y"))
        #expect(Set([PNChannel(name: "x"), PNChannel(name: "x"), PNChannel(name: "y")]).count == 2)
    }

    @Test func descriptionNamesTypeAndChannel() {
        let description = PNChannel(name: "desc").description
        #expect(description.hasPrefix("PNChannel(0x"))
        #expect(description.hasSuffix(") desc"))
    }
}
