// Presence interval mode (docs/PROTOCOL.md §2.4): while a channel holds more uuids than the announce limit, the
// service stops publishing one `join`/`leave`/`timeout` event per change and publishes an `interval` event every
// `presenceInterval` seconds instead — the occupancy, and the uuids that joined, left or timed out since the last one
// (the "presence deltas"), or `here_now_refresh` when those lists would not fit in a message. Recorded by pubnub/ruby
// `fixtures/vcr_cassettes/lib/events/presence_delta.yml` (events 10 s apart, `join` and `leave` lists, none when
// nothing changed). `state-change` events are still published one by one.

extension OriginStore {
    /// Publishes `action` for `uuid` on `record`'s presence channel, or, when the occupancy before or after the change
    /// is above the announce limit, keeps it for the next `interval` event (switching the channel to interval mode).
    func announce(on record: ChannelRecord, action: String, uuid: String, occupancyBefore: Int) {
        guard max(occupancyBefore, record.members.count) > self.settings.presenceAnnounceMax else {
            return self.emitPresence(on: record, action: action, uuid: uuid)
        }
        if record.intervalSince == nil {
            record.intervalSince = self.now
            self.intervalChannels.insert(record.name)
        }
        record.deltas.add(action, uuid)
    }

    /// Publishes the `interval` event of every channel in interval mode whose interval has passed; a channel back at
    /// or below the announce limit returns to announce mode after this last one.
    func announceIntervals() {
        for name in self.intervalChannels.sorted() {
            guard let record = self.channels[name], let since = record.intervalSince else {
                self.intervalChannels.remove(name)
                continue
            }
            guard self.now - since >= self.settings.presenceInterval else { continue }
            self.emitInterval(on: record)
            if record.members.count > self.settings.presenceAnnounceMax {
                record.intervalSince = self.now
            } else {
                record.intervalSince = nil
                self.intervalChannels.remove(name)
            }
        }
    }

    /// The largest delta lists an `interval` event carries (serialized); past it the event says `here_now_refresh`.
    static let maximumDeltaBytes = 32_768

    /// `{"action":"interval","timestamp":…,"occupancy":…[,"join":[…]][,"leave":[…]][,"timeout":[…]]}` on `{ch}-pnpres`,
    /// or with `"here_now_refresh":true` instead of the lists when they are too long; the deltas are cleared.
    private func emitInterval(on record: ChannelRecord) {
        var members: [JSONMember] = [
            JSONMember(key: "action", value: .string("interval")),
            JSONMember(key: "timestamp", value: .int(Int(self.now.rounded(.down)))),
            JSONMember(key: "occupancy", value: .int(record.members.count)),
        ]
        var lists: [JSONMember] = []
        for (key, names) in [
            ("join", record.deltas.join), ("leave", record.deltas.leave), ("timeout", record.deltas.timeout),
        ]
        where names.count > 0 {
            lists.append(JSONMember(key: key, value: .array(names.names.map { .string($0) })))
        }
        record.deltas = PresenceDeltas()
        if JSONValue.object(lists).serializedBytes.count > OriginStore.maximumDeltaBytes {
            members.append(JSONMember(key: "here_now_refresh", value: .bool(true)))
        } else {
            members += lists
        }
        self.publishPresence(on: record, members)
    }
}
