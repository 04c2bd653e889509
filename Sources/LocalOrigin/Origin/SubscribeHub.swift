// Parked subscribe long-polls. Delivery is stateless (docs/PROTOCOL.md §2.3.3): a poll only remembers its cursor, so
// dropping one (its connection closed) consumes nothing; the next poll with the same cursor gets the same messages.

/// Which answer shape a subscribe request wants.
enum SubscribeFormat: Sendable {
    /// `/subscribe/…`: `[[msgs],"tt"(,"matches")(,"channels")]`.
    case v1
    /// `/v2/subscribe/…`: `{"t":{…},"m":[…]}`.
    case v2
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
    /// Channels to deliver from → the subscription that matched them (the channel itself or a group).
    var matches: [String: String]
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
        self.index(id, poll.matches.keys)
        self.expiryQueue.append((id, poll.deadline))
        return id
    }

    /// Removes and returns poll `id`; `nil` when it was already answered or dropped.
    mutating func remove(_ id: Int) -> ParkedPoll? {
        guard let poll = self.polls.removeValue(forKey: id) else { return nil }
        self.unindex(id, poll.matches.keys)
        return poll
    }

    /// Ids of the polls that wait on `channel`.
    func ids(watching channel: String) -> [Int] {
        self.byChannel[channel].map { Array($0).sorted() } ?? []
    }

    /// Replaces the channels poll `id` waits on (after a channel group it named changed).
    mutating func updateMatches(of id: Int, to matches: [String: String]) {
        guard let old = self.polls[id] else { return }
        self.unindex(id, old.matches.keys)
        self.polls[id]?.matches = matches
        self.index(id, matches.keys)
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

    private mutating func index(_ id: Int, _ channels: Dictionary<String, String>.Keys) {
        for channel in channels { self.byChannel[channel, default: []].insert(id) }
    }

    private mutating func unindex(_ id: Int, _ channels: Dictionary<String, String>.Keys) {
        for channel in channels {
            self.byChannel[channel]?.remove(id)
            if self.byChannel[channel]?.isEmpty == true { self.byChannel[channel] = nil }
        }
    }
}
