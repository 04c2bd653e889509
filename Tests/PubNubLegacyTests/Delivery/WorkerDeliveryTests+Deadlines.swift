import Dispatch
import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// A socket worker writes the next publish before it makes the listener calls of the answer it read, so the calls run
// while the publish is on its way (issue 29). If the app keeps its delivery queue busy past that publish's deadline,
// its answer waits unread on the worker. The deadline must not report 106 for a publish the origin took: an app that
// retries on 106 would send it twice. The deadline leaves such a publish to the worker, which takes the answer that
// came and reports 106 only when none had (`SocketTask.expire()`). On the manual clock: the deadline passes exactly
// while the answer waits unread.

extension WorkerDeliveryTests {
    /// One publish's completion: its state and, for an error, the code.
    fileprivate struct Completion: Sendable, Equatable {
        let label: String
        let state: PNMessageState
        let code: Int?
    }

    /// A client of `origin` on `clock` that delivers on `queue` and sends its service requests through `service`,
    /// connected.
    fileprivate static func connected(
        to origin: LocalOrigin,
        deliveringOn queue: DispatchQueue,
        service: SocketTransport,
        clock: ManualClock,
        recorder: EventRecorder
    ) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: origin.address)
        configuration.deliveryQueue = queue
        let client = PubNub(
            configuration: configuration,
            delegate: recorder,
            eventSinks: [recorder],
            serviceLane: service,
            timings: .quietProbe,
            clock: clock
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 15)
        return client
    }

    /// Publishes `label` to `channel`, recording its completion (the sending state is not one).
    fileprivate static func publish(
        _ label: String,
        to channel: PNChannel,
        on client: PubNub,
        into completions: Locked<[Completion]>
    ) {
        client.sendMessage(label, toChannel: channel) { state, value in
            guard state != .PNMessageSending else { return }
            let completion = Completion(label: label, state: state, code: (value as? PNError)?.code)
            completions.withLock { $0.append(completion) }
        }
    }

    /// Asks for the server's time, recording its completion as `time` (state `.PNMessageSent` when it came). The
    /// request announces nothing, so when its answer is read no drain of the delivery queue is pending, and the
    /// worker that read it makes its calls (`DeliveryLane.enqueue`).
    fileprivate static func requestTime(on client: PubNub, into completions: Locked<[Completion]>) {
        client.requestServerTimeTokenWithCompletionBlock { _, error in
            let completion = Completion(
                label: "time",
                state: error == nil ? .PNMessageSent : .PNMessageSendingError,
                code: error?.code
            )
            completions.withLock { $0.append(completion) }
        }
    }

    /// Publish requests of `channel` the origin answered with 200, that is, took and stored.
    fileprivate static func stored(on channel: PNChannel, by origin: LocalOrigin) -> Int {
        origin.requestLog.count { $0.target.hasPrefix(Self.publishPath(of: channel)) && $0.status == 200 }
    }

    fileprivate static func publishPath(of channel: PNChannel) -> String {
        "/publish/pub-c-test/sub-c-test/0/\(channel.name)/"
    }

    /// Holds `queue` until the returned semaphore is signalled (60 s at most), once the hold has begun.
    fileprivate static func hold(_ queue: DispatchQueue) -> DispatchSemaphore {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        queue.async {
            held.signal()
            _ = release.wait(timeout: .now() + 60)
        }
        held.wait()
        return release
    }

    /// A client of `origin` on a manual clock, delivering on a queue of its own, connected.
    fileprivate struct HeldDelivery {
        let origin: LocalOrigin
        let queue = DispatchQueue(label: "test-held-delivery")
        let service = SocketTransport(maximumConnections: 4, label: "service")
        let clock = ManualClock()
        let recorder = EventRecorder()
        let completions = Locked<[Completion]>([])
        let client: PubNub

        init(origin: LocalOrigin) async throws {
            self.origin = origin
            self.client = try await WorkerDeliveryTests.connected(
                to: origin,
                deliveringOn: self.queue,
                service: self.service,
                clock: self.clock,
                recorder: self.recorder
            )
        }

        /// Holds the delivery queue, then asks for the time and publishes to `channel`, and returns what releases the
        /// queue. Both calls reach the client's queue before the time's answer can: the publish waits behind the
        /// time, and the worker that reads the time sends it.
        func timeThenPublish(to channel: PNChannel) -> DispatchSemaphore {
            let release = WorkerDeliveryTests.hold(self.queue)
            let calls = WorkerDeliveryTests.hold(self.client.engine.queue)
            WorkerDeliveryTests.requestTime(on: self.client, into: self.completions)
            WorkerDeliveryTests.publish("publish", to: channel, on: self.client, into: self.completions)
            calls.signal()
            return release
        }
    }

    @Test func aPublishWhoseAnswerCameWhileTheAppHeldTheDeliveryQueuePastItsDeadlineIsSentNotTimedOut() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let held = try await HeldDelivery(origin: origin)
        let channel = PNChannel.channelWithName("held-\(UUID().uuidString.prefix(8))")
        let release = held.timeThenPublish(to: channel)
        // The worker read the time, wrote the publish queued behind it, and waits on the held queue to make the time's
        // calls; the origin took the publish and its answer waits unread.
        let state = {
            "stored \(Self.stored(on: channel, by: origin)), unread \(held.service.unreadAnswerCount), "
                + "timers \(held.clock.pendingDelays), events \(held.recorder.entries.map(\.name))"
        }
        try await eventually("the publish taken by the origin, its answer unread (\(state()))", within: 20) {
            Self.stored(on: channel, by: origin) == 1 && held.service.unreadAnswerCount == 1
        }
        held.clock.advance(by: 10)  // both deadlines: nonSubscriptionRequestTimeout from the calls
        #expect(held.completions.current.isEmpty, "nothing is delivered while the app holds its queue")
        release.signal()
        try await eventually("both calls completed", within: 20) { held.completions.current.count >= 2 }
        #expect(
            held.completions.current == [
                Completion(label: "time", state: .PNMessageSent, code: nil),
                Completion(label: "publish", state: .PNMessageSent, code: nil),
            ]
        )
        #expect(Self.stored(on: channel, by: origin) == 1, "sent once")
        held.client.disconnect()
    }

    @Test func aPublishWrittenWhileTheAppHeldTheDeliveryQueueWhoseAnswerNeverCameTimesOutOnceTheQueueIsFree()
        async throws
    {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let held = try await HeldDelivery(origin: origin)
        let channel = PNChannel.channelWithName("held-lost-\(UUID().uuidString.prefix(8))")
        try origin.inject(.neverAnswer, on: .pathPrefix(Self.publishPath(of: channel)))
        let release = held.timeThenPublish(to: channel)
        try await eventually("the publish written, no answer", within: 20) {
            origin.faultCounters.unanswered == 1 && held.service.unreadAnswerCount == 1
        }
        held.clock.advance(by: 10)
        release.signal()
        // The worker makes the time's calls, finds no answer to the publish, and reports the deadline's 106.
        try await eventually("both calls completed", within: 20) { held.completions.current.count >= 2 }
        #expect(
            held.completions.current == [
                Completion(label: "time", state: .PNMessageSent, code: nil),
                Completion(
                    label: "publish",
                    state: .PNMessageSendingError,
                    code: kPNRequestExecutionFailedByTimeoutError
                ),
            ]
        )
        #expect(Self.stored(on: channel, by: origin) == 0, "the origin never took what timed out")
        try origin.clearFaults()
        held.client.disconnect()
    }
}
