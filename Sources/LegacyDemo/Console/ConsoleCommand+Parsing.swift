import Foundation
import PubNubLegacy

/// A line `LegacyDemo console` cannot run: the session prints `error: message` and `usage: usage`, and goes on.
struct ConsoleParseError: Error, Equatable {
    let message: String
    let usage: String
}

extension ConsoleCommand {
    /// Parses one input line. Blank lines and lines starting with `#` give nil; anything else is a command or a
    /// `ConsoleParseError` naming the mistake and the command's usage. Pure: it touches no client.
    static func parse(_ line: String) throws(ConsoleParseError) -> ConsoleCommand? {
        var words = Words(line)
        guard let name = words.next(), !name.hasPrefix("#") else { return nil }
        let fail = { (message: String) in ConsoleParseError(message: message, usage: Self.usage(of: name)) }
        switch name {
        case "help", "?":
            let topic = words.next()
            try Self.expectEnd(&words, fail)
            return .help(topic: topic)
        case "quit", "exit":
            try Self.expectEnd(&words, fail)
            return .quit
        case "status", "connect", "disconnect", "reset", "time", "resend":
            try Self.expectEnd(&words, fail)
            let simple: [String: ConsoleCommand] = [
                "status": .status, "connect": .connect, "disconnect": .disconnect, "reset": .reset, "time": .time,
                "resend": .resend,
            ]
            return simple[name]
        case "config":
            return try Self.parseConfig(&words, fail)
        case "delegate":
            let on = try Self.onOff(words.next(), fail)
            try Self.expectEnd(&words, fail)
            return .delegate(on)
        case "subscribe", "unsubscribe":
            var channels: [String] = []
            var presenceEvent = false
            while let word = words.next() {
                if word == "--presence" {
                    presenceEvent = true
                } else if word.hasPrefix("--") {
                    throw fail("unknown option \(word)")
                } else {
                    channels.append(word)
                }
            }
            let names = try Self.channelNames(channels, fail)
            return name == "subscribe"
                ? .subscribe(names, presenceEvent: presenceEvent) : .unsubscribe(names, presenceEvent: presenceEvent)
        case "subscribed":
            let rest = words.rest()
            return .subscribed(rest.isEmpty ? [] : try Self.channelNames(rest, fail))
        case "presence":
            return try Self.parsePresence(&words, fail)
        case "publish":
            return try Self.parsePublish(&words, fail)
        case "history":
            return try Self.parseHistory(&words, fail)
        case "herenow":
            guard let channel = words.next(), !channel.hasPrefix("--") else { throw fail("herenow needs a channel") }
            while let option = words.next() {
                switch option {
                case "--uuids":
                    continue  // 3.4's here-now always lists the uuids.
                case "--state":
                    throw fail("--state: PubNub 3.4's here-now reports no presence state")
                default:
                    throw fail("unexpected \"\(option)\"")
                }
            }
            return .hereNow(try Self.channelNames([channel], fail)[0])
        case "push":
            return try Self.parsePush(&words, fail)
        case "wait":
            return try Self.parseWait(&words, fail)
        default:
            if let missing = Self.missingFromThreePointFour[name] {
                throw ConsoleParseError(
                    message: "\(name): PubNub 3.4 has no \(missing) API, so the facade offers no call for it",
                    usage: Self.usage(of: name)
                )
            }
            throw ConsoleParseError(message: "unknown command \"\(name)\"", usage: Self.usage(of: name))
        }
    }

    // MARK: - Sub-commands

    private static func parseConfig(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> ConsoleCommand {
        guard let setting = words.next() else { throw fail("config needs a setting") }
        let command: ConsoleCommand
        switch setting {
        case "show":
            command = .configShow
        case "origin":
            guard let address = words.next() else { throw fail("config origin needs HOST[:PORT]") }
            guard let origin = Self.originAddress(address) else {
                throw fail("config origin takes HOST[:PORT], without scheme or path")
            }
            command = .configOrigin(origin)
        case "keys":
            guard let publish = words.next(), let subscribe = words.next() else {
                throw fail("config keys needs a publish and a subscribe key")
            }
            // `""` stands for an empty key, which the client refuses with error 100.
            let literal = { (word: String) in word == "\"\"" ? "" : word }
            command = .configKeys(
                publish: literal(publish),
                subscribe: literal(subscribe),
                secret: words.next().map(literal)
            )
        case "cipher", "auth":
            guard let key = words.next() else { throw fail("config \(setting) needs a key or off") }
            let value = key == "off" ? nil : key
            command = setting == "cipher" ? .configCipher(value) : .configAuth(value)
        case "tls":
            command = .configTLS(try Self.onOff(words.next(), fail))
        case "uuid":
            guard let identifier = words.next() else { throw fail("config uuid needs an identifier or random") }
            command = .configUUID(identifier == "random" ? nil : identifier)
        default:
            throw fail("unknown setting \"\(setting)\"")
        }
        try Self.expectEnd(&words, fail)
        return command
    }

    private static func parsePresence(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> ConsoleCommand {
        let action = words.next()
        let channels = words.rest()
        switch action {
        case "on", "off":
            return .presence(enable: action == "on", try Self.channelNames(channels, fail))
        case "status":
            return .presenceStatus(try Self.channelNames(channels, fail))
        default:
            throw fail(action.map { "unknown presence action \"\($0)\"" } ?? "presence needs on, off or status")
        }
    }

    private static func parsePublish(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> ConsoleCommand {
        guard let channel = words.next() else { throw fail("publish needs a channel and a message") }
        let name = try Self.channelNames([channel], fail)[0]
        var text = words.remainder()
        if text.hasPrefix("--json") && (text.count == 6 || text.dropFirst(6).first?.isWhitespace == true) {
            text = String(text.dropFirst(6)).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { throw fail("publish --json needs a JSON value") }
            guard
                (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
            else {
                throw fail("invalid JSON: \(text) (nothing was sent)")
            }
            return .publish(channel: name, .json(text))
        }
        guard !text.isEmpty else { throw fail("publish needs a message after the channel") }
        return .publish(channel: name, .text(text))
    }

    private static func parseHistory(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> ConsoleCommand {
        guard let channel = words.next(), !channel.hasPrefix("--") else { throw fail("history needs a channel") }
        var query = HistoryQuery()
        while let option = words.next() {
            switch option {
            case "--from", "--to":
                guard let text = words.next(), let token = UInt64(text) else {
                    throw fail("\(option) needs a time token (a whole number)")
                }
                if option == "--from" { query.from = token } else { query.to = token }
            case "--limit":
                guard let text = words.next(), let limit = UInt(text) else {
                    throw fail("--limit needs a whole number (0 = 100)")
                }
                query.limit = limit
            case "--reverse":
                query.reverse = true
            default:
                throw fail("unknown option \(option)")
            }
        }
        return .history(channel: try Self.channelNames([channel], fail)[0], query)
    }

    private static func parsePush(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> ConsoleCommand {
        let action = words.next()
        switch action {
        case "enable", "disable":
            guard let channels = words.next(), let tokenText = words.next() else {
                throw fail("push \(action ?? "") needs channels and a device token")
            }
            try Self.expectEnd(&words, fail)
            let names = try Self.channelNames([channels], fail)
            let token = try Self.deviceToken(tokenText, fail)
            return action == "enable" ? .pushEnable(names, token: token) : .pushDisable(names, token: token)
        case "list", "remove":
            guard let tokenText = words.next() else { throw fail("push \(action ?? "") needs a device token") }
            try Self.expectEnd(&words, fail)
            let token = try Self.deviceToken(tokenText, fail)
            return action == "list" ? .pushList(token: token) : .pushRemove(token: token)
        default:
            throw fail(action.map { "unknown push action \"\($0)\"" } ?? "push needs enable, disable, list or remove")
        }
    }

    private static func parseWait(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> ConsoleCommand {
        guard let kindText = words.next(), let kind = WaitKind(rawValue: kindText) else {
            throw fail("wait needs message or presence")
        }
        var seconds: Double?
        if let text = words.next() {
            guard let value = Seconds.parse(text) else {
                throw fail("wait takes \(Seconds.range)")
            }
            seconds = value
        }
        try Self.expectEnd(&words, fail)
        return .wait(kind, seconds: seconds)
    }

    // MARK: - Pieces

    /// Channel names from words that each hold one name or a comma-separated list: no empty names, no repeats,
    /// in the order given. Names the client refuses (with `/`) are left for the client to report, as a 3.x app
    /// would see them refused.
    static func channelNames(
        _ words: [String],
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) -> [String] {
        var names: [String] = []
        for word in words {
            for part in word.split(separator: ",") where !names.contains(String(part)) {
                names.append(String(part))
            }
        }
        guard !names.isEmpty else { throw fail("needs at least one channel") }
        return names
    }

    /// `HOST[:PORT]` without scheme, path or white space; nil otherwise.
    static func originAddress(_ text: String) -> String? {
        guard !text.isEmpty, !text.contains("/"), !text.contains(where: \.isWhitespace) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2 {
            guard let port = UInt16(parts[1]), port > 0 else { return nil }
        }
        return text
    }

    /// The bytes of a device push token written in hexadecimal (an even number of digits, at least two).
    static func deviceToken(_ text: String, _ fail: (String) -> ConsoleParseError) throws(ConsoleParseError) -> Data {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else {
            throw fail("a device token is an even number of hexadecimal digits")
        }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw fail("a device token is an even number of hexadecimal digits")
            }
            bytes.append(byte)
        }
        return Data(bytes)
    }

    private static func onOff(_ word: String?, _ fail: (String) -> ConsoleParseError) throws(ConsoleParseError) -> Bool
    {
        switch word {
        case "on": return true
        case "off": return false
        default: throw fail("expected on or off")
        }
    }

    private static func expectEnd(
        _ words: inout Words,
        _ fail: (String) -> ConsoleParseError
    ) throws(ConsoleParseError) {
        if let extra = words.next() { throw fail("unexpected \"\(extra)\"") }
    }
}

/// The white-space separated words of a line, read front to back, with the untouched rest of the line on demand
/// (a published text keeps its own spacing).
extension ConsoleCommand {
    /// `line` as the session echoes it: the key words of `config keys PUB SUB SECRET`, `config cipher KEY` and
    /// `config auth KEY` replaced by their redacted form (`SecretText`), every other line unchanged.
    static func redactingKeys(_ line: String) -> String {
        var reader = Words(line)
        var words = reader.rest()
        guard words.count >= 3, words[0] == "config" else { return line }
        let secretIndex: Int
        switch words[1] {
        case "keys": secretIndex = 4
        case "cipher", "auth": secretIndex = 2
        default: return line
        }
        guard secretIndex < words.count, words[secretIndex] != "off", words[secretIndex] != "\"\"" else { return line }
        words[secretIndex] = SecretText.redacted(words[secretIndex])
        return words.joined(separator: " ")
    }
}

struct Words {
    private var remaining: Substring

    init(_ line: String) {
        self.remaining = Substring(line)
    }

    /// The next word, or nil at the end of the line.
    mutating func next() -> String? {
        self.remaining = self.remaining.drop(while: \.isWhitespace)
        guard !self.remaining.isEmpty else { return nil }
        let word = self.remaining.prefix(while: { !$0.isWhitespace })
        self.remaining = self.remaining.dropFirst(word.count)
        return String(word)
    }

    /// Every remaining word.
    mutating func rest() -> [String] {
        var words: [String] = []
        while let word = self.next() { words.append(word) }
        return words
    }

    /// The rest of the line, without leading and trailing white space.
    mutating func remainder() -> String {
        defer { self.remaining = "" }
        return self.remaining.trimmingCharacters(in: .whitespaces)
    }
}
