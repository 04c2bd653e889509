import Foundation

// The two answers that carry publishers' payloads — subscribe and history — are read in two steps: the answer's
// own structure by `JSONScanner` (cursor, channels, timetokens, and where each payload's bytes are), then each
// payload on its own with `JSONSerialization` (or `JSONPayloadDecoder`, which returns the same values faster for the
// payloads it is sure about), when it is delivered. A payload the platform cannot decode although
// it is valid JSON (`"\ud800"`, `1e999999`, a 400-digit integer), or that is not UTF-8, then spoils only itself: it
// is reported with its raw text and every other message of the answer is delivered, and the cursor still advances
// (issue: one publish must never silence a channel). Decoding late also keeps a 100,000-message answer as bytes plus
// a small index instead of a Foundation object tree (bounded delivery, `SubscribeBatch`).

/// Why a payload could not be decoded; its raw text is kept beside it.
enum UndecodableReason: Sendable, Equatable {
    /// The payload's bytes are not UTF-8 (code 126).
    case notUTF8
    /// Valid JSON that this platform's decoder refuses: a lone surrogate escape, a number out of range (code 127).
    case notRepresentable
    /// The envelope around the payload is not an object with a channel (`c`), so there is nothing to deliver it
    /// with (code 127); the raw text is the whole envelope.
    case unreadableEnvelope
}

/// A payload as it is delivered: its decoded value, or its raw text when it cannot be decoded.
enum DecodedPayload {
    case value(Any)
    case undecodable(text: String, reason: UndecodableReason)
}

/// The answer to a v2 subscribe: the cursor, and the events as an index into the answer's bytes.
struct SubscribeResponse: Sendable {
    /// The next cursor (`t.t`).
    var timetoken: UInt64
    /// The cursor's region (`t.r`), sent back as `tr`.
    var region: Int?
    /// The answer's bytes; the envelopes point into them.
    var body: Data
    var messages: [SubscribeEnvelope]

    /// The payload of `envelope`, decoded now (see `ResponseParser.decodePayload`).
    func payload(of envelope: SubscribeEnvelope) -> DecodedPayload {
        guard envelope.channel != nil else {
            return .undecodable(text: ResponseParser.text(of: self.body, envelope.range), reason: .unreadableEnvelope)
        }
        return ResponseParser.decodePayload(self.body, envelope.payload)
    }
}

/// One event of a subscribe answer.
struct SubscribeEnvelope: Sendable {
    /// The channel the event was published on (`c`); presence events name the `-pnpres` channel. nil when the
    /// envelope could not be read (not an object, no channel): it is then reported as an undecodable message.
    var channel: String?
    /// The subscription that matched (`b`), when the origin sends it.
    var subscription: String?
    /// The publish timetoken (`p.t`).
    var publishTimetoken: UInt64?
    /// The publisher's uuid (`i`).
    var publisher: String?
    /// Where the payload (`d`) is in the answer's bytes; nil when the envelope has none (delivered as `NSNull`).
    var payload: Range<Int>?
    /// Where the whole envelope is in the answer's bytes.
    var range: Range<Int>
}

/// The answer to a v2 history request: each message decoded on its own.
struct HistoryResponse {
    var messages: [DecodedPayload]
    var start: UInt64
    var end: UInt64
}

extension ResponseParser {
    // MARK: - Subscribe

    /// v2 subscribe → `{"t": {"t": "tt", "r": n}, "m": [envelopes]}`. A 2xx answer of that shape is read without
    /// decoding any payload; anything else goes through the common classification (error payloads, statuses) and
    /// is malformed when it is not an error.
    static func subscribe(_ response: TransportResponse) -> Result<SubscribeResponse, ResponseFailure> {
        if (200..<300).contains(response.status), let parsed = Self.scanSubscribe(response.body) {
            return .success(parsed)
        }
        return Self.json(from: response).flatMap { _ in .failure(.malformedJSON) }
    }

    private static func scanSubscribe(_ body: Data) -> SubscribeResponse? {
        body.withUnsafeBytes { bytes -> SubscribeResponse? in
            var scanner = JSONScanner(bytes)
            var timetoken: UInt64?
            var region: Int?
            var messages: [SubscribeEnvelope]?
            // Channel names, subscriptions and publishers repeat across envelopes: one String per distinct value, so
            // a large answer's index holds references, not a copy of each name per message.
            var names: Set<String> = []
            let readable = scanner.readObject { key, scanner in
                switch key {
                case "t":
                    return scanner.readObject { key, scanner in
                        switch key {
                        case "t":
                            timetoken = Self.scanTimetoken(&scanner)
                            return timetoken != nil
                        case "r":
                            // A region is a small non-negative integer: a fraction, a sign, a string or a boolean
                            // makes the cursor unreadable (docs/PROTOCOL.md §2.3), as a bad `t.t` does.
                            guard let text = scanner.readNumberText(), let value = Int(text),
                                (0...Int(Int32.max)).contains(value)
                            else { return false }
                            region = value
                            return true
                        default:
                            return scanner.skipValue() != nil
                        }
                    }
                case "m":
                    var list: [SubscribeEnvelope] = []
                    let ok = scanner.readArray { scanner in
                        guard let envelope = Self.scanEnvelope(&scanner, names: &names) else { return false }
                        list.append(envelope)
                        return true
                    }
                    messages = list
                    return ok
                default:
                    return scanner.skipValue() != nil
                }
            }
            guard readable, scanner.isAtEnd(), let timetoken, let messages else { return nil }
            return SubscribeResponse(timetoken: timetoken, region: region, body: body, messages: messages)
        }
    }

    /// One element of `m`. An element that is well-formed JSON but not an envelope (not an object, no string `c`)
    /// is kept as unreadable rather than failing the answer; nil only when the text is not JSON at all.
    ///
    /// A readable envelope is scanned once; only an element that is not one is skipped again from its start, for its
    /// extent (a second pass over every envelope was a tenth of a delivered message's instructions).
    private static func scanEnvelope(_ scanner: inout JSONScanner, names: inout Set<String>) -> SubscribeEnvelope? {
        let before = scanner
        let isObject = scanner.peek() == UInt8(ascii: "{")
        let start = scanner.index
        var envelope = SubscribeEnvelope(range: start..<start)
        var channel: String?
        var unreadable = false
        let read =
            isObject
            && scanner.readObject { key, scanner in
                // Every key the envelope reads is one letter: matched by its byte, not by comparing strings (eight
                // keys a message, each compared with up to eight names, cost about 900 instructions).
                var utf8 = key.utf8.makeIterator()
                let letter = utf8.next().flatMap { first in utf8.next() == nil ? first : nil } ?? 0
                // The optional fields must have their type when present (null counts as absent): a wrong one makes
                // the envelope unreadable (reported with 127 like an undecodable payload), never a value of another
                // type.
                if letter == UInt8(ascii: "b") || letter == UInt8(ascii: "i") || letter == UInt8(ascii: "p"),
                    scanner.peek() == UInt8(ascii: "n")
                {
                    return scanner.skipValue() != nil
                }
                switch letter {
                case UInt8(ascii: "c"):
                    channel = scanner.readString()
                    if channel == nil { unreadable = true }
                    return channel != nil || scanner.skipValue() != nil
                case UInt8(ascii: "b"):
                    envelope.subscription = scanner.readString().map { names.insert($0).memberAfterInsert }
                    if envelope.subscription == nil { unreadable = true }
                    return envelope.subscription != nil || scanner.skipValue() != nil
                case UInt8(ascii: "i"):
                    envelope.publisher = scanner.readString().map { names.insert($0).memberAfterInsert }
                    if envelope.publisher == nil { unreadable = true }
                    return envelope.publisher != nil || scanner.skipValue() != nil
                case UInt8(ascii: "d"):
                    envelope.payload = scanner.skipValue()
                    return envelope.payload != nil
                case UInt8(ascii: "p"):
                    guard scanner.peek() == UInt8(ascii: "{") else {
                        unreadable = true
                        return scanner.skipValue() != nil
                    }
                    return scanner.readObject { key, scanner in
                        guard key == "t" else { return scanner.skipValue() != nil }
                        if let token = Self.scanTimetoken(&scanner) {
                            envelope.publishTimetoken = token
                            return true
                        }
                        unreadable = true
                        return scanner.skipValue() != nil
                    }
                default:
                    return scanner.skipValue() != nil
                }
            }
        if read, !unreadable, let channel {
            // Every member was consumed whole: the scanner is right after the object.
            envelope.range = start..<scanner.index
            envelope.channel = names.insert(channel).memberAfterInsert
            return envelope
        }
        // Whatever went wrong inside, the element's extent is that of the value there: continue after it.
        scanner = before
        guard let range = scanner.skipValue() else { return nil }
        return SubscribeEnvelope(range: range)
    }

    /// A timetoken given as a JSON string or a number, read as `UInt64` (never through `Double`).
    private static func scanTimetoken(_ scanner: inout JSONScanner) -> UInt64? {
        if scanner.peek() == UInt8(ascii: "\"") {
            return scanner.readString().flatMap { UInt64($0) }
        }
        return scanner.readNumberText().flatMap { UInt64($0) }
    }

    // MARK: - History

    /// v2 history → `[[messages], start, end]` with numeric (or string) tokens; each message decoded on its own.
    static func history(_ response: TransportResponse) -> Result<HistoryResponse, ResponseFailure> {
        if (200..<300).contains(response.status), let parsed = Self.scanHistory(response.body) {
            return .success(parsed)
        }
        return Self.json(from: response).flatMap { _ in .failure(.malformedJSON) }
    }

    private static func scanHistory(_ body: Data) -> HistoryResponse? {
        let scanned = body.withUnsafeBytes { bytes -> (ranges: [Range<Int>], start: UInt64, end: UInt64)? in
            var scanner = JSONScanner(bytes)
            var ranges: [Range<Int>]?
            var tokens: [UInt64] = []
            var position = 0
            let readable = scanner.readArray { scanner in
                defer { position += 1 }
                switch position {
                case 0:
                    var list: [Range<Int>] = []
                    let ok = scanner.readArray { scanner in
                        guard let range = scanner.skipValue() else { return false }
                        list.append(range)
                        return true
                    }
                    ranges = list
                    return ok
                case 1, 2:
                    guard let token = Self.scanTimetoken(&scanner) else { return false }
                    tokens.append(token)
                    return true
                default:
                    return false
                }
            }
            guard readable, scanner.isAtEnd(), let ranges, tokens.count == 2 else { return nil }
            return (ranges, tokens[0], tokens[1])
        }
        guard let scanned else { return nil }
        return HistoryResponse(
            messages: scanned.ranges.map { Self.decodePayload(body, $0) },
            start: scanned.start,
            end: scanned.end
        )
    }

    // MARK: - Payloads

    /// The payload at `range` of `body` (offsets from `body.startIndex`) decoded with fragments allowed; `NSNull`
    /// when there is none; its raw text when the platform cannot decode it. `JSONPayloadDecoder` decodes the
    /// payloads it is sure about to the very values `JSONSerialization` returns, faster; the rest go to
    /// `JSONSerialization`.
    static func decodePayload(_ body: Data, _ range: Range<Int>?) -> DecodedPayload {
        guard let range else { return .value(NSNull()) }
        let decoded = body.withUnsafeBytes { JSONPayloadDecoder.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }
        if let decoded { return .value(decoded) }
        let bytes = body.subdata(in: (body.startIndex + range.lowerBound)..<(body.startIndex + range.upperBound))
        if let value = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]) {
            return .value(value)
        }
        if let text = String(data: bytes, encoding: .utf8) {
            return .undecodable(text: text, reason: .notRepresentable)
        }
        return .undecodable(text: String(decoding: bytes, as: UTF8.self), reason: .notUTF8)
    }

    /// The text at `range` of `body`, invalid UTF-8 replaced by U+FFFD.
    static func text(of body: Data, _ range: Range<Int>) -> String {
        let start = body.startIndex
        return String(decoding: body[(start + range.lowerBound)..<(start + range.upperBound)], as: UTF8.self)
    }
}
