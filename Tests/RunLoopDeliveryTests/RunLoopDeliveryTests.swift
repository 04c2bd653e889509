import Foundation
import PNObservation
import PlatformSupport
import PubNubLegacy
import XCTest

/// Callbacks on the default delivery queue reach a main thread that waits for them by running its run loop — in the
/// test method, inside another callback, or inside a `DispatchQueue.main.async` block — as in 3.4.2, whose callbacks
/// came from run-loop sources of the main thread (MIGRATION.md §4). A main-queue block that runs the run loop keeps
/// every other main-queue block waiting, so without the run-loop path these nested waits would never end.
final class RunLoopDeliveryTests: XCTestCase {
    /// 3.x's own tests' idiom: a publish block asks for the time token and runs the run loop until its block ran.
    func testAPublishBlockThatRunsTheRunLoopGetsTheTimeTokenBlock() throws {
        XCTAssertTrue(Thread.isMainThread)
        let harness = try MainQueueClient()
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        var token: NSNumber?
        var tokenArrivedWhileWaiting = false
        var published = false
        client.sendMessage(
            "hello",
            toChannel: PNChannel.channelWithName("run-loop"),
            withCompletionBlock: { state, _ in
                guard state == .PNMessageSent else { return }
                XCTAssertTrue(Thread.isMainThread)
                client.requestServerTimeTokenWithCompletionBlock { answer, _ in
                    XCTAssertTrue(Thread.isMainThread)
                    token = answer
                }
                tokenArrivedWhileWaiting = spinRunLoop { token != nil }
                published = true
            }
        )
        XCTAssertTrue(spinRunLoop(upTo: 30) { published }, "the publish block never ran")
        XCTAssertTrue(tokenArrivedWhileWaiting, "the time token block did not reach the waiting publish block")
        XCTAssertNotNil(token)
    }

    /// The other idiom, `-runMode:beforeDate:` in a loop, inside a callback.
    func testRunModeBeforeDateInsideACallbackGetsTheNextCallback() throws {
        let harness = try MainQueueClient()
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        var second: NSNumber?
        var gotIt = false
        var firstDone = false
        client.requestServerTimeTokenWithCompletionBlock { _, _ in
            client.requestServerTimeTokenWithCompletionBlock { answer, _ in second = answer }
            gotIt = runDefaultModeBeforeDate { second != nil }
            firstDone = true
        }
        XCTAssertTrue(runDefaultModeBeforeDate(upTo: 30) { firstDone })
        XCTAssertTrue(gotIt)
    }

    /// Any main-queue block may wait: the app's own `dispatch_async(dispatch_get_main_queue(), …)` blocks included.
    func testAMainQueueBlockThatRunsTheRunLoopGetsCallbacks() throws {
        let harness = try MainQueueClient()
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        let blockDone = Locked(false)
        let answeredInside = Locked(false)
        DispatchQueue.main.async {
            var token: NSNumber?
            client.requestServerTimeTokenWithCompletionBlock { answer, _ in token = answer }
            answeredInside.set(spinRunLoop { token != nil })
            blockDone.set(true)
        }
        XCTAssertTrue(spinRunLoop(upTo: 30) { blockDone.current })
        XCTAssertTrue(answeredInside.current)
    }

    /// 3.x's exact loop — `for (j = 0; j < 10 && !called; j++) [[NSRunLoop currentRunLoop] runUntilDate:
    /// [NSDate dateWithTimeIntervalSinceNow:1.0]];` — in a main-queue block, started before anything is on its way:
    /// each `run(until:)` must wait its second (a run loop with nothing to wait for returns at once, and inside a
    /// main-queue block the main queue does not count), so the answer arrives within the ten.
    func testAThreeXLoopOfOneSecondWaitsInAMainQueueBlockGetsTheCallback() throws {
        let harness = try MainQueueClient()
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        let outcome = Locked<(called: Bool, waited: Int)?>(nil)
        DispatchQueue.main.async {
            var called = false
            client.requestServerTimeTokenWithCompletionBlock { _, _ in called = true }
            var slices = 0
            while slices < 10 && !called {
                RunLoop.current.run(until: Date(timeIntervalSinceNow: 1.0))
                slices += 1
            }
            outcome.set((called, slices))
        }
        XCTAssertTrue(spinRunLoop(upTo: 30) { outcome.current != nil })
        XCTAssertEqual(outcome.current?.called, true, "the loop ended after \(outcome.current?.waited ?? 0) slices")
    }

    /// 3.x's HowToTests idiom for connecting: the connect is made in a `dispatch_after` block on the main queue, and
    /// the test method polls a semaphore with `DISPATCH_TIME_NOW`, running `-runMode:beforeDate:` a second at a time
    /// in between.
    func testADelayedMainQueueConnectIsWaitedForWithASemaphoreAndRunMode() throws {
        let harness = try MainQueueClient()
        defer { harness.stop() }
        let client = harness.client
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Locked<[String]>([])
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) {
            client.connectWithSuccessBlock(
                { _ in
                    outcome.withLock { $0.append("connected") }
                    semaphore.signal()
                },
                errorBlock: { error in
                    outcome.withLock { $0.append("failed \(error?.code ?? 0)") }
                    semaphore.signal()
                }
            )
        }
        let deadline = Date(timeIntervalSinceNow: 30)
        var signalled = false
        while !signalled && Date() < deadline {
            signalled = semaphore.wait(timeout: .now()) == .success
            if !signalled {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
            }
        }
        XCTAssertTrue(signalled, "no connect outcome")
        XCTAssertEqual(outcome.current, ["connected"])
    }

    /// A delegate method that waits for a later call's block: the calls still start in the order they would
    /// without the wait — the rest of the first event (observers, notification, block), then the second event's
    /// delegate, observers, notification and block — and each runs once.
    func testNestedWaitsKeepTheFixedOrderAndDeliverEachCallOnce() throws {
        let log = Locked<[String]>([])
        let delegate = TimeTokenDelegate(log: log)
        let harness = try MainQueueClient(delegate: delegate)
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        let center = PNObservationCenter(client: client)
        center.addTimeTokenReceivingObserver(
            self,
            withCallbackBlock: { token, _ in
                log.withLock { $0.append("observer:\(token?.stringValue ?? "-")") }
            }
        )
        let observer = NotificationCenter.default.addObserver(
            forName: kPNClientDidReceiveTimeTokenNotification,
            object: client,
            queue: nil
        ) { note in
            log.withLock { $0.append("notification:\((note.pnPayload as? NSNumber)?.stringValue ?? "-")") }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        var tokens: [String] = []  // the blocks' tokens, in the order the blocks ran
        let record: PNClientTimeTokenReceivingCompleteBlock = { token, _ in
            tokens.append(token?.stringValue ?? "-")
            log.withLock { $0.append("block:\(tokens.last ?? "-")") }
        }
        var firstDelegateCall = true
        delegate.onTimeToken = { _ in
            guard firstDelegateCall else { return }
            firstDelegateCall = false
            client.requestServerTimeTokenWithCompletionBlock(record)
            XCTAssertTrue(spinRunLoop { tokens.count == 2 }, "the second block did not reach the waiting delegate")
            log.withLock { $0.append("wait over") }
        }
        client.requestServerTimeTokenWithCompletionBlock(record)
        XCTAssertTrue(spinRunLoop(upTo: 30) { log.current.contains("wait over") })
        // A last call: once its block ran, everything emitted before it has been delivered, so a repeated call
        // would be in the log by now.
        client.requestServerTimeTokenWithCompletionBlock(record)
        XCTAssertTrue(spinRunLoop { tokens.count == 3 })
        let channels = ["delegate", "observer", "notification", "block"]
        XCTAssertEqual(tokens.count, 3)
        XCTAssertEqual(Set(tokens).count, 3, "the origin answered two calls with one token: \(tokens)")
        XCTAssertEqual(
            log.current,
            channels.map { "\($0):\(tokens[0])" } + channels.map { "\($0):\(tokens[1])" } + ["wait over"]
                + channels.map { "\($0):\(tokens[2])" }
        )
        center.removeTimeTokenReceivingObserver(self)
    }

    /// A subscribe block that publishes and waits receives its own message, which comes through the long-poll.
    func testASubscribeBlockThatPublishesAndWaitsReceivesItsMessage() throws {
        let log = Locked<[String]>([])
        let delegate = TimeTokenDelegate(log: log)
        let harness = try MainQueueClient(delegate: delegate)
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        let channel = PNChannel.channelWithName("run-loop-echo")
        var receivedInside = false
        var subscribed = false
        client.subscribeOnChannels(
            [channel],
            withCompletionHandlingBlock: { state, _, _ in
                guard state == .PNSubscriptionProcessSubscribedState else { return }
                client.sendMessage("echo", toChannel: channel)
                receivedInside = spinRunLoop { log.current.contains("message:echo") }
                subscribed = true
            }
        )
        XCTAssertTrue(spinRunLoop(upTo: 30) { subscribed })
        XCTAssertTrue(receivedInside)
        XCTAssertEqual(log.current.filter { $0 == "message:echo" }.count, 1)
    }

    /// Callbacks delivered from the run loop run on the main thread, where the main actor's isolation holds (what
    /// `@preconcurrency PNDelegate` conformances of main-actor types rely on, MIGRATION.md §4).
    func testRunLoopDeliveriesAreOnTheMainActor() throws {
        let harness = try MainQueueClient()
        defer { harness.stop() }
        harness.connect()
        let client = harness.client
        let done = Locked(false)
        let onMainActor = Locked(false)
        DispatchQueue.main.async {
            var answered = false
            client.requestServerTimeTokenWithCompletionBlock { _, _ in
                MainActor.assumeIsolated { onMainActor.set(Thread.isMainThread) }
                answered = true
            }
            spinRunLoop { answered }
            done.set(true)
        }
        XCTAssertTrue(spinRunLoop(upTo: 30) { done.current })
        XCTAssertTrue(onMainActor.current)
    }
}

/// Logs the time tokens and messages it receives, and calls `onTimeToken` after logging a token.
final class TimeTokenDelegate: PNDelegate {
    let log: Locked<[String]>
    var onTimeToken: ((NSNumber) -> Void)?

    init(log: Locked<[String]>) {
        self.log = log
    }

    func pubnubClient(_ client: PubNub, didReceiveTimeToken timeToken: NSNumber) {
        self.log.withLock { $0.append("delegate:\(timeToken.stringValue)") }
        self.onTimeToken?(timeToken)
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage) {
        self.log.withLock { $0.append("message:\(message.message ?? "-")") }
    }
}
