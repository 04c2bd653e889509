import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubAsync
@testable import PubNubLegacy

/// Cancelling the calling task: the call throws `CancellationError` at once; a 3.4 request it started runs to its
/// end, and its block runs exactly once (one still waiting for its turn is withdrawn: PubNubClientQueueTests).
@Suite struct PubNubClientCancellationTests {
    @Test func aCancelledHistoryThrowsCancellationErrorAndItsBlockStillRunsOnce() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        // The request's timeout is raised to 120 s so that the origin can hold the answer 45 s: long enough that the
        // check right after the cancel comes first even when a loaded machine starves the test (a fresh-clone CI run
        // starved it past a 20 s hold).
        let client = try await AsyncFixture.connected(origin) { $0.nonSubscriptionRequestTimeout = 120 }
        let delegate = RecordingDelegate()
        client.legacy.setDelegate(delegate)
        let channel = AsyncFixture.unique("cancel-history")
        try await client.publish("stored", to: channel)
        try origin.inject(.delay(45), on: .operation(.history), count: 1)
        let call = Task { try await client.history(of: channel) }
        try await eventually("the origin to hold the history request") { origin.faultCounters.delayed == 1 }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(client.blockRuns.current["history"] == nil)  // thrown before the answer came
        // The 3.4 side completes the request once: its delegate callback and the overlay's block.
        try await eventually("the history block", within: 100) { client.blockRuns.current["history"] == 1 }
        try await eventually("the history delegate callback") { delegate.count("didReceiveMessageHistory") == 1 }
        // The client goes on working.
        #expect(try await client.history(of: channel).count == 1)
        #expect(client.blockRuns.current["history"] == 2)
        #expect(delegate.count("didReceiveMessageHistory") == 2)
        try await client.disconnect()
    }

    @Test func aCancelledSubscribeThrowsCancellationErrorAndTheSubscriptionStillCompletes() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        // The subscribe timeout is raised from 10 s to 120 s: the origin holds the handshake until the test clears
        // the fault, and a loaded machine that starves the test past the timeout would otherwise fail the subscribe
        // (its block runs, with the failure) before the cancel is checked.
        let client = try await AsyncFixture.connected(origin) { $0.subscriptionRequestTimeout = 120 }
        let delegate = RecordingDelegate()
        client.legacy.setDelegate(delegate)
        let channel = AsyncFixture.unique("cancel-subscribe")
        try origin.inject(.stallSubscribe(nil))
        let call = Task { try await client.subscribe(to: [channel]) }
        try await eventually("the origin to stall the handshake", within: 60) {
            origin.faultCounters.stalledSubscribes >= 1
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(client.blockRuns.current["subscribe"] == nil)
        try origin.clearFaults()
        try await eventually("the subscribe block", within: 60) { client.blockRuns.current["subscribe"] == 1 }
        #expect(delegate.count("didSubscribe") == 1)
        // A cancelled subscribe still takes effect: unsubscribe to undo it.
        #expect(client.legacy.subscribedChannels().map(\.name) == [channel])
        try await client.unsubscribe(from: [channel])
        try await client.disconnect()
    }

    @Test func aCallFromACancelledTaskThrowsWithoutStarting() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let client = try await AsyncFixture.connected(origin)
        let timeRequests = origin.requestLog.filter { $0.target.hasPrefix("/time/") }.count
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.time()
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        // A request started now would be answered before this one.
        _ = try await client.history(of: AsyncFixture.unique("after"))
        #expect(client.blockRuns.current["time"] == nil)
        #expect(origin.requestLog.filter { $0.target.hasPrefix("/time/") }.count == timeRequests)
        try await client.disconnect()
    }
}
