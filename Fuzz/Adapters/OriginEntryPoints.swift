// The LocalOrigin internals the origin harnesses reach, in one place: when a parser's entry point changes, this is
// the file to re-point; the harnesses only speak these types.

import Foundation

@testable import LocalOrigin

enum OriginEntryPoints {
    /// What a connection made of one byte stream: the requests in order, then how it stopped.
    struct Stream: Equatable {
        var requests: [String] = []
        /// The status of the refusal that ended the stream, nil when it ended waiting for more bytes.
        var failure: Int?
    }

    /// The server's limits, small ones when `small` (so short inputs reach the 413/414/431 paths).
    static func limits(small: Bool) -> HTTPServerLimits {
        small ? HTTPServerLimits(maxRequestLineBytes: 64, maxHeaderBytes: 96, maxBodyBytes: 32) : HTTPServerLimits()
    }

    /// Parses `pieces` the way a connection does: bytes accumulate; after each piece every complete request is
    /// taken off the front; a refusal ends the stream.
    static func parseStream(_ pieces: [ArraySlice<UInt8>], limits: HTTPServerLimits) -> Stream {
        var parser = HTTPParser(limits: limits)
        var buffer: [UInt8] = []
        var stream = Stream()
        for piece in pieces {
            buffer.append(contentsOf: piece)
            while true {
                let result = buffer.withUnsafeBufferPointer { parser.parse($0) }
                switch result {
                case .request(let request, let keepAlive, let consumed):
                    precondition(consumed > 0 && consumed <= buffer.count, "consumed \(consumed) of \(buffer.count)")
                    let headers = request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "|")
                    stream.requests.append(
                        "\(request.method) \(request.target) \(request.version) [\(headers)] "
                            + "\(request.body.count) \(keepAlive)"
                    )
                    buffer.removeFirst(consumed)
                    continue
                case .needMore:
                    break
                case .failure(let error):
                    // The answer the connection would write must be a well-formed JSON error.
                    _ = error.response
                    stream.failure = error.status
                    return stream
                }
                break
            }
        }
        return stream
    }

    /// The origin's JSON parser.
    static func parseJSON(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(bytes)
    }

    /// The verdict of the origin's JSON validator (the publish path's check, which builds nothing).
    static func isValidJSON(_ bytes: [UInt8]) -> Bool {
        JSONValidator.isValid(bytes)
    }

    /// The origin's JSON writer.
    static func serialize(_ value: JSONValue) -> [UInt8] {
        value.serializedBytes
    }

    /// The request-target the parser would produce from `bytes`: only the bytes it lets into a target, decoded as
    /// it decodes them.
    static func requestTarget(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.filter(HTTPBytes.isTargetByte), as: UTF8.self)
    }

    /// How `RequestTarget` splits and decodes `target` differently from the other ways of doing it — split by
    /// `Character` (`init(general:)`), and every parameter decoded at once by the eager decoder
    /// (`RequestTarget.parameters(of:plusIsSpace:)`, which signatures use); nil when all agree.
    static func requestTargetDisagreement(_ target: String) -> String? {
        let split = RequestTarget(target)
        let general = RequestTarget(general: target)
        let eager = RequestTarget.parameters(of: split.rawQuery, plusIsSpace: true)
        if split.rawPath != general.rawPath || split.rawQuery != general.rawQuery || split.segments != general.segments
        {
            return "split differently than by Character"
        }
        for decoded in [split.parameters, general.parameters] {
            if decoded.map(\.name) != eager.pairs.map(\.name) || decoded.map(\.value) != eager.pairs.map(\.value) {
                return "parameters \(decoded) instead of \(eager.pairs)"
            }
        }
        let valid = eager.isValidUTF8 && split.segments.allSatisfy(RequestTarget.decodesToUTF8)
        if split.isValidUTF8 != valid || general.isValidUTF8 != valid { return "UTF-8 verdict is not \(valid)" }
        for name in eager.pairs.map(\.name) + ["callback", "uuid", "K", "a b"] {
            let expected = eager.pairs.first { $0.name == name }?.value
            if split.parameter(name) != expected || general.parameter(name) != expected {
                return "parameter \(name) is not \(expected ?? "absent")"
            }
        }
        return nil
    }

    /// One request as the router sees it.
    struct RoutedRequest {
        var method: String
        var target: String
        var body: [UInt8]
    }

    /// One answer the origin wrote.
    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    /// Routes `requests` through a fresh origin store in order (parked long-polls expire at the end), and returns
    /// every answer written.
    static func route(_ requests: [RoutedRequest]) -> [Answer] {
        var settings = OriginSettings()
        settings.maxChannels = 16
        settings.maxChannelGroups = 4
        settings.maxChannelsPerGroup = 8
        settings.requestLogLimit = 8
        settings.presenceSweepInterval = 0
        let store = OriginStore(settings: settings)
        let sink = DiscardingSink()
        var answers: [Answer] = []
        func collect() {
            for (_, response) in store.takeEffects().answers {
                answers.append(Answer(status: response.status, body: response.body))
            }
        }
        for (index, request) in requests.enumerated() {
            store.now = 1_700_000_000 + Double(index)
            store.uptime = UInt64(index + 1) * 1_000_000_000
            let target = RequestTarget(request.target)
            let exchange = Exchange(
                method: request.method,
                target: request.target,
                sink: sink,
                callback: target.parameter("callback")
            )
            store.route(
                HTTPRequest(method: request.method, target: request.target, body: request.body),
                target,
                exchange
            )
            collect()
        }
        store.now += 1_000_000
        store.uptime = UInt64.max / 2
        store.sweepPresence()
        store.expireDuePolls()
        collect()
        return answers
    }

    /// Whether `body` is one JSON value, or a JSONP call `name(value)` around one.
    static func isJSONOrJSONP(_ body: [UInt8]) -> Bool {
        if JSONParser.parseOrNil(body) != nil { return true }
        guard body.last == UInt8(ascii: ")") else { return false }
        for (index, byte) in body.enumerated() where byte == UInt8(ascii: "(") {
            if JSONParser.parseOrNil(Array(body[(index + 1)..<(body.count - 1)])) != nil { return true }
        }
        return false
    }
}

extension JSONParser {
    fileprivate static func parseOrNil(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(bytes)
    }
}

/// A sink that keeps nothing: the harness reads answers from the store's effects.
private final class DiscardingSink: HTTPResponseSink, @unchecked Sendable {
    // @unchecked: stateless.
    func respond(_ response: HTTPResponse) {}
    func respondRaw(_ bytes: [UInt8], thenClose: Bool) {}
    func close() {}
    var isClosed: Bool { false }
    func onClose(_ handler: @escaping @Sendable () -> Void) {}
}
