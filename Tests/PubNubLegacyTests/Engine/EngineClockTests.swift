import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

/// The engine's clock seam: `ManualClock` runs due timers in deadline order on their queue, and the engine's timers
/// (reachability probe, connect attempt and its retry) run on the clock a client is made with, with the intervals of
/// its `EngineTimings`.
@Suite struct EngineClockTests {
    @Test func aManualClockRunsDueTimersInDeadlineOrderOnTheirQueueAndSkipsCancelledOnes() {
        let queue = DispatchQueue(label: "clock-under-test")
        let clock = ManualClock()
        let log = Locked([String]())
        @discardableResult
        func timer(_ name: String, after delay: TimeInterval) -> any EngineTimer {
            clock.schedule(after: delay, on: queue) {
                dispatchPrecondition(condition: .onQueue(queue))
                log.withLock { $0.append(name) }
            }
        }
        timer("c", after: 3)
        timer("a", after: 1)
        timer("b1", after: 2)
        timer("b2", after: 2)
        timer("cancelled", after: 1.5).cancel()
        clock.schedule(after: 2.2, on: queue) {
            log.withLock { $0.append("chain") }
            // Scheduled while the clock advances: due within the same advance, so it runs in it.
            clock.schedule(after: 0.5, on: queue) { log.withLock { $0.append("chained") } }
        }
        clock.advance(by: 0.999)
        #expect(log.current.isEmpty)
        clock.advance(by: 2.001)
        #expect(log.current == ["a", "b1", "b2", "chain", "chained", "c"])
        #expect(clock.now == 3)
        #expect(clock.pendingDelays.isEmpty)
    }

    @Test func theReachabilityProbeRunsOnTheClientsClockAtItsInterval() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let clock = ManualClock()
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport,
            timings: .probing(every: 30),
            clock: clock
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: nil)
        try await recorder.next(.block, "connect")
        client.engine.flushEngineQueue()
        let probes = { transport.requests.filter { $0.url.path == "/time/0" }.count }
        #expect(probes() == 1)  // the connect attempt
        clock.advance(by: 29.9)
        client.engine.flushEngineQueue()
        #expect(probes() == 1)
        clock.advance(by: 0.1)
        _ = try await transport.waitForRequest(containing: "/time/0", count: 2)
        #expect(client.isConnected())
        client.disconnect()
    }

    @Test func aConnectAttemptIsAbandonedAtItsTimeoutOnTheClockAndRetriedAfterTheRetryDelay() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasPrefix("/time/") ? .hold : nil }
        let clock = ManualClock()
        var timings = EngineTimings.standard
        timings.connectAttemptTimeout = 4
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport,
            timings: timings,
            clock: clock
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        _ = try await transport.waitForRequest(containing: "/time/0", count: 1)
        client.engine.flushEngineQueue()
        #expect(clock.pendingDelays == [4])
        clock.advance(by: 4)  // abandoned: the retry waits `connectRetryDelay`
        #expect(clock.pendingDelays == [ConnectionStateMachine.connectRetryDelay])
        #expect(transport.requests.count == 1)
        clock.advance(by: ConnectionStateMachine.connectRetryDelay)
        _ = try await transport.waitForRequest(containing: "/time/0", count: 2)
        #expect(client.engine.connectionStateNow == .connecting)
        #expect(recorder.all(.block, "error").isEmpty)
        client.disconnect()
    }
}
