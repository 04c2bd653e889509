import Foundation
import Testing

@testable import PubNubLegacy

extension ChannelCacheTests {
    @Suite struct PNChannelPresenceTests {
        @Test func presenceChannelNameHasTheSuffixOnce() {
            let presence = PNChannelPresence.presenceForChannel(PNChannel.channelWithName("suffix-a"))
            #expect(presence.name == "suffix-a-pnpres")
            #expect(PNChannelPresence.presenceForChannel(presence) === presence)
            #expect(PNChannelPresence.presenceForChannel(presence).name == "suffix-a-pnpres")
        }

        @Test func presenceChannelsAreCachedWithTheChannels() {
            let presence = PNChannelPresence.presenceForChannel(PNChannel.channelWithName("shared-a"))
            #expect(PNChannel.channelWithName("shared-a-pnpres") === presence)
            #expect(PNChannel.channelsWithNames(["shared-a-pnpres"])[0] === presence)
        }

        @Test func observedChannelDropsTheSuffix() {
            let presence = PNChannelPresence.presenceForChannelWithName("observed-a")
            #expect(presence.observedChannel().name == "observed-a")
            #expect(!presence.observedChannel().isPresenceObserver())
        }

        @Test func onlyNamesEndingInTheSuffixArePresenceNames() {
            #expect(PNChannelPresence.isPresenceObservingChannelName("a-pnpres"))
            #expect(!PNChannelPresence.isPresenceObservingChannelName("a-pnpres-x"))
            #expect(!PNChannelPresence.isPresenceObservingChannelName("a"))
            #expect(!PNChannelPresence.isPresenceObservingChannelName("-pnpres"))
        }

        /// 3.4's `PNChannel+Protected.h` and `PNChannelPresence+Protected.h` members that apps imported (issue 13,
        /// item 9) are public under their 3.4 names. Under `ChannelCacheTests`: it compares instances the process-wide
        /// cache hands out, which a shared client's disconnect purges.
        @Test func protectedChannelMembersArePublic() {
            let name = "protected-\(UUID().uuidString.prefix(8))"
            let observed = PNChannel.channelWithName(name, shouldObservePresence: true)
            #expect(observed.shouldObservePresence)
            #expect(!observed.isUserDefinedPresenceObservation)
            #expect(!observed.isPresenceObserver())
            let presence = observed.presenceObserver()
            #expect(presence?.name == name + "-pnpres")
            #expect(presence?.isPresenceObserver() == true)
            #expect(presence?.observedChannel() == observed)
            #expect(PNChannelPresence.presenceForChannelWithName(name) === presence)
            #expect(PNChannelPresence.isPresenceObservingChannelName(name + "-pnpres"))
            #expect(!PNChannelPresence.isPresenceObservingChannelName(name))
            let unobserved = PNChannel.channelWithName(name, shouldObservePresence: false)
            #expect(unobserved === observed)
            #expect(unobserved.presenceObserver() == nil)
        }
    }
}
