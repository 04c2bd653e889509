// Publish (docs/PROTOCOL.md §2.2, §1.8): GET `/publish/{pub}/{sub}/{sig}/{ch}/{cb}/{msg}` and
// POST `/publish/{pub}/{sub}/{sig}/{ch}/{cb}` with the message as the body. The signature slot is ignored.

extension OriginStore {
    /// The message size limit: escaped channel plus escaped message (or body) bytes.
    static let maximumMessageSize = 32_768

    func publish(_ request: HTTPRequest, _ target: RequestTarget, _ exchange: Exchange) {
        let segments = target.segments
        guard segments.count >= 6 else {
            self.answer(exchange, .notFound)
            return
        }
        let fail = { (text: String) in
            self.answer(exchange, .publishStatus(400, text, self.nextTimetoken()))
        }
        // The subscribe key is checked first: the service answers `Invalid Subscribe Key` when both are wrong
        // (pubnub/python `tests/integrational/fixtures/asyncio/invocations/envelope_raises.yaml`).
        let subscribeKey = target.segment(2) ?? ""
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }
        guard self.acceptsPublishKey(target.segment(1) ?? "") else { return fail("Invalid Key") }
        let rawChannel = segments[4]
        let channel = RequestTarget.decode(rawChannel)
        guard !channel.isEmpty else { return fail("Invalid Channel") }

        // A raw `/` inside the message (a client that did not escape it) splits it over several segments.
        let rawMessage: Substring =
            switch segments.count {
            case ...6: ""
            case 7: segments[6]
            default: Substring(segments[6...].joined(separator: "/"))
            }
        let usesBody = request.method == "POST" && rawMessage.isEmpty
        let size = rawChannel.utf8.count + (usesBody ? request.body.count : rawMessage.utf8.count)
        guard size <= OriginStore.maximumMessageSize else { return fail("Message Too Large") }
        let bytes = usesBody ? request.body : RequestTarget.decodedBytes(rawMessage)
        guard let payload = bytes.withUnsafeBufferPointer(OriginStore.jsonText) else { return fail("Invalid JSON") }
        var meta: String?
        if var metaText = target.parameter("meta"), !metaText.isEmpty {
            guard let text = metaText.withUTF8(OriginStore.jsonText) else { return fail("Invalid JSON") }
            meta = text
        }
        let publisher = target.parameter("uuid").flatMap { $0.isEmpty ? nil : $0 }
        let store = !(target.parameter("store") == "0" || target.parameter("store")?.lowercased() == "false")
        let timetoken = self.append(
            channel: channel,
            payload: payload,
            publisher: publisher,
            meta: meta,
            extras: OriginStore.publishExtras(target),
            store: store
        )
        self.counters.publishes += 1
        self.answer(exchange, .publishStatus(200, "Sent", timetoken))
    }

    /// The envelope fields a publish asks for: `seqn` (an integer), `ortt` (a JSON object whose `t` is a timetoken,
    /// number or string, and `r` an optional region), `custom_message_type`. Values that are not so are ignored, as a
    /// publish is not refused for them.
    static func publishExtras(_ target: RequestTarget) -> PublishExtras {
        var extras = PublishExtras()
        extras.sequence = target.parameter("seqn").flatMap { Int($0) }
        if let text = target.parameter("ortt"), let members = (try? JSONParser.parse(text))?.objectMembers {
            var originator: [JSONMember] = []
            var token: String?
            switch members.first(where: { $0.key == "t" })?.value {
            case .number(let digits)?, .string(let digits)?: token = digits
            default: token = nil
            }
            if let token, UInt64(token) != nil { originator.append(JSONMember(key: "t", value: .string(token))) }
            if case .number(let region)? = members.first(where: { $0.key == "r" })?.value, let value = Int(region) {
                originator.append(JSONMember(key: "r", value: .int(value)))
            }
            if !originator.isEmpty { extras.originator = .object(originator) }
        }
        if let type = target.parameter("custom_message_type"), !type.isEmpty { extras.customType = type }
        return extras
    }

    /// `bytes` without leading and trailing JSON whitespace, as text, when they are one JSON value in UTF-8; nil when
    /// they are not (one pass that builds nothing: `JSONValidator`).
    static func jsonText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard JSONValidator.isValid(bytes) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[JSONValidator.trimmedRange(bytes)]), as: UTF8.self)
    }
}
