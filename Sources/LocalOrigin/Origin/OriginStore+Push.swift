// Mobile push registrations (docs/PROTOCOL.md §2.12): v1 `/v1/push/sub-key/{sub}/devices/{token}[/remove]?type=` and
// v2 `/v2/push/sub-key/{sub}/devices-apns2/{token}[/remove]?environment=&topic=`. Registrations only; nothing is
// ever pushed. As the service answers (recorded by pubnub/python `tests/integrational/fixtures/native_sync/*_push/`):
// v1 without `type` is refused with `Invalid type argument`; only adding channels checks the token (`Invalid device
// token`), removing channels or the device takes any token. 3.4.2 sent no `type` (APNs was implied then): a request
// carrying one of its push callbacks (`cpe_`, `cpd_`, `pec_`, `pnr_`) is still read as APNs. Its `&uuid=U?auth=K` is
// split by `RequestTarget`, which treats a second `?` as a separator.

/// One registered device: push service, token (lowercased: compared case-insensitively) and, for APNs2, the
/// environment and topic.
struct PushDevice: Hashable, Sendable {
    var type: String
    var token: String
    var environment: String
    var topic: String
}

extension OriginStore {
    private static let pushTypes: Set<String> = ["apns", "gcm", "fcm", "mpns"]

    private static func pushError(_ message: String) -> OriginReply {
        OriginReply(status: 400, body: .object(["error": .string(message)]))
    }

    /// The callback prefixes of 3.4.2's push requests (docs/PROTOCOL.md §1.3).
    private static let legacyPushCallbacks = ["cpe_", "cpd_", "pec_", "pnr_"]

    /// Whether a token may be registered: APNs tokens are hex (1 to 100 bytes); other services' tokens are any text
    /// without spaces or controls.
    private static func acceptsToken(_ token: String, type: String) -> Bool {
        guard !token.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return false }
        guard type == "apns" || type == "apns2" else { return true }
        let isHex = token.utf8.allSatisfy { JSONParser.hexValue($0) != nil }
        return isHex && token.utf8.count % 2 == 0 && token.utf8.count <= 200
    }

    func push(_ target: RequestTarget, _ exchange: Exchange, version: Int) {
        let segments = target.segments
        let devicesWord = version == 1 ? "devices" : "devices-apns2"
        guard segments.count == 6 || (segments.count == 7 && segments[6] == "remove"),
            let subscribeKey = self.subscribeKey(target, keywordAt: 2), segments[4] == devicesWord
        else { return self.answer(exchange, .notFound) }
        guard self.acceptsSubscribeKey(subscribeKey) else { return self.answer(exchange, .invalidSubscribeKey) }

        var device = PushDevice(type: "apns2", token: "", environment: "", topic: "")
        if version == 1 {
            let legacy = exchange.callback.map { name in OriginStore.legacyPushCallbacks.contains { name.hasPrefix($0) }
            }
            let implied = legacy == true ? "apns" : ""
            device.type = (target.parameter("type").flatMap { $0.isEmpty ? nil : $0 } ?? implied).lowercased()
            guard OriginStore.pushTypes.contains(device.type) else {
                return self.answer(exchange, OriginStore.pushError("Invalid type argument"))
            }
        } else {
            device.environment = (target.parameter("environment") ?? "development").lowercased()
            guard device.environment == "development" || device.environment == "production" else {
                return self.answer(exchange, OriginStore.pushError("Invalid environment argument"))
            }
            guard let topic = target.parameter("topic"), !topic.isEmpty else {
                return self.answer(exchange, OriginStore.pushError("Missing topic"))
            }
            device.topic = topic
        }
        let token = RequestTarget.decode(segments[5])
        let added = target.listParameter("add")
        guard !token.isEmpty, added.isEmpty || OriginStore.acceptsToken(token, type: device.type) else {
            return self.answer(exchange, OriginStore.pushError("Invalid device token"))
        }
        device.token = token.lowercased()

        if segments.count == 7 {
            self.pushDevices[device] = nil
            return self.answer(exchange, OriginReply(status: 200, body: .array([.int(1), .string("Removed Device")])))
        }
        let removed = target.listParameter("remove")
        guard target.parameter("add") != nil || target.parameter("remove") != nil else {
            let channels = self.pushDevices[device]?.names ?? []
            return self.answer(exchange, OriginReply(status: 200, body: .array(channels.map { .string($0) })))
        }
        var channels = self.pushDevices[device] ?? OrderedNames()
        if self.pushDevices[device] == nil, !added.isEmpty, self.pushDevices.count >= self.settings.maxChannels {
            return self.answer(exchange, OriginStore.pushError("Maximum device count exceeded"))
        }
        for channel in added { channels.insert(channel) }
        for channel in removed { channels.remove(channel) }
        guard channels.count <= self.settings.maxChannelsPerGroup else {
            return self.answer(exchange, OriginStore.pushError("Maximum channel count per device exceeded"))
        }
        self.pushDevices[device] = channels.count == 0 ? nil : channels
        self.answer(exchange, OriginReply(status: 200, body: .array([.int(1), .string("Modified Channels")])))
    }
}
