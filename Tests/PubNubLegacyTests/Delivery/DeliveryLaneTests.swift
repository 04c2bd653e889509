import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// The lane's FIFO on a private queue. A nested drain — what the main run loop starts when a callback runs it — is
/// made here by a listener calling `drainFromRunLoop()` on the delivery queue's thread, as the run loop would.
@Suite struct DeliveryLaneTests {
    /// Logs every call it gets, in one list shared by every listener of a test, and may run a hook once.
    final class StepLog: NamingDelegate, ClientEventSink, @unchecked Sendable {
        // @unchecked: `log` and `hook` are `Locked` boxes; `label` is immutable.
        let label: String
        let log: Locked<[String]>
        let hook = Locked<(@Sendable (String) -> Void)?>(nil)

        init(_ label: String, log: Locked<[String]>) {
            self.label = label
            self.log = log
        }

        override func delegateCallback(_ name: String, _ payload: Any?) {
            self.note("\(self.label):\(Self.describe(payload))")
        }

        func handle(_ event: ClientEvent, from client: PubNub) {
            let payload: Any? =
                switch event {
                case .didReceiveMessage(let message): message
                case .didReceiveTimeToken(let token): token
                default: nil
                }
            self.note("\(self.label):\(Self.describe(payload))")
        }

        /// Logs `entry`, then runs the hook (removing it) if one is set.
        private func note(_ entry: String) {
            self.log.withLock { $0.append(entry) }
            let hook = self.hook.withLock { hook in
                defer { hook = nil }
                return hook
            }
            hook?(entry)
        }

        private static func describe(_ payload: Any?) -> String {
            switch payload {
            case let message as PNMessage: "\(message.message ?? "-")"
            case let token as UInt64: "\(token)"
            default: "\(payload ?? "-")"
            }
        }
    }

    /// A client whose dispatcher runs on a private serial queue, with a logging delegate, one observation sink and
    /// one notification sink; the queue is suspended until the test resumes it.
    private static func harness() -> (PubNub, DispatchQueue, Locked<[String]>, StepLog) {
        let log = Locked<[String]>([])
        let delegate = StepLog("delegate", log: log)
        let client = PubNub(configuration: nil, delegate: nil, eventSinks: [])
        let dispatcher = client.engine.dispatcher
        let queue = DispatchQueue(label: "lane-under-test")
        queue.suspend()
        dispatcher.setQueue(queue)
        // Replace the client's own adapters (notifications, statuses) with two loggers, so only they are called.
        dispatcher.delegate = delegate
        let observer = StepLog("observer", log: log)
        let notifier = StepLog("notification", log: log)
        dispatcher.addSink(observer, to: .observationCenter)
        dispatcher.addSink(notifier, to: .notifications)
        return (client, queue, log, delegate)
    }

    @Test func jobsEnqueuedFromManyThreadsRunOnceEachInEachThreadsOrder() async throws {
        let lane = DeliveryLane(queue: DispatchQueue(label: "lane-under-test")) { nil }
        let log = Locked<[Int]>([])
        let threads = 8
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                lane.enqueue(BlockJob(DeliveryBlock { log.withLock { $0.append(thread * perThread + index) } }))
            }
        }
        try await eventually("every job ran", within: 20) { log.current.count >= threads * perThread }
        let ran = log.current
        #expect(ran.count == threads * perThread)
        #expect(Set(ran).count == ran.count)
        for thread in 0..<threads {
            let mine = ran.filter { $0 / perThread == thread }
            #expect(mine == mine.sorted())
        }
    }

    /// A listener that runs the run loop until a later event has arrived gets it; the calls start in the order
    /// they would without the wait: the rest of the current event first (delegate → observers → notification →
    /// block), then the next event.
    @Test func aNestedDrainGoesOnWithTheCallsInTheirOrder() async throws {
        let (client, queue, log, delegate) = Self.harness()
        let lane = client.engine.dispatcher.lane
        let nestedDone = Locked(false)
        delegate.hook.set { _ in
            lane.drainFromRunLoop()  // what the run loop does while the callback waits in it
            log.withLock { $0.append("wait over") }
            nestedDone.set(true)
        }
        client.engine.dispatcher.deliver(
            .didReceiveTimeToken(1),
            notify: true,
            completion: DeliveryBlock { log.withLock { $0.append("block:1") } }
        )
        client.engine.dispatcher.deliver(
            .didReceiveTimeToken(2),
            notify: true,
            completion: DeliveryBlock { log.withLock { $0.append("block:2") } }
        )
        queue.resume()
        try await eventually("the nested wait ended", within: 30) { nestedDone.current }
        #expect(
            log.current == [
                "delegate:1", "observer:1", "notification:1", "block:1",
                "delegate:2", "observer:2", "notification:2", "block:2", "wait over",
            ]
        )
    }

    /// The same inside a subscribe answer: each listener still sees the messages in their order, and `delivered`
    /// runs once, after the last.
    @Test func aNestedDrainInsideABatchKeepsEveryListenersMessageOrder() async throws {
        let (client, queue, log, delegate) = Self.harness()
        let lane = client.engine.dispatcher.lane
        delegate.hook.set { _ in lane.drainFromRunLoop() }
        let body = """
            {"t":{"t":"30","r":1},"m":[{"p":{"t":"10"},"c":"a","d":"m1"},{"p":{"t":"11"},"c":"a","d":"m2"},\
            {"p":{"t":"12"},"c":"a","d":"m3"}]}
            """
        let response = try ResponseParser.subscribe(TransportResponse(status: 200, body: Data(body.utf8))).get()
        let channel = PNChannel.channelWithName("a")
        let batch = SubscribeBatch(
            response: response,
            items: (0..<3).map { .message(index: $0, channel: channel) },
            receiveDate: PNDate(timeToken: 30),
            cryptor: nil
        )
        let delivered = Locked(0)
        client.engine.dispatcher.deliver(batch, notify: true) {
            delivered.withLock { $0 += 1 }
            log.withLock { $0.append("delivered") }
        }
        queue.resume()
        try await eventually("the batch was delivered", within: 30) { delivered.current == 1 }
        #expect(
            log.current == [
                "delegate:m1", "observer:m1", "notification:m1",
                "delegate:m2", "observer:m2", "notification:m2",
                "delegate:m3", "observer:m3", "notification:m3", "delivered",
            ]
        )
        queue.sync {}
        #expect(delivered.current == 1)
    }

    /// A drain that starts on another thread while one runs leaves everything to the running one: nothing is
    /// delivered twice, nothing out of order, and nothing off the owner's thread.
    @Test func aDrainOnAnotherThreadStepsAside() async throws {
        let queue = DispatchQueue(label: "lane-under-test")
        let lane = DeliveryLane(queue: queue) { nil }
        let log = Locked<[String]>([])
        let release = DispatchSemaphore(value: 0)
        let firstRunning = Locked(false)
        lane.enqueue(
            BlockJob(
                DeliveryBlock {
                    log.withLock { $0.append("job 1 starts") }
                    firstRunning.set(true)
                    _ = release.wait(timeout: .now() + 300)  // the test signals it; the deadline only ends a broken run
                    log.withLock { $0.append("job 1 ends") }
                }
            )
        )
        try await eventually("job 1 runs", within: 30) { firstRunning.current }
        lane.enqueue(
            BlockJob(
                DeliveryBlock {
                    dispatchPrecondition(condition: .onQueue(queue))
                    log.withLock { $0.append("job 2") }
                }
            )
        )
        lane.drainFromRunLoop()  // on this thread, while the queue's thread drains
        log.withLock { $0.append("other drain returned") }
        release.signal()
        try await eventually("job 2 ran", within: 30) { log.current.contains("job 2") }
        queue.sync {}
        #expect(log.current == ["job 1 starts", "other drain returned", "job 1 ends", "job 2"])
    }

    /// Jobs enqueued inside `holdingWakes` wait in the lane, in order, and the queue is asked for its drain when the
    /// outermost body returns: inside it, a block queued on the delivery queue runs before any of them.
    @Test func heldWakesAskForTheDrainWhenTheBodyReturns() async throws {
        let queue = DispatchQueue(label: "lane-under-test")
        let lane = DeliveryLane(queue: queue) { nil }
        let log = Locked<[String]>([])
        let ranInside = DeliveryLane.holdingWakes { () -> [String] in
            lane.enqueue(BlockJob(DeliveryBlock { log.withLock { $0.append("job 1") } }))
            DeliveryLane.holdingWakes {
                lane.enqueue(BlockJob(DeliveryBlock { log.withLock { $0.append("job 2") } }))
            }
            queue.sync {}  // without the hold, the drain's block was queued before this one and has run by now
            return log.current
        }
        #expect(ranInside == [])
        try await eventually("both jobs ran", within: 30) { log.current.count == 2 }
        #expect(log.current == ["job 1", "job 2"])
    }
}
