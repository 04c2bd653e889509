import Dispatch
import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// A publish made from the previous one's completion block, on a delivery queue of the app's own, wakes no thread
// (issue 29): the socket worker that read the answer makes the listener calls with `queue.sync` (DeliveryLane
// `enqueue`), the call made from the block runs the engine's work in place (`ClientEngine.enqueue`), and the worker
// writes the request the block sent once the calls return. The contract stays: every call on the delivery queue,
// each event delegate → observers → notification → block, every publish completed once, in order.

/// What one completion block of the chain saw.
private struct BlockVisit: Sendable {
    let number: Int
    let onDeliveryQueue: Bool
    let onSocketWorker: Bool
    let thread: ObjectIdentifier
}

@Suite struct WorkerDeliveryTests {
    /// A client of `origin` that delivers on `queue`, connected.
    static func connected(
        to origin: LocalOrigin,
        deliveringOn queue: DispatchQueue,
        recorder: EventRecorder
    )
        async throws -> PubNub
    {
        let configuration = PNConfiguration.testing(origin: origin.address)
        configuration.deliveryQueue = queue
        let client = PubNub.testing(configuration: configuration, recorder: recorder, timings: .quietProbe)
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 15)
        return client
    }

    @Test func publishesMadeFromCompletionBlocksAreDeliveredByTheWorkerThatReadTheAnswer() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let queue = DispatchQueue(label: "test-worker-delivery")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let recorder = EventRecorder()
        let client = try await Self.connected(to: origin, deliveringOn: queue, recorder: recorder)
        let channel = PNChannel.channelWithName("chain-\(UUID().uuidString.prefix(8))")
        let count = 12
        let visits = Locked<[BlockVisit]>([])
        let failures = Locked<[String]>([])
        @Sendable func publish(_ number: Int) {
            client.sendMessage(["n": number], toChannel: channel) { state, value in
                switch state {
                case .PNMessageSending:
                    return
                case .PNMessageSendingError:
                    failures.withLock { $0.append("\(number): \(String(describing: value))") }
                case .PNMessageSent:
                    let visit = BlockVisit(
                        number: number,
                        onDeliveryQueue: DispatchQueue.getSpecific(key: key) == true,
                        onSocketWorker: WorkerThread.current != nil,
                        thread: ObjectIdentifier(Thread.current)
                    )
                    visits.withLock { $0.append(visit) }
                    if number + 1 < count { publish(number + 1) }
                }
            }
        }
        publish(0)
        try await eventually("\(count) publishes acknowledged", within: 30) {
            visits.current.count + failures.current.count >= count
        }
        #expect(failures.current.isEmpty)
        let seen = visits.current
        #expect(seen.map(\.number) == Array(0..<count), "each block once, in order")
        #expect(seen.allSatisfy { $0.onDeliveryQueue }, "every block on the delivery queue")
        // The worker made the calls: once a block ran on a socket worker, every later one ran there too, on the one
        // that carries the chain. The first publish is called from the test: its sending state is delivered by a
        // block on the queue, and when that block is late (a loaded machine) the answer's calls join it, and the
        // chain reaches the worker a few publishes later.
        let hosted = try #require(seen.firstIndex { $0.onSocketWorker }, "no block ran on a socket worker")
        #expect(seen[hosted...].allSatisfy { $0.onSocketWorker })
        #expect(Set(seen[hosted...].map(\.thread)).count == 1)
        // Each publish's calls in the fixed order: the delegate's did-send before its block.
        let sends = recorder.entries.filter { $0.name == "didSendMessage" && $0.source == .delegate }
        #expect(sends.count == count)
        client.disconnect()
    }

    @Test func aCallMadeInsideACallbackRunsTheEnginesWorkBeforeItReturnsAndNowhereElse() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        let recorder = EventRecorder()
        let client = PubNub.testing(configuration: configuration, recorder: recorder, timings: .quietProbe)
        let inside = Locked<(draining: Bool, ranBeforeReturn: Bool, sameThread: Bool)?>(nil)
        client.connectWithSuccessBlock(
            { _ in
                let caller = ObjectIdentifier(Thread.current)
                let ran = Locked<ObjectIdentifier?>(nil)
                client.engine.enqueue { ran.set(ObjectIdentifier(Thread.current)) }
                inside.set((DeliveryLane.isDrainingOnThisThread, ran.current != nil, ran.current == caller))
                recorder.block("connect", nil)
            },
            errorBlock: { recorder.block("error", $0) }
        )
        try await recorder.next(.block, "connect", within: 15)
        let result = try #require(inside.current)
        #expect(result.draining && result.ranBeforeReturn && result.sameThread)
        // Outside every callback the work is queued: behind a queue held busy, it has not run when the call returns.
        #expect(!DeliveryLane.isDrainingOnThisThread)
        let gate = DispatchSemaphore(value: 0)
        client.engine.queue.async { _ = gate.wait(timeout: .now() + 60) }
        let ranOutside = Locked(false)
        client.engine.enqueue { ranOutside.set(true) }
        let ranBeforeReturn = ranOutside.current
        gate.signal()
        #expect(!ranBeforeReturn)
        try await eventually("the queued work ran", within: 20) { ranOutside.current }
        client.disconnect()
    }

    @Test func onTheMainQueueNoWorkerMakesTheCalls() async throws {
        // The main queue's calls are left to the main thread (or, in a process that called `dispatchMain()`, as this
        // runner did, to the main queue's blocks): no worker drains its lane.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await Self.connected(to: origin, deliveringOn: .main, recorder: EventRecorder())
        let channel = PNChannel.channelWithName("main-\(UUID().uuidString.prefix(8))")
        let count = 4
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
        // Per block: sent, on the main queue, on a socket worker.
        let visits = Locked<[(sent: Bool, onMainQueue: Bool, onSocketWorker: Bool)]>([])
        @Sendable func publish(_ number: Int) {
            client.sendMessage(["n": number], toChannel: channel) { state, _ in
                guard state != .PNMessageSending else { return }
                let visit = (
                    state == .PNMessageSent, DispatchQueue.getSpecific(key: key) == true, WorkerThread.current != nil
                )
                visits.withLock { $0.append(visit) }
                if number + 1 < count { publish(number + 1) }
            }
        }
        publish(0)
        try await eventually("\(count) publishes completed", within: 30) { visits.current.count >= count }
        let seen = visits.current
        #expect(seen.count == count)
        #expect(seen.allSatisfy { $0.sent && $0.onMainQueue && !$0.onSocketWorker })
        client.disconnect()
    }
}
