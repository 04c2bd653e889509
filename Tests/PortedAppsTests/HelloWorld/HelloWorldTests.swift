import Foundation
import LocalOrigin
import PNObservation
import PubNubLegacy
import TestSupport
import Testing

/// The 3.4 "HelloWorld" HOWTO app (app delegate and view controller), ported by the rule, driven against
/// LocalOrigin through its buttons and text fields: what its screen shows (labels, text view, enabled buttons,
/// alerts) and what its log shows, through the delegate, the observers and the blocks it uses.
@Suite(.serialized, .sharedProcessState) @MainActor struct HelloWorldTests {
    /// Launches the app as UIKit would (the delegate, then the view controller's `viewDidLoad`), with its log
    /// captured; `body` runs the flow; then the app goes away.
    static func withApp(
        _ body: (AppDelegate, ViewController, AppLog, PortedAppEnvironment) async throws -> Void
    )
        async throws
    {
        let environment = try PortedAppEnvironment()
        Screen.alerts.removeAll()
        let app = AppDelegate()
        #expect(app.application(UIApplication(), didFinishLaunchingWithOptions: nil))
        let controller: ViewController = app.viewController
        let log = AppLog([app, controller])
        controller.viewDidLoad()
        defer {
            let center = PNObservationCenter.defaultCenter()
            for observer in [app as AnyObject, controller] {
                center.removeClientConnectionStateObserver(observer)
                center.removeMessageReceiveObserver(observer)
            }
            center.removeClientChannelSubscriptionStateObserver(app)
            center.removePresenceEventObserver(app)
            log.stop()
            Screen.alerts.removeAll()
            environment.tearDown()
        }
        try await body(app, controller, log, environment)
    }

    @Test func identifyConnectSubscribeAndChat() async throws {
        try await Self.withApp { app, controller, log, environment in
            let origin = environment.origin.address
            #expect(!controller.subscribeButton.isEnabled && !controller.sendMessageButton.isEnabled)
            controller.clientIdentifier.text = " ann "
            controller.textFieldDidEndEditing(controller.clientIdentifier)
            #expect(PubNub.clientIdentifier() == "ann")
            let connectButton = UIButton()
            controller.connectButtonTapped(connectButton)
            try await eventually("the subscribe button is enabled", within: 15) { controller.subscribeButton.isEnabled }
            #expect(controller.clientIdentifier.text == "ann")
            #expect(connectButton.isEnabled)

            controller.channelName.text = "hello-world"
            controller.addChannelButtonTapped(UIButton())
            try await eventually("the send button is enabled", within: 15) { controller.sendMessageButton.isEnabled }
            #expect(Screen.alerts.isEmpty)
            #expect(controller.currentChannel == PNChannel.channelWithName("hello-world"))

            controller.messageTextField.text = "Hi there"
            controller.sendMessageButtonTapped(UIButton())
            #expect(controller.messageTextField.text == "")
            try await eventually("the message is on screen", within: 15) {
                controller.messageTextView.text?.hasSuffix("> Hi there\n") == true
            }
            // Another user on the channel: their message lands in the same text view.
            let peer = PubNub(configuration: PNConfiguration.defaultConfiguration())
            peer.connect()
            peer.sendMessage("\"Hello, ann\"", toChannel: PNChannel.channelWithName("hello-world"))
            try await eventually("the peer's message is on screen", within: 15) {
                controller.messageTextView.text?.hasSuffix("> Hello, ann\n") == true
            }
            peer.disconnect()
            let shown = try #require(controller.messageTextView.text)
            let stamp = #"<\d\d:\d\d:\d\d \d\d/\d\d/\d\d> "#
            #expect(shown.range(of: "^\(stamp)Hi there\n\(stamp)Hello, ann\n$", options: .regularExpression) != nil)
            #expect(controller.messages.object(forKey: "hello-world") as? String == shown)

            let lines = log.all
            func index(_ prefix: String) throws -> Int {
                try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "no line \(prefix) in \(lines)")
            }
            let connected = try index("PubNub client successfully connected to PubNub origin at: \(origin)")
            let identifier = try index("{BLOCK} client identifier ann")
            let connectBlock = try index("{BLOCK} PubNub client connected to: \(origin)")
            #expect(try index("PubNub client is about to connect to PubNub origin at: \(origin)") < connected)
            #expect(connected < identifier && identifier < connectBlock)
            let channel = "(\n    \"\(PNChannel.channelWithName("hello-world").description)\"\n)"
            let subscribed = try index("PubNub client successfully subscribed on channels: \(channel)")
            #expect(subscribed < (try index("{BLOCK-P} PubNub client subscribed on channels: \(channel)")))
            let sent = try index("PubNub client sent message: PNMessage (0x")
            #expect(lines[sent].contains("<message: \"Hi there\", date: (null), channel: hello-world>"))
            let received = try index("PubNub client received message: PNMessage (0x")
            #expect(lines[received].contains("<message: Hi there, date: PNDate (0x"))
            #expect(received < (try index("{BLOCK-P} PubNubc client received new message: PNMessage (0x")))
            #expect(log.lines(startingWith: "PubNub client received message: ").count == 2)

            controller.disconnectButtonTapped(UIButton())
            #expect(!controller.subscribeButton.isEnabled && !controller.sendMessageButton.isEnabled)
            try await log.waitForLine(startingWith: "PubNub client disconnected from PubNub origin at: \(origin)")
            #expect(!PubNub.sharedInstance().isConnected())
        }
    }

    @Test func connectionFailureShowsBothAlertsAndKeepsConnectDisabled() async throws {
        try await Self.withApp { app, controller, log, environment in
            try environment.origin.inject(.refuseConnections(dropExisting: true))
            let connectButton = UIButton()
            controller.connectButtonTapped(connectButton)
            try await eventually("two alerts", within: 30) { Screen.alerts.count == 2 }
            // The app delegate's connection observer runs before the connect call's error block (DESIGN order).
            let observerAlert = Screen.alerts[0]
            let blockAlert = Screen.alerts[1]
            #expect(observerAlert.title?.hasPrefix("PubNub client connection failed(") == true)
            #expect(observerAlert.title?.hasSuffix("AppDelegate)") == true)
            #expect(observerAlert.message?.hasPrefix("Reason:\n") == true)
            #expect(observerAlert.message?.contains("\nSuggestion:\n") == true)
            #expect(blockAlert.title?.hasSuffix("ViewController)") == true)
            #expect(blockAlert.message?.contains("\n\nSuggestion:\n") == true)
            #expect(blockAlert.buttons == ["OK"])
            #expect(!connectButton.isEnabled)  // 102: the client connects on its own when the origin is back
            #expect(!controller.subscribeButton.isEnabled)
            #expect(log.all.contains("Connection will be established as soon as internet connection will be restored"))
            let failed = try #require(
                log.lines(startingWith: "PubNub client was unable to connect because of error: ").first
            )
            #expect(failed.contains("Code=102;"))
        }
    }

    @Test func aRefusedChannelNameShowsTheSubscribeAlert() async throws {
        try await Self.withApp { app, controller, log, environment in
            controller.connectButtonTapped(UIButton())
            try await eventually("the subscribe button is enabled", within: 15) { controller.subscribeButton.isEnabled }
            controller.channelName.text = "a,b"
            controller.addChannelButtonTapped(UIButton())
            try await eventually("the subscribe alert", within: 15) { !Screen.alerts.isEmpty }
            let alert = Screen.alerts[0]
            #expect(alert.title == "Subscribe")
            #expect(alert.message == "Failed to subscribe on: a,b")
            #expect(!controller.sendMessageButton.isEnabled)
            // The delegate method the app declared with `NSError *` hears the failure; so does the observer.
            let failed = try #require(
                log.lines(startingWith: "PubNub client failed to subscribe because of error: ").first
            )
            #expect(failed.contains("Code=111;"))
            #expect(
                log.lines(startingWith: "{BLOCK-P} PubNub client subscription failed with error: Domain=").count == 1
            )
        }
    }
}
