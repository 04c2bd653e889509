import Dispatch
import Foundation
import LocalOrigin
import PubNubLegacy
import TestSupport
import Testing

/// MIGRATION.md §3's `AppDelegate` — a `@MainActor` class conforming as `@preconcurrency PNDelegate`, as a UIKit app
/// delegate does — run against `LocalOrigin` through the shared client with the default delivery queue: the
/// walkthrough's calls (the origin is the local one instead of pubsub.pubnub.com), and the delegate's callback
/// arrives on the main queue, so on the main actor. (Had it not, the conformance's run-time isolation check would
/// have stopped the process.)
@Suite(.serialized, .sharedProcessState) @MainActor struct MainActorDelegateTests {
    /// The walkthrough's app delegate, keeping what its callback saw.
    final class RecordingAppDelegate: AppDelegate {
        var received: [String] = []
        /// For each callback, whether it ran on the main queue.
        var onMainQueue: [Bool] = []

        override func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage) {
            super.pubnubClient(client, didReceiveMessage: message)
            self.onMainQueue.append(DispatchQueue.getSpecific(key: MainActorDelegateTests.mainQueueKey) == true)
            self.received.append("\(message.message ?? "")")
        }
    }

    /// Marks the main queue, so a callback can tell it runs there without stopping the process when it does not.
    nonisolated static let mainQueueKey = DispatchSpecificKey<Bool>()

    @Test func theWalkthroughsMainActorDelegateReceivesOnTheMainActor() async throws {
        DispatchQueue.main.setSpecific(key: Self.mainQueueKey, value: true)
        let origin = try LocalOrigin.start()
        defer {
            PubNub.resetClient()
            origin.stop()
        }
        PubNub.resetClient()
        let app = RecordingAppDelegate()
        app.didFinishLaunching()  // PubNub.setDelegate(self)

        // viewDidLoad, against LocalOrigin.
        let configuration = PNConfiguration.configurationForOrigin(
            origin.address,
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: "mySecret"
        )
        configuration.useSecureConnection = false  // LocalOrigin speaks plain HTTP
        PubNub.setConfiguration(configuration)
        PubNub.connect()
        let channel1 = PNChannel.channelWithName("a", shouldObservePresence: true)
        PubNub.subscribeOnChannel(channel1)
        PubNub.sendMessage("hello from PubNub iOS!", toChannel: channel1)

        try await eventually("the app delegate received its message", within: 15) { !app.received.isEmpty }
        #expect(app.received == ["hello from PubNub iOS!"])
        #expect(app.onMainQueue == [true])
    }
}
