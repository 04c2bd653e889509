// The `/v2/presence/{sub-key|sub_key}/{sub}/…` requests (docs/PROTOCOL.md §2.5–2.9): here-now, where-now, leave,
// heartbeat, state get/set.

extension OriginStore {
    func presence(_ target: RequestTarget, _ exchange: Exchange) {
        let segments = target.segments
        guard let subscribeKey = self.subscribeKey(target, keywordAt: 2) else {
            return self.answer(exchange, .notFound)
        }
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        if segments.count == 4 {
            return self.hereNowGlobal(target, exchange)
        }
        if segments.count == 6, segments[4] == "uuid" {
            return self.whereNow(uuid: RequestTarget.decode(segments[5]), exchange)
        }
        guard segments.count >= 6, segments[4] == "channel" else { return self.answer(exchange, .notFound) }
        // `.` stands for "no channel" in 3.7's state requests, `,` (two empty names) in group-only requests.
        let channels = RequestTarget.list(segments[5]).filter { $0 != "." }
        let groups = target.listParameter("channel-group")
        guard !channels.isEmpty || !groups.isEmpty else {
            return self.answer(exchange, .presenceError(400, "Invalid Channel"))
        }
        switch (segments.count, segments.count > 6 ? segments[6] : "") {
        case (6, _):
            self.hereNow(channels: channels, groups: groups, target, exchange)
        case (7, "leave"):
            if let uuid = OriginStore.uuid(target) {
                self.leavePresence(uuid: uuid, channels: self.presenceChannels(channels: channels, groups: groups))
            }
            self.answer(exchange, .presenceOK([JSONMember(key: "action", value: .string("leave"))]))
        case (7, "heartbeat"):
            if let uuid = OriginStore.uuid(target) {
                self.touchPresence(
                    uuid: uuid,
                    channels: self.presenceChannels(channels: channels, groups: groups),
                    timeout: OriginStore.presenceTimeout(target.parameter("heartbeat")),
                    states: OriginStore.statesByChannel(target.parameter("state"))
                )
            }
            self.answer(exchange, .presenceOK())
        case (8, "uuid"):
            self.getState(uuid: RequestTarget.decode(segments[7]), channels: channels, groups: groups, exchange)
        case (9, "uuid") where segments[8] == "data":
            self.setState(uuid: RequestTarget.decode(segments[7]), channels: channels, groups: groups, target, exchange)
        default:
            self.answer(exchange, .notFound)
        }
    }

    private static func uuid(_ target: RequestTarget) -> String? {
        target.parameter("uuid").flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: - Here now

    /// Exactly one channel and no group: the single form with top-level `uuids` and `occupancy` (3.4.2 needs it).
    /// Otherwise the `payload` form listing the occupied channels among those asked.
    private func hereNow(channels: [String], groups: [String], _ target: RequestTarget, _ exchange: Exchange) {
        let options = HereNowOptions(target)
        if channels.count == 1, target.parameter("channel-group") == nil {
            let record = self.record(channels[0])
            let members = record.map { self.hereNowMembers($0, options) } ?? []
            return self.answer(exchange, .presenceOK(members.isEmpty ? self.emptyHereNow(options) : members))
        }
        let names = self.presenceChannels(channels: channels, groups: groups)
        self.answer(exchange, self.hereNowPayload(names, options))
    }

    private func hereNowGlobal(_ target: RequestTarget, _ exchange: Exchange) {
        self.answer(exchange, self.hereNowPayload(self.channelsWithMembers.sorted(), HereNowOptions(target)))
    }

    private struct HereNowOptions {
        var includeUUIDs: Bool
        var includeState: Bool

        init(_ target: RequestTarget) {
            self.includeUUIDs = !OriginStore.flag(target.parameter("disable_uuids"))
            self.includeState = OriginStore.flag(target.parameter("state"))
        }
    }

    private func emptyHereNow(_ options: HereNowOptions) -> [JSONMember] {
        var members = [JSONMember(key: "occupancy", value: .int(0))]
        if options.includeUUIDs { members.insert(JSONMember(key: "uuids", value: .array([])), at: 0) }
        return members
    }

    /// `"uuids": [...]` (unless disabled; with states when asked) and `"occupancy": n`; empty when nobody is there.
    private func hereNowMembers(_ record: ChannelRecord, _ options: HereNowOptions) -> [JSONMember] {
        guard !record.members.isEmpty else { return [] }
        var members: [JSONMember] = []
        if options.includeUUIDs {
            let uuids: [JSONValue] = record.sortedMembers.map { uuid in
                guard options.includeState else { return .string(uuid) }
                var entry = [JSONMember(key: "uuid", value: .string(uuid))]
                if let state = record.states[uuid] { entry.append(JSONMember(key: "state", value: state)) }
                return .object(entry)
            }
            members.append(JSONMember(key: "uuids", value: .array(uuids)))
        }
        members.append(JSONMember(key: "occupancy", value: .int(record.members.count)))
        return members
    }

    private func hereNowPayload(_ names: [String], _ options: HereNowOptions) -> OriginReply {
        var channels: [JSONMember] = []
        var total = 0
        for name in names {
            guard let record = self.record(name), !record.members.isEmpty else { continue }
            channels.append(JSONMember(key: name, value: .object(self.hereNowMembers(record, options))))
            total += record.members.count
        }
        let payload: JSONValue = .object([
            "channels": .object(channels), "total_channels": .int(channels.count), "total_occupancy": .int(total),
        ])
        return .presenceOK([JSONMember(key: "payload", value: payload)])
    }

    // MARK: - Where now

    private func whereNow(uuid: String, _ exchange: Exchange) {
        let channels = self.channelsWithMembers.filter { self.channels[$0]?.members[uuid] != nil }.sorted()
        let payload: JSONValue = .object(["channels": .array(channels.map { .string($0) })])
        self.answer(exchange, .presenceOK([JSONMember(key: "payload", value: payload)]))
    }

    // MARK: - State

    private func getState(uuid: String, channels: [String], groups: [String], _ exchange: Exchange) {
        if channels.count == 1, groups.isEmpty {
            let state = self.record(channels[0])?.states[uuid] ?? .object([])
            return self.answer(
                exchange,
                .presenceOK([
                    JSONMember(key: "uuid", value: .string(uuid)),
                    JSONMember(key: "channel", value: .string(channels[0])),
                    JSONMember(key: "payload", value: state),
                ])
            )
        }
        var states: [JSONMember] = []
        for name in self.presenceChannels(channels: channels, groups: groups) {
            if let state = self.record(name)?.states[uuid] { states.append(JSONMember(key: name, value: state)) }
        }
        self.answer(
            exchange,
            .presenceOK([
                JSONMember(key: "uuid", value: .string(uuid)),
                JSONMember(key: "payload", value: .object(["channels": .object(states)])),
            ])
        )
    }

    private func setState(
        uuid: String,
        channels: [String],
        groups: [String],
        _ target: RequestTarget,
        _ exchange: Exchange
    ) {
        guard let text = target.parameter("state"), !text.isEmpty else {
            return self.answer(exchange, .presenceError(400, "No state specified."))
        }
        guard let state = try? JSONParser.parse(text), state.objectMembers != nil else {
            return self.answer(exchange, .presenceError(400, "Invalid JSON specified."))
        }
        self.setState(uuid: uuid, channels: self.presenceChannels(channels: channels, groups: groups), state: state)
        self.answer(exchange, .presenceOK([JSONMember(key: "payload", value: state)]))
    }
}
