/// The `-pnpres` companion of a channel, on which the origin delivers that channel's presence events
/// (3.4's `PNChannelPresence`, docs/API-3.4.md §2.8). Cached with the channels, by its full name.
public final class PNChannelPresence: PNChannel, @unchecked Sendable {
    // @unchecked: adds no stored state to `PNChannel`, whose state is behind its lock box.

    /// The suffix that turns a channel name into its presence channel name.
    static let presenceSuffix = "-pnpres"

    /// 3.4's `+presenceForChannel:`: the cached presence channel of `channel` (named `<name>-pnpres`; a channel
    /// that already is a presence channel gives itself, the suffix is never doubled).
    public static func presenceForChannel(_ channel: PNChannel) -> PNChannelPresence {
        self.presenceForChannelWithName(channel.name)
    }

    /// 3.4's protected `+presenceForChannelWithName:`: the cached presence channel for a regular or a presence
    /// channel name.
    public static func presenceForChannelWithName(_ channelName: String) -> PNChannelPresence {
        let name =
            self.isPresenceObservingChannelName(channelName) ? channelName : channelName + self.presenceSuffix
        guard let presence = PNChannel.cachedChannel(named: name) as? PNChannelPresence else {
            preconditionFailure("the channel cache stores every -pnpres name as a PNChannelPresence")
        }
        return presence
    }

    /// 3.4's protected `+isPresenceObservingChannelName:`: whether `channelName` names a presence channel (ends in
    /// `-pnpres`).
    public static func isPresenceObservingChannelName(_ channelName: String) -> Bool {
        channelName.hasSuffix(self.presenceSuffix) && channelName.count > self.presenceSuffix.count
    }

    /// 3.4's protected `-observedChannel`: the channel whose presence this channel carries (its name without
    /// `-pnpres`).
    public func observedChannel() -> PNChannel {
        PNChannel.channelWithName(String(self.name.dropLast(PNChannelPresence.presenceSuffix.count)))
    }

    /// Always true: this is a `-pnpres` channel.
    public override func isPresenceObserver() -> Bool {
        true
    }
}
