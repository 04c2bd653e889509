import Dispatch
import Foundation
import Testing

@testable import LegacyDemo

/// What the console waits on (`ConsoleState.swift`): counted events, each `take` consuming one.
@Suite struct ConsoleStateTests {
    @Test func takeConsumesOneEventEach() {
        let state = ConsoleState()
        state.record(.message)
        state.record(.message)
        #expect(state.take(.message, timeout: 5))
        #expect(state.take(.message, timeout: 5))
        #expect(!state.take(.message, timeout: 0.05))
        #expect(!state.take(.presence, timeout: 0))
    }

    @Test func waitReturnsTheSignalThatArrivedAfterTheBaseline() {
        let state = ConsoleState()
        state.record(.connected)
        let baseline = [ConsoleState.Signal.connected: state.count(.connected), .connectionFailed: 0]
        #expect(state.wait(for: [.connected, .connectionFailed], after: baseline, timeout: 0.05) == nil)
        let recorded = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            state.record(.connectionFailed, connection: "offline (error 102)")
            recorded.signal()
        }
        #expect(state.wait(for: [.connected, .connectionFailed], after: baseline, timeout: 10) == .connectionFailed)
        recorded.wait()
        #expect(state.snapshot().connection == "offline (error 102)")
    }

    @Test func occupancyIsSortedByChannel() {
        let state = ConsoleState()
        state.setOccupancy(2, of: "b")
        state.setOccupancy(1, of: "a")
        state.setOccupancy(3, of: "b")
        #expect(state.snapshot().occupancy.map { "\($0.0):\($0.1)" } == ["a:1", "b:3"])
        #expect(state.snapshot().connection == "not connected")
    }
}
