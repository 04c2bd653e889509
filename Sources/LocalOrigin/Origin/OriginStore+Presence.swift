// Presence (docs/PROTOCOL.md §2.4–2.9): who is on which channel, their state, and the events published on
// `{ch}-pnpres`. Presence is never tracked on `-pnpres` names themselves (EDGE CASE 8).

extension OriginStore {
    /// The suffix of presence channels and presence channel groups.
    static let presenceSuffix = "-pnpres"

    /// True for `{ch}-pnpres` names, on which presence is never tracked.
    static func isPresenceName(_ name: String) -> Bool { name.hasSuffix(OriginStore.presenceSuffix) }

    /// The channels a presence request covers: the named channels and the channels of the named groups, without
    /// `-pnpres` names, without duplicates, in order.
    func presenceChannels(channels: [String], groups: [String]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        let fromGroups = groups.filter { !OriginStore.isPresenceName($0) }.flatMap { self.groups[$0]?.names ?? [] }
        for channel in channels + fromGroups where !OriginStore.isPresenceName(channel) {
            if seen.insert(channel).inserted { result.append(channel) }
        }
        return result
    }

    /// Joins `uuid` to `channels` or refreshes it there (subscribe, heartbeat): a `join` event for each channel it
    /// was not on. `timeout` replaces the uuid's presence timeout when given. `states` (channel → object) replace the
    /// uuid's state on those channels; a changed state of an already present uuid publishes `state-change`.
    func touchPresence(uuid: String, channels: [String], timeout: Double?, states: [String: JSONValue] = [:]) {
        for channel in channels where !OriginStore.isPresenceName(channel) {
            let record = self.recordCreating(channel)
            let stateChanged = states[channel].map { self.replaceState(of: uuid, in: record, with: $0) } ?? false
            if var member = record.members[uuid] {
                member.lastSeen = self.now
                if let timeout { member.timeout = timeout }
                record.members[uuid] = member
                if stateChanged { self.emitPresence(on: record, action: "state-change", uuid: uuid) }
            } else {
                record.members[uuid] = PresenceMember(
                    lastSeen: self.now,
                    timeout: timeout ?? self.settings.defaultPresenceTimeout
                )
                self.channelsWithMembers.insert(channel)
                self.announce(on: record, action: "join", uuid: uuid, occupancyBefore: record.members.count - 1)
            }
        }
    }

    /// Removes `uuid` from `channels` (leave request): a `leave` event where it was present; its state is cleared.
    func leavePresence(uuid: String, channels: [String]) {
        for channel in channels where !OriginStore.isPresenceName(channel) {
            guard let record = self.record(channel), record.members[uuid] != nil else { continue }
            self.removeMember(uuid, from: record, action: "leave")
        }
    }

    /// Times out every uuid whose last subscribe or heartbeat is older than its timeout; uuids with a parked poll on
    /// a channel count as seen now.
    func sweepPresence() {
        for poll in self.hub.polls.values { self.refreshPresence(of: poll) }
        for channel in self.channelsWithMembers.sorted() {
            guard let record = self.channels[channel] else {
                self.channelsWithMembers.remove(channel)
                continue
            }
            let expired = record.members.filter { self.now - $0.value.lastSeen > $0.value.timeout }.keys.sorted()
            for uuid in expired { self.removeMember(uuid, from: record, action: "timeout") }
        }
        self.announceIntervals()
    }

    /// Sets `uuid`'s state on `channels` (set-state request); present uuids whose state changed publish
    /// `state-change`.
    func setState(uuid: String, channels: [String], state: JSONValue) {
        for channel in channels where !OriginStore.isPresenceName(channel) {
            let record = self.recordCreating(channel)
            if self.replaceState(of: uuid, in: record, with: state), record.members[uuid] != nil {
                self.emitPresence(on: record, action: "state-change", uuid: uuid)
            }
        }
    }

    /// Stores `state` (an object; members with `null` values are dropped, an empty object clears the state).
    /// Returns true when the stored state changed.
    private func replaceState(of uuid: String, in record: ChannelRecord, with state: JSONValue) -> Bool {
        let kept = (state.objectMembers ?? []).filter { $0.value != .null }
        let new: JSONValue? = kept.isEmpty ? nil : .object(kept)
        guard record.states[uuid] != new else { return false }
        record.states[uuid] = new
        return true
    }

    private func removeMember(_ uuid: String, from record: ChannelRecord, action: String) {
        record.members[uuid] = nil
        record.states[uuid] = nil
        if record.members.isEmpty { self.channelsWithMembers.remove(record.name) }
        self.announce(on: record, action: action, uuid: uuid, occupancyBefore: record.members.count + 1)
    }

    /// Publishes `{"action","timestamp","uuid","occupancy"[,"data"]}` on `{ch}-pnpres`: occupancy after the change,
    /// timestamp in whole Unix seconds (EDGE CASE 8), `data` the uuid's state when it has one.
    func emitPresence(on record: ChannelRecord, action: String, uuid: String) {
        var members: [JSONMember] = [
            JSONMember(key: "action", value: .string(action)),
            JSONMember(key: "timestamp", value: .int(Int(self.now.rounded(.down)))),
            JSONMember(key: "uuid", value: .string(uuid)),
            JSONMember(key: "occupancy", value: .int(record.members.count)),
        ]
        if let state = record.states[uuid] { members.append(JSONMember(key: "data", value: state)) }
        self.publishPresence(on: record, members)
    }

    /// Publishes the presence event `members` on `record`'s presence channel (never stored in history).
    func publishPresence(on record: ChannelRecord, _ members: [JSONMember]) {
        self.counters.presenceEvents += 1
        self.append(
            channel: record.name + OriginStore.presenceSuffix,
            payload: JSONValue.object(members).serialized,
            publisher: nil,
            meta: nil,
            store: false
        )
    }
}
