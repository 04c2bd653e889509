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
    /// A field of the answer has the wrong JSON type or an impossible value — a boolean, fraction or out-of-range
    /// number where an integer or time token belongs, a number where a string belongs (code 127). The text names the
    /// field and what it held (`ResponseParser+Fields.swift`).
    case malformedField(String)
    /// A non-2xx answer without an error payload (code −1, the message names the status).
    case unexpectedStatus(Int)
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

    // MARK: - Operations

    /// `/time/0` → `[tt]`.
    static func time(_ response: TransportResponse) -> Result<UInt64, ResponseFailure> {
        if response.status == 200, let token = Self.plainTimeAnswer(response.body) {
            return .success(token)
        }
        return Self.timeFromJSON(response)
    }

    /// `time` read with the JSON decoder: every answer `plainTimeAnswer` does not read.
    static func timeFromJSON(_ response: TransportResponse) -> Result<UInt64, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let array = json as? [Any], array.count == 1 else { return .failure(.malformedJSON) }
            return Self.timetoken(array[0], field: "the time token")
        }
    }

    /// Publish → `[1, "Sent", "tt"]`; `[0, "reason", …]` is a server error.
    static func publish(_ response: TransportResponse) -> Result<UInt64?, ResponseFailure> {
        if response.status == 200, let token = Self.plainPublishAnswer(response.body) {
            return .success(token)
        }
        return Self.json(from: response).flatMap { json in
            guard let array = json as? [Any], array.count >= 2 else { return .failure(.malformedJSON) }
            let sent: Bool
            let text: String?
            switch (Self.flag(array[0], field: "the publish flag"), Self.optionalString(array[1], field: "the text")) {
            case (.failure(let failure), _), (_, .failure(let failure)): return .failure(failure)
            case (.success(let flag), .success(let description)): (sent, text) = (flag, description)
            }
            guard sent else { return .failure(.serverMessage(text ?? "Unknown error", status: response.status)) }
            return Self.optionalTimetoken(array.count >= 3 ? array[2] : nil, field: "the publish time token")
        }
    }

    /// The time token of the answer every successful publish gets, `[1,"Sent","<digits>"]` byte for byte, read
    /// without a JSON decoder (a publish's answer is parsed once per publish); nil for any other body — with other
    /// spacing, another text, a token that overflows — which then takes the general path and gets the same result it
    /// always got.
    static func plainPublishAnswer(_ body: Data) -> UInt64? {
        let prefix = #"[1,"Sent",""#.utf8
        return body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> UInt64? in
            let digitsStart = prefix.count
            guard bytes.count > digitsStart + 2, bytes[bytes.count - 1] == UInt8(ascii: "]"),
                bytes[bytes.count - 2] == UInt8(ascii: "\""), zip(bytes, prefix).allSatisfy({ $0 == $1 })
            else { return nil }
            var token: UInt64 = 0
            for byte in bytes[digitsStart..<(bytes.count - 2)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (shifted, overflow) = token.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflow, !overflowSum else { return nil }
                token = sum
            }
            return token
        }
    }

    /// The time token of the answer `/time/0` gets, `[<digits>]` byte for byte with 1 to 18 digits and no leading
    /// zero, read without a JSON decoder: a client's first request, so an idle client never loads
    /// `JSONSerialization` (BENCHMARKS.md, idle client); nil for any other body, which takes the general path and
    /// gets the same result it always got (`ResponseParserTests`).
    static func plainTimeAnswer(_ body: Data) -> UInt64? {
        body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> UInt64? in
            guard bytes.count >= 3, bytes.count <= 20, bytes[0] == UInt8(ascii: "["),
                bytes[bytes.count - 1] == UInt8(ascii: "]"), bytes[1] != UInt8(ascii: "0")
            else { return nil }
            var token: UInt64 = 0
            for byte in bytes[1..<(bytes.count - 1)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                token = token * 10 + UInt64(byte - UInt8(ascii: "0"))
            }
            return token
        }
    }

    /// Leave, heartbeat, push add/remove/remove-device: any non-error JSON answer is success.
    static func acknowledgement(_ response: TransportResponse) -> Result<Void, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            if let array = json as? [Any], array.count >= 2, array[0] is NSNumber {
                switch Self.flag(array[0], field: "the acknowledgement flag") {
                case .failure(let failure): return .failure(failure)
                case .success(false):
                    return .failure(.serverMessage((array[1] as? String) ?? "Unknown error", status: response.status))
                case .success(true): break
                }
            }
            return .success(())
        }
    }

    /// Single-channel here-now → `{"uuids": [...], "occupancy": n}`; `uuids` items may be `{"uuid": …}`.
    static func hereNow(_ response: TransportResponse) -> Result<HereNowResponse, ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let object = json as? [String: Any] else { return .failure(.malformedJSON) }
            let body = (object["payload"] as? [String: Any]).flatMap { Self.singleChannel($0) } ?? object
            guard body["occupancy"] != nil else { return .failure(.malformedJSON) }
            return Self.integer(body["occupancy"], field: "the occupancy", in: 0...Int.max).flatMap { occupancy in
                Self.hereNowUUIDs(body["uuids"]).map { HereNowResponse(uuids: $0, occupancy: occupancy) }
            }
        }
    }

    /// Push channel list → `["ch1", "ch2"]`.
    static func pushChannels(_ response: TransportResponse) -> Result<[String], ResponseFailure> {
        Self.json(from: response).flatMap { json in
            guard let array = json as? [Any] else { return .failure(.malformedJSON) }
            var names: [String] = []
            names.reserveCapacity(array.count)
            for (index, item) in array.enumerated() {
                guard let name = item as? String else {
                    return .failure(Self.wrongType("push channel \(index)", item, expected: "a channel name"))
                }
                names.append(name)
            }
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

    /// Here-now `uuids`: absent, or an array of uuid strings or `{"uuid": …}` objects.
    private static func hereNowUUIDs(_ value: Any?) -> Result<[String], ResponseFailure> {
        guard let value, !(value is NSNull) else { return .success([]) }
        guard let items = value as? [Any] else { return .failure(Self.wrongType("uuids", value, expected: "an array")) }
        var uuids: [String] = []
        uuids.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let uuid = item as? String ?? (item as? [String: Any])?["uuid"] as? String
            guard let uuid else {
                return .failure(Self.wrongType("uuids[\(index)]", item, expected: "a uuid or {\"uuid\": …}"))
            }
            uuids.append(uuid)
        }
        return .success(uuids)
    }

    /// The single entry of a multi-channel here-now payload (`payload.channels.{ch}`), if there is exactly one.
    private static func singleChannel(_ payload: [String: Any]) -> [String: Any]? {
        guard let channels = payload["channels"] as? [String: Any], channels.count == 1 else { return nil }
        return channels.values.first as? [String: Any]
    }
}
