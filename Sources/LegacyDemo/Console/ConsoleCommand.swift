import Foundation

/// One line typed at `LegacyDemo console`, parsed (`ConsoleCommand+Parsing.swift`) but not yet run.
///
/// Each case maps to one `PubNub` facade call, written as a 3.x app would write it; `ConsoleCommand.table` names the
/// call for `help`. Parsing is a pure function, so every syntax rule is unit-tested without a client.
enum ConsoleCommand: Equatable {
    /// What `publish` sends: the rest of the line as a string, or a JSON value checked while parsing.
    enum Payload: Equatable {
        case text(String)
        case json(String)
    }

    /// The optional bounds of `history`.
    struct HistoryQuery: Equatable {
        var from: UInt64?
        var to: UInt64?
        var limit: UInt = 0
        var reverse = false
    }

    /// The kinds of unsolicited event `wait` can wait for.
    enum WaitKind: String, Equatable, CaseIterable {
        case message
        case presence
    }

    case help(topic: String?)
    case quit
    case status
    case configShow
    case configOrigin(String)
    case configKeys(publish: String, subscribe: String, secret: String?)
    case configCipher(String?)
    case configAuth(String?)
    case configTLS(Bool)
    case configUUID(String?)
    case delegate(Bool)
    case reset
    case connect
    case disconnect
    case subscribe([String], presenceEvent: Bool)
    case unsubscribe([String], presenceEvent: Bool)
    case subscribed([String])
    case presence(enable: Bool, [String])
    case presenceStatus([String])
    case publish(channel: String, Payload)
    case resend
    case history(channel: String, HistoryQuery)
    case hereNow(String)
    case time
    case pushEnable([String], token: Data)
    case pushDisable([String], token: Data)
    case pushList(token: Data)
    case pushRemove(token: Data)
    case wait(WaitKind, seconds: Double?)

    /// A command's syntax and the facade method(s) it calls, for `help` and for usage lines after a mistake.
    struct Syntax {
        let name: String
        let usage: String
        let calls: String
    }

    /// Every command, in the order `help` lists them. `name` is the first word typed; `config`, `presence` and
    /// `push` have one entry per sub-command.
    static let table: [Syntax] = [
        Syntax(name: "help", usage: "help [COMMAND]", calls: "(console) lists the commands, or one command"),
        Syntax(
            name: "status",
            usage: "status",
            calls: "isConnected(), subscribedChannels(); occupancy from presence events and here-now"
        ),
        Syntax(
            name: "config",
            usage: "config show",
            calls: "the applied PNConfiguration, clientIdentifier()"
        ),
        Syntax(
            name: "config",
            usage: "config origin HOST[:PORT]",
            calls: "setConfiguration(_:) (while connected: hard reset to the new origin)"
        ),
        Syntax(
            name: "config",
            usage: "config keys PUB SUB [SECRET]",
            calls: "setConfiguration(_:) (\"\" for an empty key, which the client refuses with 100)"
        ),
        Syntax(name: "config", usage: "config cipher KEY|off", calls: "setConfiguration(_:) (cipherKey)"),
        Syntax(name: "config", usage: "config auth KEY|off", calls: "setConfiguration(_:) (authorizationKey)"),
        Syntax(name: "config", usage: "config tls on|off", calls: "setConfiguration(_:) (useSecureConnection)"),
        Syntax(
            name: "config",
            usage: "config uuid ID|random",
            calls: "setClientIdentifier(_:) (random: nil, a new UUID)"
        ),
        Syntax(name: "delegate", usage: "delegate on|off", calls: "setDelegate(_:)"),
        Syntax(
            name: "reset",
            usage: "reset",
            calls: "resetClient(), then sharedInstance() and setupWithConfiguration(_:andDelegate:)"
        ),
        Syntax(
            name: "connect",
            usage: "connect",
            calls: "connectWithSuccessBlock(_:errorBlock:) (connect() without blocks)"
        ),
        Syntax(name: "disconnect", usage: "disconnect", calls: "disconnect()"),
        Syntax(
            name: "subscribe",
            usage: "subscribe CH[,CH...] [--presence]",
            calls: "subscribeOnChannels(_:withPresenceEvent:andCompletionHandlingBlock:) (the other subscribe"
                + " variants funnel into it). --presence is withPresenceEvent YES: a handshake, so the origin"
                + " announces your join to whoever watches CH's presence; without it CH joins the running long-poll."
                + " Neither shows presence events here: that is `presence on CH`"
        ),
        Syntax(
            name: "unsubscribe",
            usage: "unsubscribe CH[,CH...] [--presence]",
            calls: "unsubscribeFromChannels(_:withPresenceEvent:andCompletionHandlingBlock:) (the other unsubscribe"
                + " variants funnel into it); --presence sends a leave, so presence watchers see you go"
        ),
        Syntax(
            name: "subscribed",
            usage: "subscribed [CH...]",
            calls: "subscribedChannels(), or isSubscribedOnChannel(_:) per channel"
        ),
        Syntax(
            name: "presence",
            usage: "presence on|off CH[,CH...]",
            calls: "enablePresenceObservationForChannels(_:withCompletionHandlingBlock:) /"
                + " disablePresenceObservationForChannels(_:withCompletionHandlingBlock:) (the other presence variants"
                + " funnel into them). on: subscribes to CH's presence channel (CH-pnpres), so every join, leave and"
                + " timeout on CH is printed (didReceivePresenceEvent; `wait presence`) and the status line shows CH's"
                + " occupancy; off: stops that"
        ),
        Syntax(
            name: "presence",
            usage: "presence status CH[,CH...]",
            calls: "isPresenceObservationEnabledForChannel(_:)"
        ),
        Syntax(
            name: "publish",
            usage: "publish CH TEXT | publish CH --json JSON",
            calls: "sendMessage(_:toChannel:withCompletionBlock:) (sendMessage(_:toChannel:) without block)"
        ),
        Syntax(
            name: "resend",
            usage: "resend",
            calls: "sendMessage(_:withCompletionBlock:) with the last PNMessage published (sendMessage(_:) without"
                + " block)"
        ),
        Syntax(
            name: "history",
            usage: "history CH [--from T] [--to T] [--limit N] [--reverse]",
            calls: "requestHistoryForChannel(_:from:to:limit:reverseHistory:withCompletionBlock:) (the other history"
                + " variants funnel into it); T is a time token"
        ),
        Syntax(
            name: "herenow",
            usage: "herenow CH [--uuids]",
            calls: "requestParticipantsListForChannel(_:withCompletionBlock:) (requestParticipantsListForChannel(_:)"
                + " without block); the uuids are"
                + " always listed, 3.4 has no --state"
        ),
        Syntax(
            name: "time",
            usage: "time",
            calls: "requestServerTimeTokenWithCompletionBlock(_:) (requestServerTimeToken() without block)"
        ),
        Syntax(
            name: "push",
            usage: "push enable|disable CH[,CH...] TOKEN",
            calls: "enablePushNotificationsOnChannels(_:withDevicePushToken:andCompletionHandlingBlock:) /"
                + " disablePushNotificationsOnChannels(…) (the other push variants funnel into them); TOKEN is"
                + " hexadecimal"
        ),
        Syntax(
            name: "push",
            usage: "push list TOKEN",
            calls: "requestPushNotificationEnabledChannelsForDevicePushToken(_:withCompletionHandlingBlock:)"
        ),
        Syntax(
            name: "push",
            usage: "push remove TOKEN",
            calls: "removeAllPushNotificationsForDevicePushToken(_:withCompletionHandlingBlock:)"
        ),
        Syntax(
            name: "wait",
            usage: "wait message|presence [SECONDS]",
            calls: "(console) reports the oldest message / presence event no wait reported yet — one that already"
                + " arrived, or the next within SECONDS (default 10)"
        ),
        Syntax(name: "quit", usage: "quit | exit", calls: "(console) disconnect() if connected, then exit 0"),
    ]

    /// The names a user might try for APIs that PubNub 3.4 does not have: a clear answer instead of "unknown".
    static let missingFromThreePointFour: [String: String] = [
        "wherenow": "where-now",
        "state": "presence state",
        "grant": "access manager (grant/audit/revoke)",
        "audit": "access manager (grant/audit/revoke)",
        "revoke": "access manager (grant/audit/revoke)",
        "group": "channel groups",
    ]

    /// The usage lines of every command called `name` (several for `config`, `presence`, `push`).
    static func usage(of name: String) -> String {
        let lines = Self.table.filter { $0.name == name }.map(\.usage)
        return lines.isEmpty ? "type \"help\" for the list of commands" : lines.joined(separator: " | ")
    }

    /// The `help` text: every command with its syntax and the facade method it calls, or only those named `topic`.
    static func helpText(topic: String? = nil) -> [String] {
        let entries = Self.table.filter { topic == nil || $0.name == topic }
        guard !entries.isEmpty else { return ["no command \"\(topic ?? "")\"; type \"help\" for the list"] }
        let width = entries.map(\.usage.count).max() ?? 0
        var lines = entries.map { $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  → " + $0.calls }
        if topic == nil {
            lines += [
                "Channels are comma-separated; a line starting with # is a comment. Each command waits for its outcome"
                    + " (at most --timeout seconds) before the next line is read.",
                "Events are printed once per channel they came through: [delegate] PNDelegate, [observer]"
                    + " PNObservationCenter, [notification] NotificationCenter, [block] the command's completion block.",
            ]
        }
        return lines
    }
}
