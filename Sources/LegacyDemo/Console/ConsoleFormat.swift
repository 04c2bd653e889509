import Foundation
import PubNubLegacy

/// How the console writes the values events carry, so every line is stable and greppable: `key=value` pairs,
/// strings as JSON strings, payloads as compact JSON with sorted keys, channel lists sorted and comma-separated.
enum ConsoleFormat {
    /// `a,b,c` (sorted: 3.4 reports channel sets in no particular order), or `-` for none.
    static func channels(_ channels: [PNChannel]?) -> String {
        guard let channels, !channels.isEmpty else { return "-" }
        return channels.map(\.name).sorted().joined(separator: ",")
    }

    /// `error=CODE description="…"`, or `error=-`; with ` cause="…"` (the failure reason) when the error wraps a
    /// system error: a connection failure then says what failed — a name that did not resolve, a refused
    /// connection, a timeout, TLS — where 3.4's description says only "connection failed".
    static func error(_ error: PNError?) -> String {
        guard let error else { return "error=-" }
        let text = "error=\(error.code) description=\(self.quoted(error.localizedDescription))"
        guard error.underlyingError != nil else { return text }
        return text + " cause=\(self.quoted(error.localizedFailureReason))"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        self.json(text)
    }

    /// `value` as compact JSON with sorted keys; values JSON cannot express are shown quoted as Swift prints them.
    static func json(_ value: Any?) -> String {
        guard let value else { return "null" }
        let options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
        if JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: value, options: options)
        {
            return String(decoding: data, as: UTF8.self)
        }
        return self.json("\(value)")
    }

    /// An outgoing message: its channel and the JSON text that goes on the wire.
    static func outgoing(_ message: PNMessage?) -> String {
        guard let message else { return "channel=- message=-" }
        let text = (message.message as? String) ?? self.json(message.message)
        return "channel=\(message.channel?.name ?? "-") message=\(text)"
    }

    /// An incoming message: its channel and decoded payload (as JSON).
    static func incoming(_ message: PNMessage) -> String {
        "channel=\(message.channel?.name ?? "-") message=\(self.json(message.message))"
    }

    /// A presence event: channel, action, uuid and occupancy.
    static func presence(_ event: PNPresenceEvent) -> String {
        let type: String
        switch event.type {
        case .PNPresenceEventJoin: type = "join"
        case .PNPresenceEventLeave: type = "leave"
        case .PNPresenceEventTimeout: type = "timeout"
        }
        return
            "channel=\(event.channel?.name ?? "-") type=\(type) uuid=\(event.uuid ?? "-") occupancy=\(event.occupancy)"
    }

    /// A history page: channel, bounds, count and the payloads (as a JSON array).
    static func history(_ messages: [PNMessage]?, _ channel: PNChannel?, _ start: PNDate?, _ end: PNDate?) -> String {
        let payloads = "[" + (messages ?? []).map { self.json($0.message) }.joined(separator: ",") + "]"
        return "channel=\(channel?.name ?? "-") start=\(self.token(start)) end=\(self.token(end))"
            + " count=\(messages?.count ?? 0) messages=\(payloads)"
    }

    /// A participants list: channel, count and uuids (sorted).
    static func participants(_ uuids: [String]?, _ channel: PNChannel?) -> String {
        let list = (uuids ?? []).sorted()
        return
            "channel=\(channel?.name ?? "-") count=\(list.count) uuids=\(list.isEmpty ? "-" : list.joined(separator: ","))"
    }

    /// A subscription process state as a word.
    static func state(_ state: PNSubscriptionProcessState) -> String {
        switch state {
        case .PNSubscriptionProcessNotSubscribedState: "not-subscribed"
        case .PNSubscriptionProcessSubscribedState: "subscribed"
        case .PNSubscriptionProcessWillRestoreState: "will-restore"
        case .PNSubscriptionProcessRestoredState: "restored"
        }
    }

    /// A message-processing state and its object (the PNMessage, or the PNError with the message it carries).
    static func processing(_ state: PNMessageState, _ object: Any?) -> String {
        switch state {
        case .PNMessageSending: "state=sending \(self.outgoing(object as? PNMessage))"
        case .PNMessageSent: "state=sent \(self.outgoing(object as? PNMessage))"
        case .PNMessageSendingError:
            "state=error \(self.outgoing((object as? PNError)?.associatedObject as? PNMessage))"
                + " \(self.error(object as? PNError))"
        }
    }

    /// A time token as digits, or `-`.
    static func token(_ date: PNDate?) -> String {
        date.map { String($0.timeTokenValue) } ?? "-"
    }

    /// The channels an error carries in its associated object (failed subscribe, presence or push calls).
    static func associatedChannels(_ error: PNError) -> String {
        if let channels = error.associatedObject as? [PNChannel] { return self.channels(channels) }
        if let channel = error.associatedObject as? PNChannel { return channel.name }
        return "-"
    }
}
