import Foundation
import LocalOrigin
import PubNubLegacy
import TestSupport
import Testing

/// The 3.4 "CallsWithoutBlocks" HOWTO app, ported by the rule: eight calls made in a row right after `connect`, no
/// blocks, results through the delegate only. 3.4 ran them one after the other in call order; so must the port.
@Suite(.serialized, .sharedProcessState) @MainActor struct CallsWithoutBlocksTests {
    @Test func theBurstOfCallsRunsInCallOrderAndTheDelegateLogsWhatArrives() async throws {
        let environment = try PortedAppEnvironment()
        Console.lines.set([])
        PNViewController.origin = environment.origin.address
        defer {
            PNViewController.origin = "pubsub.pubnub.com"
            environment.tearDown()
        }
        let app = PNAppDelegate()
        #expect(app.application(UIApplication(), didFinishLaunchingWithOptions: nil))
        app.viewController.viewDidLoad()

        try await Console.waitFor("both messages") { $0.hasPrefix("received: ") && $0.contains("ping3") }
        #expect(
            Console.lines.current.filter { $0.hasPrefix("received: ") } == [
                "received: hello world!", "received: hello ping3!",
            ]
        )
        try await Console.waitFor("the first here-now") { $0 == "hereNow! ping_3" }

        // At the origin: one request after the other, in the order the app made the calls.
        let targets = environment.origin.requestLog.map(\.target).filter { !$0.contains("/heartbeat") }
        func position(_ fragment: String, after start: Int = 0) throws -> Int {
            try #require(targets.dropFirst(start).firstIndex { $0.contains(fragment) }, "\(fragment) in \(targets)")
        }
        let subscribeA = try position("/v2/subscribe/demo/a,a-pnpres/0?tt=0&")
        let subscribeBoth = try position("ping_3/0?tt=0&", after: subscribeA)
        let leaveA = try position("/channel/a/leave", after: subscribeBoth)
        let hereNow = try position("/v2/presence/sub-key/demo/channel/ping_3?", after: leaveA)
        let first = try position("/publish/demo/demo/", after: hereNow)
        #expect(targets[first].contains("/ping_3/0/%22hello%20world%21%22"))
        let second = try position("/publish/demo/demo/", after: first + 1)
        #expect(targets[second].contains("/ping_3/0/%22hello%20ping3%21%22"))

        // After the burst: ping_3 subscribed and observing presence; `a` left, its presence no longer observed.
        let channelA = PNChannel.channelWithName("a")
        let ping3 = PNChannel.channelWithName("ping_3")
        #expect(PubNub.subscribedChannels() == [ping3])
        #expect(PubNub.isPresenceObservationEnabledForChannel(ping3))
        #expect(!PubNub.isPresenceObservationEnabledForChannel(channelA))
        #expect(!channelA.shouldObservePresence)

        // Five seconds later, the second here-now.
        try await Console.waitFor("the second here-now", count: 2, within: 15) { $0 == "hereNow! ping_3" }
    }
}
