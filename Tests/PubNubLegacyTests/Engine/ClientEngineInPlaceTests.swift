import Dispatch
import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// A publish called while the client queue is idle runs the engine's work on the caller's thread and writes its
// request from there (`ClientEngine.enqueue(inPlace:_:)`, issue 29's latency): no thread is woken for the queue.
// With anything handed to the queue waiting or running, the call is queued as before and returns at once; on the
// queue itself it is queued too (a `sync` there would deadlock).

@Suite struct ClientEngineInPlaceTests {
    /// A connected client over a fake origin whose publishes record the thread that sent them.
    private static func connected(sentFrom senders: Locked<[ObjectIdentifier]>) async throws -> PubNub {
        let transport = FakeTransport.origin { request in
            if request.url.path.hasPrefix("/publish/") {
                senders.withLock { $0.append(ObjectIdentifier(Thread.current)) }
            }
            return nil
        }
        let recorder = EventRecorder()
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport,
            timings: .quietProbe
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 15)
        // The connect's answer is handled by a block on the queue that may still be returning.
        try await eventually("the client queue idle", within: 10) { client.engine.handedBlockCount == 0 }
        return client
    }

    /// Runs `body` on a thread of its own and returns that thread's identity once `body` returned, or nil when it
    /// did not return within `seconds`.
    private static func onAThread(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> ObjectIdentifier? {
        let thread = Locked<ObjectIdentifier?>(nil)
        let returned = Latch()
        Thread.detachNewThread {
            body()
            thread.set(ObjectIdentifier(Thread.current))
            returned.open()
        }
        return returned.wait(timeout: seconds) ? thread.current : nil
    }

    @Test func aPublishCalledWhileTheQueueIsIdleIsSentFromTheCallersThreadBeforeTheCallReturns() async throws {
        let senders = Locked<[ObjectIdentifier]>([])
        let client = try await Self.connected(sentFrom: senders)
        let channel = PNChannel.channelWithName("in-place")
        let sentBeforeReturn = Locked<[ObjectIdentifier]>([])
        let caller = Self.onAThread(within: 20) {
            client.sendMessage("one", toChannel: channel)
            sentBeforeReturn.set(senders.current)
        }
        let thread = try #require(caller, "sendMessage did not return")
        #expect(sentBeforeReturn.current == [thread], "sent by the caller's thread before sendMessage returned")
        client.disconnect()
    }

    @Test func withWorkOnTheQueueAPublishIsQueuedAndTheCallerIsNotHeld() async throws {
        let senders = Locked<[ObjectIdentifier]>([])
        let client = try await Self.connected(sentFrom: senders)
        let channel = PNChannel.channelWithName("queued")
        let gate = Latch()
        let started = Latch()
        client.engine.enqueue {
            started.open()
            _ = gate.wait(timeout: 60)
        }
        #expect(started.wait(timeout: 20), "the holding block did not start")
        let caller = Self.onAThread(within: 20) { client.sendMessage("two", toChannel: channel) }
        let sentWhileHeld = senders.current
        gate.open()
        let thread = try #require(caller, "sendMessage waited for the queue")
        #expect(sentWhileHeld.isEmpty)
        try await eventually("the queued publish sent", within: 20) { senders.current.count == 1 }
        #expect(senders.current != [thread], "sent from the queue's thread, not the caller's")
        client.disconnect()
    }

    @Test func aPublishCalledOnTheClientQueueIsQueuedBehindTheBlockThatCalledIt() async throws {
        let senders = Locked<[ObjectIdentifier]>([])
        let client = try await Self.connected(sentFrom: senders)
        let channel = PNChannel.channelWithName("on-queue")
        let sentInsideTheBlock = Locked<[ObjectIdentifier]?>(nil)
        // A block the engine's count does not cover (as a timer's): the call must still not `sync` on its own queue.
        client.engine.queue.async {
            client.sendMessage("three", toChannel: channel)
            sentInsideTheBlock.set(senders.current)
        }
        try await eventually("the publish sent", within: 20) { senders.current.count == 1 }
        #expect(sentInsideTheBlock.current == [])
        client.disconnect()
    }
}
