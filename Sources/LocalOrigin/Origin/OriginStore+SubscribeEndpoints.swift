// The subscribe requests (docs/PROTOCOL.md §2.3): v1 `/subscribe/{sub}/{chs}/{cb}/{tt}` (3.x clients; 3.3 adds a
// trailing `/`) and v2 `/v2/subscribe/{sub}/{chs}/{cb}?tt=&tr=` (current SDKs).

extension OriginStore {
    func subscribeV1(_ target: RequestTarget, _ exchange: Exchange) {
        var segments = target.segments
        if segments.count == 6, segments[5].isEmpty { segments.removeLast() }
        guard segments.count == 5 else {
            self.answer(exchange, .notFound)
            return
        }
        self.subscribe(
            .v1,
            target,
            exchange,
            subscribeKey: RequestTarget.decode(segments[1]),
            channelList: segments[2],
            timetoken: RequestTarget.decode(segments[4])
        )
    }

    func subscribeV2(_ target: RequestTarget, _ exchange: Exchange) {
        guard target.segments.count == 5 else {
            self.answer(exchange, .notFound)
            return
        }
        if let region = target.parameter("tr"), !region.isEmpty, Int(region) == nil {
            self.answer(exchange, .error(400, "Invalid Region", service: "Balancer"))
            return
        }
        guard let timetoken = OriginStore.cursor(target) else {
            return self.answer(exchange, .error(400, "Invalid Timetoken", service: "Balancer"))
        }
        self.subscribe(
            .v2,
            target,
            exchange,
            subscribeKey: RequestTarget.decode(target.segments[2]),
            channelList: target.segments[3],
            timetoken: timetoken
        )
    }

    /// The cursor of a v2 subscribe: `tt` (with `tr`), or the JSON form `t={"r":R,"t":T}` the Ruby SDK sends (`T` a
    /// number or a string; docs/PROTOCOL.md §2.3.2), or `0` when there is neither. Nil when `t` is not such an object.
    static func cursor(_ target: RequestTarget) -> String? {
        if let tt = target.parameter("tt"), !tt.isEmpty { return tt }
        guard let text = target.parameter("t"), !text.isEmpty else { return "0" }
        guard let members = (try? JSONParser.parse(text))?.objectMembers,
            let token = members.first(where: { $0.key == "t" })?.value
        else { return nil }
        switch token {
        case .string(let digits), .number(let digits): return digits
        default: return nil
        }
    }

    /// `tt=0`: answer at once with a fresh cursor (no replay). Otherwise deliver what is newer than `tt`, or park
    /// until something is stored or the long-poll timeout passes. Every subscribe with a `uuid` joins or refreshes
    /// that uuid's presence on the non-`-pnpres` channels (and the channels of the named groups).
    private func subscribe(
        _ format: SubscribeFormat,
        _ target: RequestTarget,
        _ exchange: Exchange,
        subscribeKey: String,
        channelList: Substring,
        timetoken: String
    ) {
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        guard let cursor = UInt64(timetoken) else {
            return self.answer(exchange, .error(400, "Invalid Timetoken", service: "Balancer"))
        }
        let channels = RequestTarget.list(channelList)
        let groups = target.listParameter("channel-group")
        guard !channels.isEmpty || !groups.isEmpty else {
            return self.answer(exchange, .error(400, "Invalid Channel", service: "Balancer"))
        }
        let uuid = target.parameter("uuid").flatMap { $0.isEmpty ? nil : $0 }
        let presenceChannels = self.presenceChannels(channels: channels, groups: groups)
        let subscription = self.resolveSubscription(channels: channels, groups: groups)

        if cursor == 0 {
            // The cursor is taken before the join events, so the subscriber's next poll delivers its own join.
            let fresh = self.nextTimetoken()
            self.touch(uuid, presenceChannels, target)
            let reply = self.subscribeReply(format, subscribeKey: subscribeKey, items: [], cursor: fresh)
            return self.answer(exchange, reply)
        }
        self.touch(uuid, presenceChannels, target)
        let items = self.collect(subscription, after: cursor)
        guard items.isEmpty else {
            let reply = self.subscribeReply(
                format,
                subscribeKey: subscribeKey,
                items: items,
                namesSeveral: subscription.namesSeveral
            )
            return self.answer(exchange, reply)
        }
        let timeout = UInt64(max(0, self.settings.longPollTimeout) * 1e9)
        let poll = ParkedPoll(
            exchange: exchange,
            format: format,
            subscribeKey: subscribeKey,
            listedChannels: channels,
            groups: groups,
            subscription: subscription,
            uuid: uuid,
            presenceChannels: uuid == nil ? [] : presenceChannels,
            cursor: cursor,
            deadline: self.uptime &+ timeout
        )
        let id = self.hub.park(poll)
        self.counters.parkedPolls = self.hub.polls.count
        self.effects.parked.append((id, exchange.sink))
    }

    /// Joins or refreshes `uuid` with the request's `heartbeat=` timeout and `state=` (`{"ch":{…}}`).
    private func touch(_ uuid: String?, _ channels: [String], _ target: RequestTarget) {
        guard let uuid else { return }
        self.touchPresence(
            uuid: uuid,
            channels: channels,
            timeout: OriginStore.presenceTimeout(target.parameter("heartbeat")),
            states: OriginStore.statesByChannel(target.parameter("state"))
        )
    }

    /// The per-channel states of a subscribe or heartbeat `state=` value; invalid JSON or non-objects are ignored
    /// (the request itself still succeeds, as a client cannot fix a state it already sent with every poll).
    static func statesByChannel(_ text: String?) -> [String: JSONValue] {
        guard let text, let members = (try? JSONParser.parse(text))?.objectMembers else { return [:] }
        var states: [String: JSONValue] = [:]
        for member in members where member.value.objectMembers != nil { states[member.key] = member.value }
        return states
    }
}
