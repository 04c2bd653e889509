// Which endpoint a request is (docs/PROTOCOL.md §3 MUST 5). Path segments are compared raw (endpoint words are plain
// ASCII); every name taken from the path is decoded separately, after splitting (docs/PROTOCOL.md §1.5).

extension OriginStore {
    /// Answers (or parks) one request. Called with the handler's lock held.
    func route(_ request: HTTPRequest, _ target: RequestTarget, _ exchange: Exchange) {
        var exchange = exchange
        let segments = target.segments
        if let index = OriginStore.callbackSegmentIndex(segments), let callback = target.segment(index) {
            exchange.callback = callback
        }
        // Every form alike (path or query, escaped or raw, or the body): text that is not UTF-8 is refused before
        // anything reads it.
        guard target.isValidUTF8, request.body.isEmpty || String(validating: request.body, as: UTF8.self) != nil
        else {
            self.answer(exchange, .invalidUTF8)
            return
        }
        if let secretKey = self.settings.secretKey, !secretKey.isEmpty,
            let refusal = self.signatureRefusal(request, target, secretKey: secretKey)
        {
            self.answer(exchange, refusal)
            return
        }
        guard request.method == "GET" || request.method == "POST" else {
            self.answer(exchange, .methodNotAllowed)
            return
        }
        exchange.service = OriginStore.service(segments, method: request.method)
        switch segments.first {
        case "time":
            self.time(target, exchange)
        case "publish":
            self.publish(request, target, exchange)
        case "subscribe":
            self.subscribeV1(target, exchange)
        case "history":
            self.historyV1(target, exchange)
        case "v1" where segments.count > 1 && segments[1] == "channel-registration":
            self.channelRegistration(target, exchange)
        case "v1" where segments.count > 1 && segments[1] == "push":
            self.push(target, exchange, version: 1)
        case "v2" where segments.count > 1:
            switch segments[1] {
            case "subscribe": self.subscribeV2(target, exchange)
            case "presence": self.presence(target, exchange)
            case "history": self.historyV2(target, exchange)
            case "push": self.push(target, exchange, version: 2)
            default: self.answer(exchange, .notFound)
            }
        case "v3" where segments.count > 1 && segments[1] == "history":
            self.historyV3(target, exchange)
        default:
            self.answer(exchange, .notFound)
        }
    }

    /// The path segment holding the JSONP callback in the forms that carry it in the path (3.4.2 uses the path for
    /// time, publish and subscribe; `/v2/subscribe` and 3.3's `/history` have the slot too).
    private static func callbackSegmentIndex(_ segments: [Substring]) -> Int? {
        switch segments.first {
        case "time": return 1
        case "publish": return 5
        case "subscribe", "history": return 3
        case "v2" where segments.count > 1 && segments[1] == "subscribe": return 4
        default: return nil
        }
    }

    /// The part of the service a path belongs to (for the headers of its answers).
    private static func service(_ segments: [Substring], method: String) -> OriginService {
        switch (segments.first, segments.count > 1 ? segments[1] : "") {
        case ("time", _): return .time
        case ("publish", _): return .publish(method: method)
        case ("subscribe", _), ("v2", "subscribe"): return .subscribe
        case ("v2", "presence"): return .presence
        case ("history", _), ("v2", "history"), ("v3", "history"): return .storage
        case ("v1", "push"), ("v2", "push"): return .push
        case ("v1", "channel-registration"): return .channelRegistry
        default: return .edge
        }
    }

    /// `/time/{cb}` → `[tt]`, the timetoken a JSON number (docs/PROTOCOL.md §2.1).
    private func time(_ target: RequestTarget, _ exchange: Exchange) {
        guard target.segments.count <= 2 else {
            self.answer(exchange, .notFound)
            return
        }
        self.answer(exchange, OriginReply(status: 200, body: .array([.timetoken(self.nextTimetoken())])))
    }

    // MARK: - Shared checks

    /// True when `key` may be used as a subscribe key: non-empty, and in the configured set if there is one.
    func acceptsSubscribeKey(_ key: String) -> Bool {
        !key.isEmpty && (self.settings.subscribeKeys?.contains(key) ?? true)
    }

    /// True when `key` may be used as a publish key: non-empty, and in the configured set if there is one.
    func acceptsPublishKey(_ key: String) -> Bool {
        !key.isEmpty && (self.settings.publishKeys?.contains(key) ?? true)
    }

    /// The `sub-key`/`sub_key` path form `/{prefix…}/{sub-key|sub_key}/{sub}/…`: the decoded subscribe key at
    /// `index + 1` when segment `index` is either spelling (docs/PROTOCOL.md §1.5 rule 4).
    func subscribeKey(_ target: RequestTarget, keywordAt index: Int) -> String? {
        guard target.segments.count > index + 1,
            target.segments[index] == "sub-key" || target.segments[index] == "sub_key"
        else { return nil }
        return target.segment(index + 1)
    }

    /// True for the query flag spellings clients use: `1` and `true`.
    static func flag(_ value: String?) -> Bool {
        guard let value else { return false }
        return value == "1" || value.lowercased() == "true"
    }

    /// The longest presence timeout the service keeps: pubnub/javascript caps `presenceTimeout` at 320 s
    /// (`PRESENCE_TIMEOUT_MAXIMUM`, since v9.3.0, 2025-03-20, which also dropped its 20 s minimum; the service honoured
    /// `heartbeat=8` in pubnub/python `tests/integrational/fixtures/tornado/heartbeat/timeout.yaml`).
    static let maximumPresenceTimeout: Double = 320

    /// A presence timeout from a `heartbeat=` value: whole or fractional seconds above 0, at most
    /// `maximumPresenceTimeout`; otherwise `nil` (the uuid keeps the timeout it has, or gets the default).
    static func presenceTimeout(_ value: String?) -> Double? {
        guard let value, let seconds = Double(value), seconds.isFinite, seconds > 0 else { return nil }
        return min(seconds, OriginStore.maximumPresenceTimeout)
    }
}
