// Everything the origin keeps about one channel. Records live in `OriginStore.channels`; the `older`/`newer` links
// form its least-recently-used list. Both links are weak: the dictionary owns the records, and a chain of strong
// links through 100,000 records would be released recursively.

/// One uuid present on a channel.
struct PresenceMember: Sendable {
    /// The last time (Unix seconds, origin clock) a subscribe or heartbeat of this uuid touched the channel.
    var lastSeen: Double
    /// Seconds without a subscribe or heartbeat after which the uuid times out.
    var timeout: Double
}

/// Messages, presence and state of one channel. Used only while holding the origin's lock.
final class ChannelRecord {
    /// The channel name (decoded).
    let name: String
    /// Every message published on the channel, `store=0` ones and presence events included: what subscribe delivers.
    var feed: MessageRing
    /// Messages stored for history (`store` not `0`).
    var history: MessageRing
    /// Present uuids.
    var members: [String: PresenceMember] = [:]
    /// Presence state per uuid (JSON objects).
    var states: [String: JSONValue] = [:]
    /// Joins, leaves and timeouts not announced yet because the channel is in interval mode.
    var deltas = PresenceDeltas()
    /// When the channel switched to interval mode or last announced an `interval` event; nil in announce mode.
    var intervalSince: Double?
    /// The next record towards the least recently used end.
    weak var older: ChannelRecord?
    /// The next record towards the most recently used end.
    weak var newer: ChannelRecord?

    init(name: String, capacity: Int) {
        self.name = name
        self.feed = MessageRing(capacity: capacity)
        self.history = MessageRing(capacity: capacity)
    }

    /// Present uuids, sorted so answers are deterministic.
    var sortedMembers: [String] { self.members.keys.sorted() }
}

/// An ordered set of names (channels of a group, channels of a push device): insertion order, no duplicates.
struct OrderedNames: Sendable, Equatable {
    /// The names in the order they were first added.
    private(set) var names: [String] = []
    private var set: Set<String> = []

    /// The number of names.
    var count: Int { self.names.count }

    /// True when `name` is in the set.
    func contains(_ name: String) -> Bool { self.set.contains(name) }

    /// Adds `name` at the end unless present.
    mutating func insert(_ name: String) {
        if self.set.insert(name).inserted { self.names.append(name) }
    }

    /// Removes `name` when present.
    mutating func remove(_ name: String) {
        if self.set.remove(name) != nil { self.names.removeAll { $0 == name } }
    }
}

/// The uuids that joined, left or timed out since a channel's last `interval` event, each list in order of arrival.
struct PresenceDeltas: Sendable {
    var join = OrderedNames()
    var leave = OrderedNames()
    var timeout = OrderedNames()

    /// Records `uuid` under `action` (`join`, `leave` or `timeout`; other actions are announced one by one).
    mutating func add(_ action: String, _ uuid: String) {
        switch action {
        case "join": self.join.insert(uuid)
        case "leave": self.leave.insert(uuid)
        case "timeout": self.timeout.insert(uuid)
        default: break
        }
    }
}
