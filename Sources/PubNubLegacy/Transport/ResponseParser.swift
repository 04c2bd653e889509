import Foundation

// Turns HTTP answers into the engine's results. The HTTP status is consulted first (unlike 3.4.2, which only
// looked at the body, docs/PROTOCOL.md §1.9), then the body shape of each operation. Payload values stay Foundation
// JSON objects (`String`, `NSNumber`, `[Any]`, `[String: Any]`, `NSNull`): that is what `PNMessage.message`
// carries in 3.4. Parsing runs on the client queue, so these non-Sendable values never cross queues here.

/// Why an HTTP answer is not the operation's success. `PNError+Transport.swift` turns it into a `PNError`.
enum ResponseFailure: Error, Sendable, Equatable {
    /// HTTP 401 or 403; `channels` from the error payload (`payload.channels`) when present.
    case accessDenied(status: Int, message: String?, channels: [String])
    /// A server error text (`{"error": …}`, `{"message": …, "error": true}`, `[0, "reason"]`), mapped by its
    /// wording (3.4 `errorWithResponseErrorMessage`).
    case serverMessage(String, status: Int)
    /// The body is not UTF-8 (code 126).
    case notUTF8
    /// The body is not JSON, or not the JSON shape of the operation (code 127).
    case malformedJSON
    /// A non-2xx answer without an error payload (code −1, the message names the status).
    case unexpectedStatus(Int)
}

/// The answer to a v2 subscribe.
struct SubscribeResponse {
    /// The next cursor (`t.t`).
    var timetoken: UInt64
    /// The cursor's region (`t.r`), sent back as `tr`.
    var region: Int?
    var messages: [SubscribeEnvelope]
}

/// One event of a subscribe answer.
struct SubscribeEnvelope {
    /// The channel the event was published on (`c`); presence events name the `-pnpres` channel.
    var channel: String
    /// The subscription that matched (`b`), when the origin sends it.
    var subscription: String?
    /// The payload (`d`).
    var payload: Any
    /// The publish timetoken (`p.t`).
    var publishTimetoken: UInt64?
    /// The publisher's uuid (`i`).
    var publisher: String?
}

/// The answer to a v2 history request.
struct HistoryResponse {
    var messages: [Any]
    var start: UInt64
    var end: UInt64
}

/// The answer to a single-channel here-now.
struct HereNowResponse: Equatable {
    var uuids: [String]
    var occupancy: Int
}

enum ResponseParser {
    // MARK: - Common classification

    /// Decodes the body and applies the status rules shared by every operation; returns the JSON of a
    /// successful (2xx) answer that carries no error payload.
    static func json(from response: TransportResponse) -> Result<Any, ResponseFailure> {
        let decoded = Self.decode(response.body)
        let status = response.status
        if status == 401 || status == 403 {
            let object = (try? decoded.get()) as? [String: Any]
            return .failure(
                .accessDenied(status: status, message: object.flatMap(Self.errorText), channels: Self.channels(object))
            )
        }
        switch decoded {
        case .failure(let failure):
            return .failure((200..<300).contains(status) ? failure : .unexpectedStatus(status))
        case .success(let json):
            if let object = json as? [String: Any], let text = Self.errorText(object) {
                return .failure(.serverMessage(text, status: status))
            }
            if !(200..<300).contains(status) {
                if let array = json as? [Any], array.count >= 2, Self.isZero(array[0]), let text = array[1] as? String {
                    return .failure(.serverMessage(text, status: status))
                }
                return .failure(.unexpectedStatus(status))
            }
            return .success(json)
        }
    }

    /// UTF-8 check, then JSON with fragments allowed.
    static func decode(_ body: Data) -> Result<Any, ResponseFailure> {
        guard String(data: body, encoding: .utf8) != nil else { return .failure(.notUTF8) }
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return .failure(.malformedJSON)
        }
        return .success(json)
    }

    /// A timetoken given as a JSON string or number, read as `UInt64` (never through `Double`).
    static func timetoken(_ value: Any?) -> UInt64? {
        if let text = value as? String { return UInt64(text) }
        // No `is Bool` test: on Linux a JSON 0 or 1 also answers `is Bool`, and `[[],0,0]` must parse.
        if let number = value as? NSNumber {
            return UInt64(number.stringValue)
        }
        return nil
    }

    // MARK: - Operations

    /// `/time/0` → `[tt]`.
    static func time(_ response: TransportResponse) -> Result<UInt64, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let array = json as? [Any], array.count == 1, let token = Self.timetoken(array[0]) else {
                return .failure(.malformedJSON)
            }
            return .success(token)
        }
    }

    /// Publish → `[1, "Sent", "tt"]`; `[0, "reason", …]` is a server error.
    static func publish(_ response: TransportResponse) -> Result<UInt64?, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let array = json as? [Any], array.count >= 2 else { return .failure(.malformedJSON) }
            if Self.isZero(array[0]) {
                return .failure(.serverMessage((array[1] as? String) ?? "Unknown error", status: response.status))
            }
            return .success(array.count >= 3 ? Self.timetoken(array[2]) : nil)
        }
    }

    /// v2 subscribe → `{"t": {"t": "tt", "r": n}, "m": [envelopes]}`.
    static func subscribe(_ response: TransportResponse) -> Result<SubscribeResponse, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let object = json as? [String: Any], let cursor = object["t"] as? [String: Any],
                let token = Self.timetoken(cursor["t"]), let list = object["m"] as? [Any]
            else { return .failure(.malformedJSON) }
            var messages: [SubscribeEnvelope] = []
            messages.reserveCapacity(list.count)
            for item in list {
                guard let envelope = item as? [String: Any], let channel = envelope["c"] as? String else {
                    return .failure(.malformedJSON)
                }
                let publish = envelope["p"] as? [String: Any]
                messages.append(
                    SubscribeEnvelope(
                        channel: channel,
                        subscription: envelope["b"] as? String,
                        payload: envelope["d"] ?? NSNull(),
                        publishTimetoken: Self.timetoken(publish?["t"]),
                        publisher: envelope["i"] as? String
                    )
                )
            }
            let region = (cursor["r"] as? NSNumber)?.intValue
            return .success(SubscribeResponse(timetoken: token, region: region, messages: messages))
        }
    }

    /// Leave, heartbeat, push add/remove/remove-device: any non-error JSON answer is success.
    static func acknowledgement(_ response: TransportResponse) -> Result<Void, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            if let array = json as? [Any], array.count >= 2, Self.isZero(array[0]) {
                return .failure(.serverMessage((array[1] as? String) ?? "Unknown error", status: response.status))
            }
            return .success(())
        }
    }

    /// Single-channel here-now → `{"uuids": [...], "occupancy": n}`; `uuids` items may be `{"uuid": …}`.
    static func hereNow(_ response: TransportResponse) -> Result<HereNowResponse, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let object = json as? [String: Any] else { return .failure(.malformedJSON) }
            let body = (object["payload"] as? [String: Any]).flatMap { Self.singleChannel($0) } ?? object
            guard let occupancy = (body["occupancy"] as? NSNumber)?.intValue else { return .failure(.malformedJSON) }
            let uuids = (body["uuids"] as? [Any] ?? []).compactMap { item -> String? in
                if let uuid = item as? String { return uuid }
                return (item as? [String: Any])?["uuid"] as? String
            }
            return .success(HereNowResponse(uuids: uuids, occupancy: occupancy))
        }
    }

    /// v2 history → `[[messages], start, end]` with numeric tokens.
    static func history(_ response: TransportResponse) -> Result<HistoryResponse, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let array = json as? [Any], array.count == 3, let messages = array[0] as? [Any],
                let start = Self.timetoken(array[1]), let end = Self.timetoken(array[2])
            else { return .failure(.malformedJSON) }
            return .success(HistoryResponse(messages: messages, start: start, end: end))
        }
    }

    /// Push channel list → `["ch1", "ch2"]`.
    static func pushChannels(_ response: TransportResponse) -> Result<[String], ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let array = json as? [Any] else { return .failure(.malformedJSON) }
            let names = array.compactMap { $0 as? String }
            guard names.count == array.count else { return .failure(.malformedJSON) }
            return .success(names)
        }
    }

    // MARK: - Helpers

    /// The error text of an error object, or nil when the object is not an error.
    private static func errorText(_ object: [String: Any]) -> String? {
        guard let flag = object["error"] else { return nil }
        if let text = flag as? String, !text.isEmpty { return text }
        let isError: Bool
        if let number = flag as? NSNumber {
            isError = number.boolValue
        } else {
            isError = !(flag is NSNull)
        }
        guard isError else { return nil }
        return (object["message"] as? String) ?? "Unknown error"
    }

    private static func channels(_ object: [String: Any]?) -> [String] {
        let payload = object?["payload"] as? [String: Any]
        return (payload?["channels"] as? [Any])?.compactMap { $0 as? String } ?? []
    }

    private static func isZero(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return number.intValue == 0
    }

    /// The single entry of a multi-channel here-now payload (`payload.channels.{ch}`), if there is exactly one.
    private static func singleChannel(_ payload: [String: Any]) -> [String: Any]? {
        guard let channels = payload["channels"] as? [String: Any], channels.count == 1 else { return nil }
        return channels.values.first as? [String: Any]
    }
}
