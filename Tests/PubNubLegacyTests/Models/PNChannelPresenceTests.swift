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
    }
}
