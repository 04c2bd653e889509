// The exchanges with the real PubNub service that its SDKs recorded for their integration tests,
// `Tests/Recordings/service-exchanges.json` (converted by `Scripts/convert-recordings.py`; Tests/Recordings/README.md
// says from where and how). LocalOrigin's replay checks its answers against them; the client's replay feeds it the
// recorded answers. Read with `JSONDecoder` into `RecordedJSON`, a value independent of both parsers under test.

import Foundation
import Testing

/// One recorded exchange: where it came from, the request, and the service's answer.
public struct RecordedExchange: Decodable, Sendable, CustomTestStringConvertible {
    /// `endpoint/NNN`, unique in the fixture.
    public let id: String
    /// `time`, `publish`, `subscribe`, `leave`, `heartbeat`, `here-now`, `here-now-global`, `where-now`,
    /// `state-get`, `state-set`, `history-v2`, `history-v3`, `channel-groups`, `push-v1`, `push-v2`.
    public let endpoint: String
    /// `python` or `ruby`: the SDK repository that recorded it (`RecordedExchanges.sources`).
    public let source: String
    /// The cassette, relative to the source's fixture folder.
    public let file: String
    /// The exchange's position in the cassette.
    public let at: Int
    /// The date of the recording (`YYYY-MM-DD`).
    public let recorded: String
    /// How many recordings were equal to this one once timetokens were masked.
    public let alike: Int
    /// `GET` or `POST`.
    public let method: String
    /// The request target with `{pub}` and `{sub}` for the service's keys.
    public let target: String
    /// The request body, when there was one.
    public let body: String?
    /// The HTTP status of the answer.
    public let status: Int
    /// The answer's `Content-Type`, `Cache-Control` and `Access-Control-*` headers, names lowercased.
    public let headers: [String: String]
    /// The answer's body, with `{sub}` in its `k` / `subscribe_key` fields.
    public let answer: String
    /// The answer parsed (nil when it is not JSON), once.
    public let answerJSON: RecordedJSON?

    private enum CodingKeys: String, CodingKey {
        case id, endpoint, source, file, at, recorded, alike, method, target, body, status, headers, answer
    }

    /// Reads an exchange of the fixture and parses its answer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            endpoint: try container.decode(String.self, forKey: .endpoint),
            source: try container.decode(String.self, forKey: .source),
            file: try container.decode(String.self, forKey: .file),
            at: try container.decode(Int.self, forKey: .at),
            recorded: try container.decode(String.self, forKey: .recorded),
            alike: try container.decode(Int.self, forKey: .alike),
            method: try container.decode(String.self, forKey: .method),
            target: try container.decode(String.self, forKey: .target),
            body: try container.decodeIfPresent(String.self, forKey: .body),
            status: try container.decode(Int.self, forKey: .status),
            headers: try container.decode([String: String].self, forKey: .headers),
            answer: try container.decode(String.self, forKey: .answer)
        )
    }

    private init(
        id: String,
        endpoint: String,
        source: String,
        file: String,
        at: Int,
        recorded: String,
        alike: Int,
        method: String,
        target: String,
        body: String?,
        status: Int,
        headers: [String: String],
        answer: String
    ) {
        self.id = id
        self.endpoint = endpoint
        self.source = source
        self.file = file
        self.at = at
        self.recorded = recorded
        self.alike = alike
        self.method = method
        self.target = target
        self.body = body
        self.status = status
        self.headers = headers
        self.answer = answer
        self.answerJSON = RecordedJSON.parse(answer)
    }

    /// The same exchange with another answer, status or headers (what a documented difference makes of it).
    public func replacing(
        answer: String? = nil,
        status: Int? = nil,
        headers: [String: String]? = nil
    ) -> RecordedExchange {
        RecordedExchange(
            id: self.id,
            endpoint: self.endpoint,
            source: self.source,
            file: self.file,
            at: self.at,
            recorded: self.recorded,
            alike: self.alike,
            method: self.method,
            target: self.target,
            body: self.body,
            status: status ?? self.status,
            headers: headers ?? self.headers,
            answer: answer ?? self.answer
        )
    }

    /// Where the exchange came from, for messages: `id (source file#at, recorded)`.
    public var provenance: String { "\(self.id) (\(self.source) \(self.file)#\(self.at), \(self.recorded))" }

    /// The target's decoded query parameters in order (`+` read as a space, as the service reads it).
    public var parameters: [(name: String, value: String)] { Self.queryParameters(of: self.target) }

    /// The decoded query parameters of request target `target` in order (`+` read as a space).
    public static func queryParameters(of target: String) -> [(name: String, value: String)] {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The first value of query parameter `name`.
    public func parameter(_ name: String) -> String? {
        self.parameters.first { $0.name == name }?.value
    }

    /// The path's segments, still percent-encoded.
    public var pathSegments: [Substring] {
        let path = self.target.split(separator: "?", maxSplits: 1).first ?? ""
        return path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    /// The exchange in test results: its provenance.
    public var testDescription: String { self.provenance }
}

/// The fixture file.
public struct RecordedExchanges: Decodable, Sendable {
    /// One SDK repository the recordings were taken from.
    public struct Source: Decodable, Sendable {
        /// `github.com/pubnub/NAME`.
        public let repository: String
        /// The commit the cassettes were read at.
        public let commit: String
        /// The cassettes' folder in the repository.
        public let root: String
    }

    /// What the file says about itself.
    public let about: String
    /// `python` and `ruby` → repository, commit and fixture folder.
    public let sources: [String: Source]
    /// How many recorded exchanges of LocalOrigin's endpoints the conversion read.
    public let recorded: Int
    /// What the conversion left out, and how many.
    public let excluded: [String: Int]
    /// The exchanges, by endpoint.
    public let exchanges: [RecordedExchange]

    /// The fixture, read once from `Tests/Recordings/service-exchanges.json` next to this file's folder.
    public static let shared: RecordedExchanges = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Recordings/service-exchanges.json")
        do {
            return try JSONDecoder().decode(RecordedExchanges.self, from: Data(contentsOf: url))
        } catch {
            preconditionFailure("cannot read \(url.path): \(error)")
        }
    }()

    /// The exchanges of `endpoint`.
    public func exchanges(of endpoint: String) -> [RecordedExchange] {
        self.exchanges.filter { $0.endpoint == endpoint }
    }
}

/// A JSON value as `JSONDecoder` reads it: numbers kept as integers when they are (17-digit timetokens exactly),
/// objects as dictionaries (their key order is not part of an answer).
public indirect enum RecordedJSON: Decodable, Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([RecordedJSON])
    case object([String: RecordedJSON])

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([RecordedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: RecordedJSON].self))
        }
    }

    /// `text` parsed (a JSONP wrapper removed first), or nil when it is not JSON.
    public static func parse(_ text: String) -> RecordedJSON? {
        var inner = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if let open = inner.firstIndex(of: "("), inner.hasSuffix(")"),
            inner[..<open].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }),
            open != inner.startIndex
        {
            inner = inner[inner.index(after: open)..<inner.index(before: inner.endIndex)]
        }
        return try? JSONDecoder().decode(RecordedJSON.self, from: Data(inner.utf8))
    }

    /// The member `key` of an object.
    public subscript(key: String) -> RecordedJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The elements of an array.
    public var elements: [RecordedJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object.
    public var members: [String: RecordedJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A string's text.
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// An integer's value (also a string of digits, as timetokens are sent either way).
    public var integer: Int64? {
        switch self {
        case .int(let value): return value
        case .string(let text): return Int64(text)
        default: return nil
        }
    }

    /// The value as compact JSON text (object keys sorted), for messages and for re-publishing a payload.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let text):
            let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            let pairs = members.keys.sorted().map { key in
                RecordedJSON.string(key).description + ":" + (members[key] ?? .null).description
            }
            return "{" + pairs.joined(separator: ",") + "}"
        }
    }
}
