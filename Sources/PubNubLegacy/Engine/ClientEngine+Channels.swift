import Foundation

// The channel objects the engine names in its events: the ones the app subscribed with, else the cached ones
// (docs/DESIGN.md §3), and the regular (non-`-pnpres`) channels of a subscription.

extension ClientEngine {
    /// The regular (non-`-pnpres`) channels among `names`, as channel objects.
    static func regularChannels(_ names: [String]) -> [PNChannel] {
        PNChannel.channelsWithNames(Self.regularNames(names))
    }

    /// The object for channel `name`: the one the app subscribed with, else the cached one.
    func channelObject(named name: String) -> PNChannel {
        self.channelObjects[name] ?? PNChannel.channelWithName(name)
    }

    /// Remembers the objects the app passed for later events.
    func remember(_ channels: [PNChannel]) {
        for channel in channels {
            self.channelObjects[channel.name] = channel
        }
    }

    /// The regular (non-`-pnpres`) names among `names`.
    static func regularNames(_ names: [String]) -> [String] {
        names.filter { !PNChannelPresence.isPresenceObservingChannelName($0) }
    }
}
