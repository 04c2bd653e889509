// Parked subscribe long-polls. Delivery is stateless (docs/PROTOCOL.md §2.3.3): a poll only remembers its cursor, so
// dropping one (its connection closed) consumes nothing; the next poll with the same cursor gets the same messages.

/// Which answer shape a subscribe request wants.
enum SubscribeFormat: Sendable {
    /// `/subscribe/…`: `[[msgs],"tt"(,"matches")(,"channels")]`.
    case v1
    /// `/v2/subscribe/…`: `{"t":{…},"m":[…]}`.
    case v2
}

/// What one subscribe request listens to (docs/PROTOCOL.md §2.3.3): channels named directly or through a group, and
/// wildcard patterns `p.*` that match every channel whose name starts with `p.`.
struct Subscription: Sendable, Equatable {
    /// Channels to deliver from → the subscription that matched them (the channel itself, or a group).
    var exact: [String: String] = [:]
    /// The channels the request names itself.
    var direct: Set<String> = []
    /// How many of the named groups hold each channel (directly, or as `g-pnpres` for its presence channel).
    var groupCounts: [String: Int] = [:]
    /// Wildcard subscriptions as named (`a.*`, `a.b.*`).
    var wildcards: [String] = []
    /// True when the request names more than one subscription (channels and groups, each counted once): the service
    /// then names each message's match (`b`) even when it is the channel itself.
    var namesSeveral = false

    /// The subscription `channel`'s messages are delivered through, and whether the request named the channel
    /// itself; nil when the request does not listen to it. A wildcard wins: the service names `a.*` as the match of
    /// `a.*-pnpres` even when the request names that channel too (pubnub/ruby
    /// `fixtures/vcr_cassettes/examples/subscribe/*.yml`); then a channel named directly, then a group.
    func match(for channel: String) -> (name: String, direct: Bool)? {
        if let pattern = self.wildcards.first(where: { Subscription.wildcard($0, matches: channel) }) {
            return (pattern, false)
        }
        guard let match = self.exact[channel] else { return nil }
        return (match, self.direct.contains(channel))
    }

    /// How many of the request's subscriptions match `channel`: the service delivers a message once per matching
    /// subscription (pubnub/ruby `fixtures/vcr_cassettes/examples/subscribe/*.yml`: a channel named directly and
    /// through a group of the same name, or through a wildcard too, came twice, each copy naming the same match).
    func matchCount(for channel: String) -> Int {
        let wildcards = self.wildcards.count { Subscription.wildcard($0, matches: channel) }
        return (self.direct.contains(channel) ? 1 : 0) + (self.groupCounts[channel] ?? 0) + wildcards
    }

    /// True for names a wildcard subscription is spelled with: a prefix, then `.*`.
    static func isWildcard(_ name: String) -> Bool { name.count > 2 && name.hasSuffix(".*") }

    /// True when `channel` starts with the pattern's prefix (the pattern without its `*`).
    static func wildcard(_ pattern: String, matches channel: String) -> Bool {
        channel.hasPrefix(pattern.dropLast())
    }
}

/// A subscribe request waiting for a message.
struct ParkedPoll: Sendable {
    /// Who to answer.
    var exchange: Exchange
    /// The answer shape.
    var format: SubscribeFormat
    /// The subscribe key, echoed as `k` in v2 envelopes.
    var subscribeKey: String
    /// Channels named in the request (`-pnpres` ones included).
    var listedChannels: [String]
    /// Channel groups named in the request.
    var groups: [String]
    /// What the request listens to.
    var subscription: Subscription
    /// The subscriber's uuid, when given: its presence stays alive while the poll is parked.
    var uuid: String?
    /// Channels on which `uuid` is present through this poll.
    var presenceChannels: [String]
    /// Deliver messages with timetokens greater than this.
    var cursor: UInt64
    /// Monotonic time (ns) after which the poll is answered empty.
    var deadline: UInt64
}

/// The parked polls, indexed by the channels they wait on and queued by deadline.
struct SubscribeHub: Sendable {
    private(set) var polls: [Int: ParkedPoll] = [:]
    private var byChannel: [String: Set<Int>] = [:]
    /// Polls with wildcard subscriptions, by pattern.
    private var byWildcard: [String: Set<Int>] = [:]
    // Deadlines grow with parking order (one timeout for all polls), so a FIFO queue is sorted by deadline.
    // Answered polls stay in it until their deadline passes and are skipped then.
    private var expiryQueue: [(id: Int, deadline: UInt64)] = []
    private var expiryHead = 0
    private var nextID = 1

    /// Parks `poll`; returns its id.
    mutating func park(_ poll: ParkedPoll) -> Int {
        let id = self.nextID
        self.nextID += 1
        self.polls[id] = poll
        self.index(id, poll.subscription)
        self.expiryQueue.append((id, poll.deadline))
        return id
    }

    /// Removes and returns poll `id`; `nil` when it was already answered or dropped.
    mutating func remove(_ id: Int) -> ParkedPoll? {
        guard let poll = self.polls.removeValue(forKey: id) else { return nil }
        self.unindex(id, poll.subscription)
        return poll
    }

    /// Ids of the polls that wait on `channel`, named or through a wildcard.
    func ids(watching channel: String) -> [Int] {
        var ids = self.byChannel[channel] ?? []
        for (pattern, polls) in self.byWildcard where Subscription.wildcard(pattern, matches: channel) {
            ids.formUnion(polls)
        }
        return ids.sorted()
    }

    /// Replaces what poll `id` waits on (after a channel group it named changed).
    mutating func updateSubscription(of id: Int, to subscription: Subscription) {
        guard let old = self.polls[id] else { return }
        self.unindex(id, old.subscription)
        self.polls[id]?.subscription = subscription
        self.index(id, subscription)
    }

    /// Removes and returns the ids of parked polls whose deadline is at or before `uptime`, oldest first.
    mutating func takeDue(at uptime: UInt64) -> [Int] {
        var due: [Int] = []
        while self.expiryHead < self.expiryQueue.count, self.expiryQueue[self.expiryHead].deadline <= uptime {
            let id = self.expiryQueue[self.expiryHead].id
            self.expiryHead += 1
            if self.polls[id] != nil { due.append(id) }
        }
        if self.expiryHead > 1_024, self.expiryHead * 2 > self.expiryQueue.count {
            self.expiryQueue.removeFirst(self.expiryHead)
            self.expiryHead = 0
        }
        return due
    }

    /// The earliest deadline of a poll still parked, skipping answered ones.
    mutating func nextDeadline() -> UInt64? {
        while self.expiryHead < self.expiryQueue.count {
            let entry = self.expiryQueue[self.expiryHead]
            if self.polls[entry.id] != nil { return entry.deadline }
            self.expiryHead += 1
        }
        return nil
    }

    private mutating func index(_ id: Int, _ subscription: Subscription) {
        for channel in subscription.exact.keys { self.byChannel[channel, default: []].insert(id) }
        for pattern in subscription.wildcards { self.byWildcard[pattern, default: []].insert(id) }
    }

    private mutating func unindex(_ id: Int, _ subscription: Subscription) {
        for channel in subscription.exact.keys {
            self.byChannel[channel]?.remove(id)
            if self.byChannel[channel]?.isEmpty == true { self.byChannel[channel] = nil }
        }
        for pattern in subscription.wildcards {
            self.byWildcard[pattern]?.remove(id)
            if self.byWildcard[pattern]?.isEmpty == true { self.byWildcard[pattern] = nil }
        }
    }
}
