// The PubNubLegacy internals the client harnesses reach, in one place: when a reader, parser or validation entry
// point changes (limits added to the response reader, per-message subscribe decoding, history parsing), this is the
// file to re-point; the harnesses only speak the plain types below.

import Foundation

@testable import PubNubLegacy

enum ClientEntryPoints {
    // MARK: - HTTP response reader

    /// How reading one response from a byte stream ended.
    enum ReadOutcome: Equatable {
        /// A complete response; `reusable` when the connection could carry another request (keep-alive, and no
        /// byte arrived after the response).
        case response(status: Int, body: [UInt8], reusable: Bool)
        /// The reader refused the bytes: `malformed`, `headerTooLarge` or `bodyTooLarge` (the text of a malformed
        /// answer names the first problem seen, which may differ with the split, so it is left out).
        case failure(String)
        /// The stream ended (or, without `endOfStream`, paused) before a response was complete.
        case incomplete
    }

    /// The reader's limits: small ones (so short inputs reach the limit paths) or the defaults.
    static func readerLimits(small: Bool) -> (header: Int, body: Int) {
        small ? (header: 128, body: 256) : (header: 65_536, body: 16_777_216)
    }

    /// Reads one response the way a socket connection does: pieces arrive in order, the first complete response
    /// ends the read, and `endOfStream` closes the stream after the last piece.
    static func readResponse(_ pieces: [ArraySlice<UInt8>], small: Bool, endOfStream: Bool) -> ReadOutcome {
        let limits = Self.readerLimits(small: small)
        var reader = HTTPResponseReader(
            limits: ResponseLimits(maximumHeaderBytes: limits.header, maximumBodyBytes: limits.body)
        )
        do {
            for (index, piece) in pieces.enumerated() {
                let progress = try Self.consume(piece, into: &reader)
                if case .complete(let response, let reusable) = progress {
                    let moreBytes = pieces[(index + 1)...].contains { !$0.isEmpty }
                    return .response(
                        status: response.status,
                        body: Array(response.body),
                        reusable: reusable && !moreBytes
                    )
                }
            }
            guard endOfStream else { return .incomplete }
            if case .complete(let response, let reusable) = try reader.finish() {
                return .response(status: response.status, body: Array(response.body), reusable: reusable)
            }
            return .incomplete
        } catch HTTPResponseReader.Failure.truncated {
            return .incomplete
        } catch HTTPResponseReader.Failure.malformed {
            return .failure("malformed")
        } catch {
            return .failure(String(describing: error))
        }
    }

    private static func consume(
        _ piece: ArraySlice<UInt8>,
        into reader: inout HTTPResponseReader
    ) throws -> HTTPResponseReader.Progress {
        // `withUnsafeBytes` rethrows untyped errors only, so the reader's typed error travels in a `Result`.
        try piece.withUnsafeBytes { buffer in
            Result { () throws(HTTPResponseReader.Failure) in try reader.consume(buffer) }
        }.get()
    }

    // MARK: - Response parsers

    /// The operations whose answers the client parses (where-now and state have no parser: the 3.4 API has no
    /// call that reads them).
    enum Operation: CaseIterable {
        case time, publish, subscribe, history, hereNow, acknowledgement, pushChannels
    }

    /// What a parser made of an answer: a summary of the value, or the `PNError` code a caller would see.
    enum ParseOutcome {
        case value(String)
        case error(code: Int, reason: String)
    }

    /// Parses `body` (with HTTP `status`) as the answer to `operation`. A subscribe answer's events also go
    /// through what delivery does to each one: presence events are parsed, other payloads decrypted with
    /// `cipher` when one is given.
    static func parse(_ operation: Operation, status: Int, body: Data, cipher: Cipher?) -> ParseOutcome {
        let response = TransportResponse(status: status, body: body)
        func outcome<Value>(_ result: Result<Value, ResponseFailure>, _ summary: (Value) -> String) -> ParseOutcome {
            switch result {
            case .success(let value):
                return .value(summary(value))
            case .failure(let failure):
                let error = PNError.fromResponse(failure)
                return .error(code: error.code, reason: error.localizedFailureReason)
            }
        }
        switch operation {
        case .time:
            return outcome(ResponseParser.time(response)) { "\($0)" }
        case .publish:
            return outcome(ResponseParser.publish(response)) { "\(String(describing: $0))" }
        case .subscribe:
            return outcome(ResponseParser.subscribe(response)) { parsed in
                var events: [String] = []
                for envelope in parsed.messages {
                    // Each payload decoded on its own, as the delivery does (`SubscribeResponse.payload(of:)`).
                    guard let channel = envelope.channel, case .value(let payload) = parsed.payload(of: envelope)
                    else {
                        events.append("undecodable")
                        continue
                    }
                    if PNChannelPresence.isPresenceObservingChannelName(channel),
                        let event = PNPresenceEvent(eventObject: payload, channel: nil)
                    {
                        events.append("\(event.type) \(event.occupancy) \(event.uuid ?? "-")")
                    } else if let cipher {
                        events.append("\(String(describing: cipher.cryptor.decrypt(wireValue: payload)))")
                    } else {
                        events.append("\(channel) \(String(describing: envelope.publishTimetoken))")
                    }
                }
                return "\(parsed.timetoken) \(String(describing: parsed.region)) \(events)"
            }
        case .history:
            return outcome(ResponseParser.history(response)) { parsed in
                let decrypted = parsed.messages.map { decoded -> String in
                    guard case .value(let message) = decoded else { return "undecodable" }
                    return cipher.map { "\(String(describing: $0.cryptor.decrypt(wireValue: message)))" }
                        ?? "\(message)"
                }
                return "\(parsed.start) \(parsed.end) \(decrypted)"
            }
        case .hereNow:
            return outcome(ResponseParser.hereNow(response)) { "\($0.occupancy) \($0.uuids)" }
        case .acknowledgement:
            return outcome(ResponseParser.acknowledgement(response)) { "ok" }
        case .pushChannels:
            return outcome(ResponseParser.pushChannels(response)) { "\($0)" }
        }
    }

    /// The codes a response failure may map to: 3.4's server-message classification (−1, 107–111, 124), access
    /// denied (112, 113) and the malformed-answer codes (126, 127).
    static let responseErrorCodes: Set<Int> = [-1, 107, 108, 109, 110, 111, 112, 113, 124, 126, 127]

    // MARK: - Cipher

    /// A message cipher as a client with a cipher key builds it.
    struct Cipher {
        fileprivate let cryptor: MessageCryptor

        /// `mode`: 0 the 3.4 standard, 1 the 3.3 scheme, 2 random IV (any other value: standard).
        init(key: String, mode: Int, acceptsEitherIVLayout: Bool) {
            let modes: [CipherMode] = [.standard, .compatibility33, .randomIV]
            self.cryptor = MessageCryptor(
                cipherKey: key,
                mode: modes.indices.contains(mode) ? modes[mode] : .standard,
                acceptsEitherIVLayout: acceptsEitherIVLayout
            )
        }

        /// Whether this is the 3.3 scheme (which encrypts string leaves, not the whole text).
        var isCompatibility33: Bool { self.cryptor.mode == .compatibility33 }

        /// What a received message becomes: the decrypted value, or nil for `DECRYPTION_ERROR`.
        func decrypt(wireValue: Any) -> Any? {
            try? self.cryptor.decrypt(wireValue: wireValue).get()
        }

        /// The text of one base64 payload, or nil when it cannot be decrypted.
        func decryptPayload(_ base64: String) -> String? {
            try? self.cryptor.decryptPayload(base64).get().text
        }

        /// What a publish sends for `messageJSONText` (JSON text), nil when it cannot be encrypted.
        func encrypt(messageJSONText: String) -> String? {
            try? self.cryptor.encrypt(messageJSONText: messageJSONText).get()
        }

        /// base64 of a current SDK's `PNED`/`ACRH` payload of `plaintext` (`iv`: 16 bytes).
        func encryptWithCryptorHeader(_ plaintext: [UInt8], iv: [UInt8]) -> String {
            self.cryptor.encryptCryptorHeaderPayload(plaintext, iv: iv)
        }
    }

    /// Standard base64 of `bytes`.
    static func base64(_ bytes: [UInt8]) -> String {
        Base64.encode(bytes)
    }

    // MARK: - Arguments

    /// The code every operation reports for a channel of this name before sending, nil when it may be used.
    static func channelError(_ name: String) -> Int? {
        PNChannel(name: name).validationError()?.code
    }

    /// The JSON text a publish of `object` sends, or the code of the error that refuses it.
    static func messageText(_ object: Any?) -> Result<String, PNErrorCode> {
        PNMessage.jsonText(for: object).mapError { PNErrorCode(code: $0.code) }
    }

    /// A `PNError` code as an `Error`.
    struct PNErrorCode: Error, Equatable {
        var code: Int
    }

    /// The URL of a publish of `message` (JSON text) to `channel`, and of a subscribe to `channels`: nil when no URL
    /// can be built (which must not happen for a channel the validation let through).
    static func requestURLs(channel: String, message: String, uuid: String, authKey: String) -> [URL?] {
        let context = EndpointContext(
            origin: "127.0.0.1:8090",
            secure: false,
            publishKey: "demo",
            subscribeKey: "demo",
            uuid: uuid,
            authKey: authKey
        )
        let endpoints: [Endpoint] = [
            .publish(channel: channel, message: message, method: .get),
            .publish(channel: channel, message: message, method: .post),
            .subscribe(channels: [channel, "other"], timetoken: 0, region: nil, heartbeat: nil),
            .history(channel: channel, start: nil, end: nil, count: 100, reverse: false),
            .hereNow(channel: channel),
            .pushAddChannels(token: Data([1]), channels: [channel]),
        ]
        return endpoints.map { $0.request(in: context, timeout: 10)?.url }
    }

    /// `host` and `port` of an origin setting, nil when the configuration refuses it.
    static func originParts(_ origin: String) -> (host: String, port: Int?)? {
        PNConfiguration.parseOrigin(origin)
    }

    /// The URL of a time request to `origin` (plain HTTP), nil when none can be built.
    static func timeURL(origin: String) -> URL? {
        let context = EndpointContext(
            origin: origin,
            secure: false,
            publishKey: "demo",
            subscribeKey: "demo",
            uuid: "u",
            authKey: ""
        )
        return Endpoint.time.request(in: context, timeout: 10)?.url
    }

    // MARK: - Certificates (TLS trust)

    /// The DER certificates of a PEM text, or nil when it is refused (`TrustEvaluation.certificates(fromPEM:)`).
    static func certificates(fromPEM text: [UInt8]) -> [[UInt8]]? {
        try? TrustEvaluation.certificates(fromPEM: text).get()
    }

    /// Where the SubjectPublicKeyInfo of a DER certificate lies in it, nil when it cannot be read.
    static func publicKeyInfoRange(ofCertificate der: [UInt8]) -> Range<Int>? {
        TrustEvaluation.subjectPublicKeyInfo(ofCertificate: der)?.indices
    }

    /// The pin digest of a certificate and the SHA-256 of the bytes given as its SubjectPublicKeyInfo.
    static func publicKeyDigest(ofCertificate der: [UInt8]) -> [UInt8]? {
        TrustEvaluation.publicKeyDigest(ofCertificate: der)
    }

    static func sha256(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        SHA256.hash(bytes)
    }
}
