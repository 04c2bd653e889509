import Foundation
import Testing

@testable import LegacyDemo

/// The console's command table (`ConsoleCommand.swift`): `help` and the usage lines shown after a mistake.
@Suite struct ConsoleCommandTests {
    @Test func helpListsEveryCommandWithTheFacadeMethodItCalls() {
        let help = ConsoleCommand.helpText().joined(separator: "\n")
        for name in [
            "connect", "disconnect", "subscribe", "unsubscribe", "subscribed", "presence", "publish", "resend",
            "history", "herenow", "time", "push", "config", "delegate", "reset", "status", "wait", "quit",
        ] {
            #expect(help.contains("\n\(name) ") || help.hasPrefix("\(name) "), "help lacks \(name)")
        }
        for method in [
            "connectWithSuccessBlock", "disconnect()", "subscribeOnChannels", "unsubscribeFromChannels",
            "subscribedChannels()", "isSubscribedOnChannel", "enablePresenceObservationForChannels",
            "disablePresenceObservationForChannels", "isPresenceObservationEnabledForChannel",
            "sendMessage(_:toChannel:withCompletionBlock:)", "sendMessage(_:withCompletionBlock:)",
            "requestHistoryForChannel", "requestParticipantsListForChannel",
            "requestServerTimeTokenWithCompletionBlock",
            "enablePushNotificationsOnChannels", "disablePushNotificationsOnChannels",
            "requestPushNotificationEnabledChannelsForDevicePushToken", "removeAllPushNotificationsForDevicePushToken",
            "setConfiguration", "setClientIdentifier", "clientIdentifier()", "setDelegate", "resetClient()",
            "sharedInstance()", "setupWithConfiguration", "isConnected()",
        ] {
            #expect(help.contains(method), "help does not name \(method)")
        }
        // Methods are named by their Swift spelling, never by the row numbers of the docs' API tables.
        #expect(help.range(of: "#[0-9]", options: .regularExpression) == nil, "help shows a row number")
        #expect(ConsoleCommand.helpText(topic: "push").count == 3)
        #expect(ConsoleCommand.helpText(topic: "nothing") == ["no command \"nothing\"; type \"help\" for the list"])
    }

    @Test func usageOfACommandWithSubCommandsListsThemAll() {
        #expect(ConsoleCommand.usage(of: "presence") == "presence on|off CH[,CH...] | presence status CH[,CH...]")
        #expect(ConsoleCommand.usage(of: "nothing") == "type \"help\" for the list of commands")
    }
}
