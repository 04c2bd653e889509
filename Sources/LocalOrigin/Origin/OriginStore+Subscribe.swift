// Building subscribe answers and waking parked polls (docs/PROTOCOL.md §2.3).

/// A message to deliver and the subscription it is delivered through.
struct Delivery {
    var message: StoredMessage
    /// The subscription that matched: the channel itself, a group or a wildcard.
    var match: String
    /// True when the request named the channel itself (and no wildcard matched it).
    var direct: Bool
}

extension OriginStore {
    /// The most messages one subscribe answer carries.
    static let subscribeBatchLimit = 100

    /// The region (`r`) this origin reports in v2 cursors; clients echo it back as `tr` and nothing else uses it.
    static let region = 1

    /// What a request naming `channels` and `groups` listens to. Channels named directly match themselves; the
    /// channels of group `g` match `g`; a group `g-pnpres` that is not itself a group stands for the presence channels
    /// of `g`'s channels (docs/PROTOCOL.md §2.11); a name `p.*` is also a wildcard for every channel starting with
    /// `p.` (docs/PROTOCOL.md §2.3.3). A channel named directly wins over a group.
    func resolveSubscription(channels: [String], groups: [String]) -> Subscription {
        var subscription = Subscription()
        for channel in channels {
            subscription.exact[channel] = channel
            subscription.direct.insert(channel)
            if Subscription.isWildcard(channel), !subscription.wildcards.contains(channel) {
                subscription.wildcards.append(channel)
            }
        }
        var named: Set<String> = []
        for group in groups where named.insert(group).inserted {
            if let members = self.groups[group] {
                for channel in members.names {
                    if subscription.exact[channel] == nil { subscription.exact[channel] = group }
                    subscription.groupCounts[channel, default: 0] += 1
                }
            } else if group.hasSuffix(OriginStore.presenceSuffix),
                let members = self.groups[String(group.dropLast(OriginStore.presenceSuffix.count))]
            {
                for channel in members.names {
                    let presence = channel + OriginStore.presenceSuffix
                    if subscription.exact[presence] == nil { subscription.exact[presence] = group }
                    subscription.groupCounts[presence, default: 0] += 1
                }
            }
        }
        subscription.namesSeveral = Set(channels).count + Set(groups).count > 1
        return subscription
    }

    /// Up to `subscribeBatchLimit` messages the subscription listens to with timetokens above `cursor`, oldest first,
    /// each with the subscription that matched it, and once per subscription that matches it (as the service
    /// delivers them). Wildcards look at every channel the origin keeps.
    func collect(_ subscription: Subscription, after cursor: UInt64) -> [Delivery] {
        var found: [Delivery] = []
        var sources = 0  // records that gave messages: one record's are in timetoken order already
        func gather(_ record: ChannelRecord) {
            guard let match = subscription.match(for: record.name) else { return }
            let copies = max(1, subscription.matchCount(for: record.name))
            let start = record.feed.firstIndex(after: cursor)
            let end = min(record.feed.count, start + OriginStore.subscribeBatchLimit)
            guard start < end else { return }
            sources += 1
            for index in start..<end {
                let delivery = Delivery(message: record.feed[index], match: match.name, direct: match.direct)
                if copies == 1 {
                    found.append(delivery)
                } else {
                    found += repeatElement(delivery, count: copies)
                }
            }
        }
        for channel in subscription.exact.keys {
            if let record = self.channels[channel] { gather(record) }
        }
        if !subscription.wildcards.isEmpty {
            for (channel, record) in self.channels where subscription.exact[channel] == nil { gather(record) }
        }
        if sources > 1 { found.sort { $0.message.timetoken < $1.message.timetoken } }
        if found.count > OriginStore.subscribeBatchLimit { found.removeSubrange(OriginStore.subscribeBatchLimit...) }
        return found
    }

    /// The subscribe answer carrying `items`; the cursor is `cursor` when given, else the last item's timetoken, or
    /// a fresh one when there are no items. `namesSeveral`: the request named more than one subscription.
    func subscribeReply(
        _ format: SubscribeFormat,
        subscribeKey: String,
        items: [Delivery],
        namesSeveral: Bool = false,
        cursor: UInt64? = nil
    ) -> OriginReply {
        let cursor = cursor ?? items.last?.message.timetoken ?? self.nextTimetoken()
        self.counters.deliveries += items.count
        switch format {
        case .v1:
            return OriginReply(status: 200, body: OriginStore.v1Body(items, cursor: cursor))
        case .v2:
            let body = OriginStore.v2Body(items, cursor: cursor, subscribeKey: subscribeKey, namesSeveral: namesSeveral)
            return OriginReply(status: 200, body: body)
        }
    }

    /// `[[payloads],"tt"]`, plus the per-message channel list when there are messages (3-element form), plus the
    /// per-message actual channels when any came through a group (4-element form, element 2 then lists matches).
    private static func v1Body(_ items: [Delivery], cursor: UInt64) -> JSONValue {
        var elements: [JSONValue] = [.array(items.map { .raw($0.message.payload) }), .string(String(cursor))]
        guard !items.isEmpty else { return .array(elements) }
        let channels = items.map(\.message.channel).joined(separator: ",")
        if items.contains(where: { $0.match != $0.message.channel }) {
            elements.append(.string(items.map(\.match).joined(separator: ",")))
        }
        elements.append(.string(channels))
        return .array(elements)
    }

    // MARK: - Parked polls

    /// Answers every parked poll waiting on `channel` (a message was just stored there).
    func wakePolls(watching channel: String) {
        for id in self.hub.ids(watching: channel) {
            guard let poll = self.hub.remove(id) else { continue }
            let items = self.collect(poll.subscription, after: poll.cursor)
            let reply = self.subscribeReply(
                poll.format,
                subscribeKey: poll.subscribeKey,
                items: items,
                namesSeveral: poll.subscription.namesSeveral
            )
            self.finish(poll, reply)
        }
    }

    /// Answers, empty with a fresh cursor, every parked poll whose deadline has passed at `uptime`.
    func expireDuePolls() {
        for id in self.hub.takeDue(at: self.uptime) {
            guard let poll = self.hub.remove(id) else { continue }
            self.counters.expiredPolls += 1
            self.finish(poll, self.subscribeReply(poll.format, subscribeKey: poll.subscribeKey, items: []))
        }
    }

    /// Forgets poll `id` because its connection closed: nothing is consumed; its uuid was alive until now.
    func dropPoll(_ id: Int) {
        guard let poll = self.hub.remove(id) else { return }
        self.refreshPresence(of: poll)
        self.counters.parkedPolls = self.hub.polls.count
        self.record(poll.exchange, status: 0)
    }

    /// Re-resolves the channels of parked polls that named `group`, after the group changed.
    func groupChanged(_ group: String) {
        for (id, poll) in self.hub.polls
        where poll.groups.contains(group) || poll.groups.contains(group + OriginStore.presenceSuffix) {
            let subscription = self.resolveSubscription(channels: poll.listedChannels, groups: poll.groups)
            self.hub.updateSubscription(of: id, to: subscription)
        }
    }

    private func finish(_ poll: ParkedPoll, _ reply: OriginReply) {
        self.refreshPresence(of: poll)
        self.counters.parkedPolls = self.hub.polls.count
        self.answer(poll.exchange, reply)
    }

    /// Marks the poll's uuid as seen now on the channels it keeps alive (a parked poll counts as alive).
    func refreshPresence(of poll: ParkedPoll) {
        guard let uuid = poll.uuid else { return }
        for channel in poll.presenceChannels {
            self.channels[channel]?.members[uuid]?.lastSeen = self.now
        }
    }
}
