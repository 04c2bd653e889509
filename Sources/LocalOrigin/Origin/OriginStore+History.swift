// History (docs/PROTOCOL.md §2.10, EDGE CASE 5). `start` is exclusive, `end` inclusive. The service pages from
// `start` in the direction `reverse` names: only `start` → the `count` newest messages older than it, or with
// `reverse=true` the `count` oldest newer than it (so a pager that passes the last token it got as the next `start`
// moves on either way); only `end` → `end` and newer; both → between them, from `start` towards `end` whichever is
// larger. Messages inside an answer are always oldest first (see `HistoryQuery`).

/// A history range request.
struct HistoryQuery {
    var start: UInt64?
    var end: UInt64?
    var count: Int
    var reverse: Bool

    /// The positions of `ring` inside the range, then the `count` newest of them, or the oldest when `reverse`.
    /// Only `start`: older than it, or newer with `reverse` (recorded: pubnub/ruby
    /// `fixtures/vcr_cassettes/examples/history/all_history_messages_{1,2}.yml`). With both bounds the traversal goes
    /// from `start` towards `end` and `reverse` is ignored (recorded: `all_history_messages_3.yml` and
    /// `paged_history_*.yml`; support.pubnub.com "How do I use the start, end and count parameters in a history
    /// request?").
    func select(in ring: MessageRing) -> Range<Int> {
        var lower = 0
        var upper = ring.count
        var oldestFirst = self.reverse
        switch (self.start, self.end) {
        case (let start?, let end?) where start > end:
            lower = ring.firstIndex(atOrAfter: end)
            upper = ring.firstIndex(atOrAfter: start)
            oldestFirst = false
        case (let start?, let end?):
            lower = ring.firstIndex(after: start)
            upper = max(lower, ring.firstIndex(after: end))
            oldestFirst = true
        case (let start?, nil) where self.reverse:
            lower = ring.firstIndex(after: start)
        case (let start?, nil):
            upper = ring.firstIndex(atOrAfter: start)
        case (nil, let end?):
            lower = ring.firstIndex(atOrAfter: end)
        case (nil, nil):
            break
        }
        let taken = min(self.count, upper - lower)
        return oldestFirst ? lower..<(lower + taken) : (upper - taken)..<upper
    }
}

extension OriginStore {
    /// Reads `start`/`end` (must be numbers when present: EDGE CASE 2) and the count parameter `countName`
    /// (non-numeric or below 1: `defaultCount`; above `limit`: `limit`). `nil` when a bound is not a number.
    private static func historyQuery(
        _ target: RequestTarget,
        countName: String,
        defaultCount: Int,
        limit: Int
    ) -> HistoryQuery? {
        var bounds: [UInt64?] = []
        for name in ["start", "end"] {
            guard let text = target.parameter(name), !text.isEmpty else {
                bounds.append(nil)
                continue
            }
            guard let value = UInt64(text) else { return nil }
            bounds.append(value)
        }
        var count = target.parameter(countName).flatMap { Int($0) } ?? defaultCount
        if count < 1 { count = defaultCount }
        return HistoryQuery(
            start: bounds[0],
            end: bounds[1],
            count: min(count, limit),
            reverse: OriginStore.flag(target.parameter("reverse"))
        )
    }

    /// `/v2/history/sub-key/{sub}/channel/{ch}` → `[[msgs], first_tt, last_tt]` (numbers; `[[],0,0]` when empty).
    func historyV2(_ target: RequestTarget, _ exchange: Exchange) {
        guard target.segments.count == 6, let subscribeKey = self.subscribeKey(target, keywordAt: 2),
            target.segments[4] == "channel"
        else { return self.answer(exchange, .notFound) }
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        let channel = RequestTarget.decode(target.segments[5])
        guard !channel.isEmpty else { return self.answer(exchange, .error(400, "Invalid Channel", service: "Storage")) }
        guard let query = OriginStore.historyQuery(target, countName: "count", defaultCount: 100, limit: 100) else {
            return self.answer(exchange, .error(400, "Invalid Timetoken", service: "Storage"))
        }
        let includeToken = OriginStore.flag(target.parameter("include_token"))
        let includeMeta = OriginStore.flag(target.parameter("include_meta"))
        let stringTokens = OriginStore.flag(target.parameter("stringtoken"))
        let messages = self.record(channel).map { $0.history.messages(in: query.select(in: $0.history)) } ?? []
        // Each option adds its own key; `meta` is `""` for a message published without one (as the service answers).
        let items: [JSONValue] = messages.map { message in
            guard includeToken || includeMeta else { return .raw(message.payload) }
            var members = [JSONMember(key: "message", value: .raw(message.payload))]
            if includeToken { members.append(JSONMember(key: "timetoken", value: .timetoken(message.timetoken))) }
            if includeMeta { members.append(JSONMember(key: "meta", value: OriginStore.metaValue(message))) }
            return .object(members)
        }
        let bound: (UInt64) -> JSONValue = { stringTokens ? .string(String($0)) : .timetoken($0) }
        let body: JSONValue = .array([
            .array(items), bound(messages.first?.timetoken ?? 0), bound(messages.last?.timetoken ?? 0),
        ])
        self.answer(exchange, OriginReply(status: 200, body: body))
    }

    /// Most distinct channels one v3 history request may name (PubNub's limit for fetching several channels).
    static let maxHistoryChannels = 500

    /// `/v3/history/sub-key/{sub}/channel/{chs}?max=N` (EDGE CASE 5): per channel the newest `max` of the range
    /// (default 100 for one channel, 25 for several; at most 100), channels without messages omitted. A channel
    /// named twice is answered once (the answer can hold no more than what is stored: a short request naming one
    /// channel thousands of times must not multiply it), and more than `maxHistoryChannels` distinct channels → 400.
    func historyV3(_ target: RequestTarget, _ exchange: Exchange) {
        guard target.segments.count == 6, let subscribeKey = self.subscribeKey(target, keywordAt: 2),
            target.segments[4] == "channel"
        else { return self.answer(exchange, .notFound) }
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        var seen = Set<String>()
        let channels = RequestTarget.list(target.segments[5]).filter { seen.insert($0).inserted }
        guard !channels.isEmpty else {
            return self.answer(exchange, .error(400, "Invalid Channel", service: "Storage"))
        }
        guard channels.count <= OriginStore.maxHistoryChannels else {
            return self.answer(exchange, .error(400, "Too Many Channels", service: "Storage"))
        }
        let defaultCount = channels.count == 1 ? 100 : 25
        guard var query = OriginStore.historyQuery(target, countName: "max", defaultCount: defaultCount, limit: 100)
        else { return self.answer(exchange, .error(400, "Invalid Timetoken", service: "Storage")) }
        query.reverse = false
        let options = FetchOptions(target)
        var found: [JSONMember] = []
        for channel in channels {
            guard let record = self.record(channel) else { continue }
            let messages = record.history.messages(in: query.select(in: record.history))
            guard !messages.isEmpty else { continue }
            let items: [JSONValue] = messages.map { options.item($0) }
            found.append(JSONMember(key: channel, value: .array(items)))
        }
        let body: JSONValue = .object([
            "status": .int(200), "error": .bool(false), "error_message": .string(""), "channels": .object(found),
        ])
        self.answer(exchange, OriginReply(status: 200, body: body))
    }

    /// A message's `meta` for an answer: its JSON, or `""` when it was published without one.
    static func metaValue(_ message: StoredMessage) -> JSONValue {
        message.meta.map { .raw($0) } ?? .string("")
    }

    /// The `include_*` options of a v3 fetch and the item they shape: `message` and `timetoken` (a string) always;
    /// `message_type` (`null` for a published message, the only kind LocalOrigin stores), `meta` (`""` when none),
    /// `uuid` (the publisher, when known) and `custom_message_type` (when the publish set one) when asked.
    struct FetchOptions {
        var messageType: Bool
        var customMessageType: Bool
        var meta: Bool
        var uuid: Bool

        init(_ target: RequestTarget) {
            self.messageType = OriginStore.flag(target.parameter("include_message_type"))
            self.customMessageType = OriginStore.flag(target.parameter("include_custom_message_type"))
            self.meta = OriginStore.flag(target.parameter("include_meta"))
            self.uuid = OriginStore.flag(target.parameter("include_uuid"))
        }

        func item(_ message: StoredMessage) -> JSONValue {
            var members = [
                JSONMember(key: "message", value: .raw(message.payload)),
                JSONMember(key: "timetoken", value: .string(String(message.timetoken))),
            ]
            if self.messageType { members.append(JSONMember(key: "message_type", value: .null)) }
            if self.meta { members.append(JSONMember(key: "meta", value: OriginStore.metaValue(message))) }
            if self.uuid, let uuid = message.publisher { members.append(JSONMember(key: "uuid", value: .string(uuid))) }
            if self.customMessageType, let type = message.extras.customType {
                members.append(JSONMember(key: "custom_message_type", value: .string(type)))
            }
            return .object(members)
        }
    }

    /// 3.3's `/history/{sub}/{ch}/{cb}/{limit}` → a plain array of the newest `limit` messages (at most 100).
    func historyV1(_ target: RequestTarget, _ exchange: Exchange) {
        guard target.segments.count == 5, let subscribeKey = target.segment(1) else {
            return self.answer(exchange, .notFound)
        }
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        let channel = RequestTarget.decode(target.segments[2])
        guard !channel.isEmpty else { return self.answer(exchange, .error(400, "Invalid Channel", service: "Storage")) }
        var limit = Int(RequestTarget.decode(target.segments[4])) ?? 100
        if limit < 1 { limit = 100 }
        let query = HistoryQuery(start: nil, end: nil, count: min(limit, 100), reverse: false)
        let messages = self.record(channel).map { $0.history.messages(in: query.select(in: $0.history)) } ?? []
        self.answer(exchange, OriginReply(status: 200, body: .array(messages.map { .raw($0.payload) })))
    }
}
