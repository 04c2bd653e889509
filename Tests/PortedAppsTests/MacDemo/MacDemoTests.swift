import Foundation
import LocalOrigin
import PNObservation
import PubNubLegacy
import TestSupport
import Testing

/// The 3.4.2 Mac OS X demo (`TAAppDelegate`), ported by the rule, driven against LocalOrigin: what its log shows
/// for each flow, through the delegate, the observation center and the completion blocks it uses.
@Suite(.serialized, .sharedProcessState) @MainActor struct MacDemoTests {
    /// Launches the app as AppKit would, with its log captured; `body` runs the flow; then the app's observers go
    /// away with it and the environment is torn down.
    static func withApp(
        probeInterval: TimeInterval? = nil,
        _ body: (TAAppDelegate, AppLog, PortedAppEnvironment) async throws -> Void
    ) async throws {
        let environment = try PortedAppEnvironment(probeInterval: probeInterval)
        let app = TAAppDelegate()
        let log = AppLog([app])
        defer {
            let center = PNObservationCenter.defaultCenter()
            center.removeClientConnectionStateObserver(app)
            center.removeClientChannelSubscriptionStateObserver(app)
            center.removeMessageReceiveObserver(app)
            center.removePresenceEventObserver(app)
            log.stop()
            environment.tearDown()
        }
        try await body(app, log, environment)
    }

    static func launch(_ app: TAAppDelegate) {
        app.applicationDidFinishLaunching(
            Notification(name: Notification.Name("NSApplicationDidFinishLaunchingNotification"))
        )
    }

    @Test func launchConnectsSubscribesPublishesAndReadsBackHistoryAndParticipants() async throws {
        try await Self.withApp { app, log, environment in
            let origin = environment.origin.address
            Self.launch(app)
            // The history (after the message came back) and the here-now (2 s after subscribing) are independent.
            try await log.waitForLine(startingWith: "> {", within: 20)
            try await log.waitForLine(startingWith: "Received list of participants on channel (", within: 20)
            // A channel's description carries its object's address, as 3.4's did; the cached `macosdev` object the
            // app subscribed with can be replaced by the time the test looks it up (any client's disconnect purges
            // the process-wide channel cache, and other suites' clients disconnect meanwhile), so channel addresses
            // are compared as `PNChannel(0x…)`.
            let lines = log.all.map(Self.withoutChannelAddresses)
            func index(_ prefix: String) throws -> Int {
                try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "no line \(prefix) in \(lines)")
            }
            // Delegate, then the connect block, in order.
            #expect(lines.first == "PubNub client is about to connect to PubNub origin at: \(origin)")
            let connected = try index("PubNub client successfully connected to PubNub origin at: \(origin)")
            let connectBlock = try index("{BLOCK} PubNub client connected to: \(origin)")
            #expect(connected < connectBlock)
            // Subscribe: delegate, observer (the switch over the subscription states), then the call's block.
            let channel = PNChannel.channelWithName("macosdev")
            let described = Self.withoutChannelAddresses(channel.description)
            let list = "(\n    \"\(described)\"\n)"
            let didSubscribe = try index("PubNub client successfully subscribed on channels: \(list)")
            let observer = try index("{BLOCK-P} PubNub client subscribed on channels: \(list)")
            let block = try index("Subscribed on channels: [\"macosdev\"]")
            #expect(connectBlock < didSubscribe && didSubscribe < observer && observer < block)
            // Publish: will-send and sent, each through the delegate and then the block's switch.
            let willSend = try index("PubNub client is about to send message: PNMessage (0x")
            let sending = try index("Sending message: PNMessage (0x")
            let sent = try index("PubNub client sent message: PNMessage (0x")
            let sentBlock = try index("Message sent: PNMessage (0x")
            #expect(block < willSend && willSend < sending && sending < sent && sent < sentBlock)
            #expect(lines[sent].contains("<message: {\"body\":\"This is example how we can send dictionary object.\""))
            // The message comes back through the delegate and the observer, which asks for the history.
            let received = try index("PubNub client received message: PNMessage (0x")
            let receivedObserver = try index("{BLOCK-P} PubNubc client received new message: PNMessage (0x")
            #expect(received < receivedObserver)
            #expect(lines[received].contains("channel: macosdev>"))
            let body =
                "{\n    body = \"This is example how we can send dictionary object.\";\n"
                + "    title = \"JSON dictionary encapsulated message\";\n}"
            #expect(lines[received].contains("<message: \(body), date: PNDate (0x"))
            let history = try index("PubNub client received history for \(described) starting from ")
            #expect(receivedObserver < history)
            #expect(
                lines[history].hasSuffix(": (\n    \"\(try #require(Self.messageDescription(in: lines[history])))\"\n)")
            )
            let historyLine = try index("> {")
            #expect(lines[historyLine] == "> \(body)\n")
            // Two seconds after subscribing: who is here (the app's own uuid), through the block.
            let uuid = try #require(PubNub.clientIdentifier())
            #expect(
                log.lines(startingWith: "Received list of participants on channel (").last.map(
                    Self.withoutChannelAddresses
                )
                    == "Received list of participants on channel ((\n    \"\(uuid)\"\n)):\n\(described)"
            )
            // The misspelled participants callback was never called, as in 3.4.2; nothing failed.
            #expect(!lines.contains { $0.hasPrefix("PubNub client received participants list") })
            #expect(!lines.contains { $0.contains("error") })
        }
    }

    /// `line` with every `PNChannel(0x7f…)` address written as `PNChannel(0x…)`.
    static func withoutChannelAddresses(_ line: String) -> String {
        line.replacingOccurrences(of: #"PNChannel\(0x[0-9a-f]+\)"#, with: "PNChannel(0x…)", options: .regularExpression)
    }

    /// The `PNMessage …` description inside a history line's message list.
    static func messageDescription(in line: String) -> String? {
        guard let start = line.range(of: "\"PNMessage ("), let end = line.range(of: "macosdev>\"") else { return nil }
        return String(line[line.index(after: start.lowerBound)..<line.index(before: end.upperBound)])
    }

    @Test func connectionFailureReachesTheDelegateTheObserverAndTheErrorBlock() async throws {
        try await Self.withApp { app, log, environment in
            try environment.origin.inject(.refuseConnections(dropExisting: true))
            Self.launch(app)
            try await log.waitForLine(startingWith: "Connection error: ", within: 30)
            let lines = log.all
            #expect(
                lines.first == "PubNub client is about to connect to PubNub origin at: \(environment.origin.address)"
            )
            let failed = try #require(lines.first { $0.hasPrefix("#1 PubNub client was unable to connect") })
            #expect(
                failed.hasPrefix(
                    "#1 PubNub client was unable to connect because of error: Domain=com.pubnub.pubnub; Code=102;"
                )
            )
            // The observer's format has one %@ for two arguments: only the description is printed, as in 3.4.
            #expect(
                lines.contains(
                    "#2 PubNub client was unable to connect because of error: PubNub client connection failed"
                )
            )
            let errorBlock = try #require(lines.last)
            #expect(errorBlock.hasPrefix("Connection error: PubNub client connection failed("))
            #expect(errorBlock.contains("TAAppDelegate)\nReason:\n"))
            #expect(errorBlock.contains("\n\nSuggestion:\n"))
            #expect(app.isDisconnectedOnNetworkError)
        }
    }

    @Test func networkLossAndReturnAreLoggedAndTheAppDeclinesTheRestore() async throws {
        try await Self.withApp(probeInterval: 0.5) { app, log, environment in
            Self.launch(app)
            try await log.waitForLine(startingWith: "> {", within: 20)
            try await log.waitForLine(startingWith: "Received list of participants on channel (", within: 20)
            var mark = log.all.count
            try environment.origin.inject(.refuseConnections(dropExisting: true))
            try await log.waitForLine(startingWith: "PubNub client closed connection because of error: ", from: mark)
            var lines = Array(log.all[mark...])
            #expect(
                lines.first?.hasPrefix(
                    "PubNub clinet will close connection because of error: Domain=com.pubnub.pubnub; Code=103;"
                ) == true
            )
            #expect(
                lines.contains(
                    "#2 PubNub client was unable to connect because of error: PubNub client connection lost connection"
                )
            )
            #expect(app.isDisconnectedOnNetworkError)
            mark = log.all.count
            try environment.origin.clearFaults()
            try await log.waitForLine(
                startingWith: "PubNub client successfully unsubscribed from channels: ",
                from: mark
            )
            lines = Array(log.all[mark...])
            let origin = environment.origin.address
            #expect(lines.first == "PubNub client trying to restore connection to PubNub origin at: \(origin)")
            #expect(lines.dropFirst().first == "PubNub client restored connection to PubNub origin at: \(origin)")
            // The app's query logs its (inverted) answer and declines: the channel is dropped, not restored.
            let token = try #require(lines.first { $0.hasPrefix("PubNub client should restore subscription? YES.") })
            #expect(token.range(of: #"Resuming at last time token: \d{17}$"#, options: .regularExpression) != nil)
            #expect(!lines.contains { $0.hasPrefix("PubNub client resuming subscription") })
            #expect(!app.isDisconnectedOnNetworkError)
            #expect(PubNub.subscribedChannels().isEmpty)
        }
    }
}
