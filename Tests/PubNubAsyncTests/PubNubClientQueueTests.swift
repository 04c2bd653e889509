import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubAsync
@testable import PubNubLegacy

/// Issue 31: what an `await` waits for. A call cancelled before its turn leaves the queue; a request's timeout counts
/// from the call; and a stopped client answers every call with 105 instead of leaving it waiting forever.
@Suite struct PubNubClientQueueTests {
    /// A connected client subscribed to one channel, so that each `reconnect()` restores it (about 1 s: the restore
    /// settles after `restoreSettleInterval` without an answer).
    static func subscribed(
        _ origin: LocalOrigin,
        configure: (PNConfiguration) -> Void = { _ in }
    ) async throws -> (PubNubClient, RecordingDelegate) {
        let client = try await AsyncFixture.connected(origin, configure: configure)
        let delegate = RecordingDelegate()
        client.legacy.setDelegate(delegate)
        try await client.subscribe(to: [AsyncFixture.unique("queue")])
        return (client, delegate)
    }

    @Test func cancelledReconnectsThatHaveNotStartedNeverRun() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let (client, delegate) = try await Self.subscribed(origin)
        let calls = (0..<60).map { _ in Task { try await client.reconnect() } }
        try await eventually("the first restore to start") { delegate.count("willRestoreSubscription") >= 1 }
        // Read just before the cancel: a loaded machine may wake the test only after a restore or two more ran.
        let startedBeforeCancel = delegate.count("willRestoreSubscription")
        calls.forEach { $0.cancel() }
        var cancelled = 0
        for call in calls {
            do { try await call.value } catch is CancellationError { cancelled += 1 }
        }
        // The next call does not wait for 60 restores: only for the one running when they were cancelled (which may
        // have been taken from the queue just before the cancel, its will-restore not yet delivered when it was read).
        _ = try await client.time()
        let restores = delegate.count("willRestoreSubscription")
        #expect(
            restores <= startedBeforeCancel + 1,
            "\(restores - startedBeforeCancel) restores ran after their calls were cancelled"
        )
        // Every call throws `CancellationError` but those whose restore ended before the cancel (fewer than were
        // started when it was read) and, at most, the one whose restore ended as the cancel came.
        #expect(cancelled >= 60 - startedBeforeCancel - 1, "\(cancelled) of 60 calls were cancelled")
        try await client.disconnect()
    }

    @Test func aRequestQueuedBehindSlowCallsTimesOutFromItsCall() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let (client, delegate) = try await Self.subscribed(origin) { $0.nonSubscriptionRequestTimeout = 1.5 }
        // Five restores of about 1 s each, called before the time request (3.4-side calls, queued in this order).
        for _ in 0..<5 {
            client.legacy.forceReconnect { _ in }
        }
        // The restores finished when the time call's answer was delivered: read in its block, which the delivery
        // queue runs in order with the restores' delegate callbacks (after the await returns, a loaded machine may
        // have run them all).
        let restoresAtAnswer = Locked<Int?>(nil)
        let error = await #expect(throws: PNError.self) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                client.legacy.requestServerTimeTokenWithCompletionBlock { _, error in
                    restoresAtAnswer.set(delegate.count("didRestoreSubscription"))
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }
        #expect(error?.code == kPNRequestExecutionFailedByTimeoutError)
        // It timed out while it waited: the restores behind which it was queued had not all run.
        let restores = try #require(restoresAtAnswer.current)
        #expect(restores < 5)
        try await client.disconnect()
    }
}

/// `resetClient()` under an overlay that wraps the shared client (the only suite here that touches it).
@Suite(.serialized, .sharedProcessState) struct PubNubClientSharedResetTests {
    @Test func awaitsInFlightAndMadeAfterResetClientAllReturnWith105() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        // The origin holds every time request 90 s, the reachability probe's included: a probe sent before the reset
        // would rightly time out (5 s) and report the network lost, failing the calls in flight with 104. A loaded
        // test process can take the 10 s after the connect that the first probe waits for (the fresh-clone CI did),
        // so this client probes hourly, and its calls time out after 60 s instead of 10.
        PubNub.resetClient(nextTimings: EngineTimings(probeInterval: 3_600))
        defer { PubNub.resetClient() }
        let configuration = AsyncFixture.configuration(origin) { $0.nonSubscriptionRequestTimeout = 60 }
        PubNub.setupWithConfiguration(configuration, andDelegate: nil)
        let client = PubNubClient(wrapping: PubNub.sharedInstance())
        try await client.connect()
        let connected = ContinuousClock.now
        // The first time request is in flight, the rest wait behind it.
        try origin.inject(.delay(90), on: .operation(.time))
        let outcomes = Locked<[Int]>([])
        let track = { @Sendable (call: @escaping @Sendable () async throws -> UInt64) in
            Task {
                do {
                    _ = try await call()
                    outcomes.withLock { $0.append(0) }
                } catch let error as PNError {
                    outcomes.withLock { $0.append(error.code) }
                } catch {
                    outcomes.withLock { $0.append(-2) }
                }
            }
        }
        let before = (0..<25).map { _ in track { try await client.time() } }
        try await eventually("the first time request to be held") { origin.faultCounters.delayed >= 1 }
        PubNub.resetClient()
        let resetAfter = ContinuousClock.now - connected
        let after = (0..<25).map { _ in track { try await client.time() } }
        try await eventually("50 awaits to return; returned: \(outcomes.current.count)", within: 20) {
            outcomes.current.count == 50
        }
        for task in before + after { await task.value }
        let codes = outcomes.current
        #expect(
            codes.allSatisfy { $0 == kPNRequestExecutionFailedClientNotReadyError },
            "\(codes), \(origin.faultCounters.delayed) time requests held, reset \(resetAfter) after the connect"
        )
        print("shared reset: \(codes.count) of 50 awaits returned, \(codes.filter { $0 == 105 }.count) with 105")
    }
}
