import Foundation
import TestSupport
import Testing

/// The console commands beyond the basic session (`ConsoleSession+Commands.swift`): push, presence observation,
/// resend, identifier, delegate switch, reset and configuration changes, each through the channels the event matrix
/// (docs/API-3.4.md §3) lists for it.
@Suite(.serialized, .holdsAThread)
struct ConsoleSessionCommandsTests {
    /// The four lines of an event with a completion block, in delivery order.
    private func fourChannels(
        _ delegate: String,
        _ observer: String,
        _ notification: String,
        _ block: String
    )
        -> [String]
    {
        ["[delegate] \(delegate)", "[observer] \(observer)", "[notification] \(notification)", "[block] \(block)"]
    }

    @Test func pushPresenceResendIdentifierDelegateAndReset() throws {
        let (lines, status) = try ConsoleTranscript.session([
            "connect",
            "push enable a,b 0aff",
            "push list 0aff",
            "push disable b 0aff",
            "push remove 0aff",
            "presence on a",
            "presence status a b",
            "presence off a",
            "subscribe a",
            "subscribed a b",
            "publish a one",
            "resend",
            "wait message",
            "wait message",
            "config uuid console-user",
            "config show",
            "delegate off",
            "time",
            "delegate on",
            "reset",
            "status",
            "connect",
        ])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        let section = { (command: String) in ConsoleTranscript.section(lines, command) }
        ConsoleTranscript.expectInOrder(
            section("push enable a,b 0aff"),
            self.fourChannels(
                "didEnablePushNotificationsOnChannels channels=a,b",
                "pushNotificationsEnable channels=a,b error=-",
                "PNClientPushNotificationEnableDidCompleteNotification channels=a,b",
                "push enable channels=a,b error=-"
            ),
            "push enable"
        )
        ConsoleTranscript.expectInOrder(
            section("push list 0aff"),
            self.fourChannels(
                "didReceivePushNotificationEnabledChannels channels=a,b",
                "pushNotificationsEnabledChannels channels=a,b error=-",
                "PNClientPushNotificationChannelsRetrieveDidCompleteNotification channels=a,b",
                "push list channels=a,b error=-"
            ),
            "push list"
        )
        ConsoleTranscript.expectInOrder(
            section("push disable b 0aff"),
            self.fourChannels(
                "didDisablePushNotificationsOnChannels channels=b",
                "pushNotificationsDisable channels=b error=-",
                "PNClientPushNotificationDisableDidCompleteNotification channels=b",
                "push disable channels=b error=-"
            ),
            "push disable"
        )
        #expect(
            section("push remove 0aff") == [
                "[delegate] didRemovePushNotifications", "[observer] pushNotificationsRemove error=-",
                "[notification] PNClientPushNotificationRemoveDidCompleteNotification", "[block] push remove error=-",
            ]
        )
        #expect(section("presence status a b") == ["presence a=true b=false"])
        ConsoleTranscript.expectInOrder(
            section("presence off a"),
            self.fourChannels(
                "didDisablePresenceObservationOnChannels channels=a",
                "presenceDisabling channels=a error=-",
                "PNClientPresenceDisablingDidCompleteNotification channels=a",
                "presence off channels=a error=-"
            ),
            "presence off"
        )
        #expect(section("subscribed a b") == ["subscribed a=true b=false"])
        // `resend` sends the same payload again: two sends, two arrivals.
        ConsoleTranscript.expectInOrder(
            section("resend"),
            [
                "[delegate] willSendMessage channel=a message=\"one\"",
                "[block] publish state=sent channel=a message=\"one\"",
            ],
            "resend"
        )
        #expect(ConsoleTranscript.count(lines, "[delegate] didReceiveMessage channel=a message=\"one\"") == 2)
        #expect(ConsoleTranscript.count(lines, "[notification] PNClientDidSendMessageNotification channel=a") == 2)

        // A new identifier while subscribed: a soft reset (leave, then subscribe again).
        ConsoleTranscript.expectInOrder(
            section("config uuid console-user"),
            [
                "[delegate] didUnsubscribeOnChannels channels=a", "[delegate] didSubscribeOnChannels channels=a",
                "config uuid console-user",
            ],
            "config uuid"
        )
        #expect(section("config show").first?.hasSuffix(" uuid=console-user") == true)

        // Without the delegate, the other three channels still report.
        let time = section("time")
        #expect(time.count == 3, "\(time)")
        ConsoleTranscript.expectInOrder(
            time,
            [
                "[observer] timeToken token=", "[notification] PNClientDidReceiveTimeTokenNotification token=",
                "[block] time token=",
            ],
            "time without delegate"
        )
        #expect(!time.contains { $0.hasPrefix("[delegate]") })

        // After `reset` the new shared client is not connected, keeps the configuration and connects again.
        #expect(section("reset") == ["reset: a new shared client with the same configuration"])
        #expect(section("status").first?.hasPrefix("status connection=not-connected subscribed=0 channels=-") == true)
        let reconnect = lines.drop { $0 != "> reset" }
        #expect(reconnect.contains { $0.hasPrefix("[delegate] didConnectToOrigin origin=127.0.0.1:") })
        #expect(reconnect.contains { $0.hasPrefix("[block] connect success origin=127.0.0.1:") })
        #expect(!lines.contains { $0.hasPrefix("timeout ") }, "\(lines.joined(separator: "\n"))")
    }

    @Test func changingTheOriginWhileConnectedReconnectsThere() throws {
        let origin = try DemoProcess(["origin", "--port", "0"])
        defer { origin.stop() }
        let address = String(
            try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        )
        let (lines, status) = try ConsoleTranscript.session([
            "connect", "config origin \(address)", "time", "config show",
        ])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "config origin \(address)"),
            [
                "config origin \(address) applied; reconnecting (hard reset)",
                "[delegate] willConnectToOrigin origin=\(address)",
                "[delegate] didConnectToOrigin origin=\(address)",
                "[observer] connectionState origin=\(address) connected=true error=-",
                "[notification] PNClientDidConnectToOriginNotification origin=\(address)",
            ],
            "hard reset"
        )
        #expect(ConsoleTranscript.section(lines, "time").last?.hasPrefix("[block] time token=") == true)
        #expect(
            ConsoleTranscript.section(lines, "config show").first?.hasPrefix("config origin=\(address) tls=off") == true
        )
        #expect(lines.last == "bye")
    }

    /// A failed connect names its cause on every channel, not only 3.4's "connection failed": here a loopback port
    /// bound but not listening, so the connection is refused.
    @Test func aFailedConnectSaysWhy() throws {
        let refusing = try #require(RefusingPort())
        let port = refusing.port
        let (lines, status) = try ConsoleTranscript.session(["config origin 127.0.0.1:\(port)", "connect"])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        let failure =
            "error=102 description=\"PubNub client connection failed\" cause=\"127.0.0.1:\(port) refused the connection"
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "connect"),
            [
                "[delegate] connectionDidFailWithError \(failure)",
                "[observer] connectionState origin=127.0.0.1:\(port) connected=false \(failure)",
                "[notification] PNClientConnectionDidFailWithErrorNotification \(failure)",
                "[block] connect failure \(failure)",
            ],
            "the connect"
        )
        withExtendedLifetime(refusing) {}
    }
}
