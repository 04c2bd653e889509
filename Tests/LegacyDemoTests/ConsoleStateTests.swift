import Dispatch
import Foundation
import Testing

@testable import LegacyDemo

/// What the console waits on (`ConsoleState.swift`): counted events, each `take` reporting one.
@Suite struct ConsoleStateTests {
    @Test func takeReportsEachArrivalOnceOldestFirstAlsoWhenItCameBeforeTheWait() {
        let state = ConsoleState()
        let before = Date()
        state.record(.message, detail: "channel=a message=\"one\"")
        state.record(.message, detail: "channel=a message=\"two\"")
        state.record(.presence)  // no detail: nothing for `wait` to report
        let first = state.take(.message, timeout: 5)
        #expect(first?.detail == "channel=a message=\"one\"")
        #expect(first.map { $0.at >= before && $0.at <= Date() } == true)
        #expect(state.take(.message, timeout: 5)?.detail == "channel=a message=\"two\"")
        #expect(state.take(.message, timeout: 0.05) == nil)
        #expect(state.take(.presence, timeout: 0) == nil)
    }

    @Test func takeWaitsForTheNextArrival() {
        let state = ConsoleState()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            state.record(.presence, detail: "channel=a type=join uuid=u occupancy=1")
        }
        #expect(state.take(.presence, timeout: 30)?.detail == "channel=a type=join uuid=u occupancy=1")
    }

    @Test func unreportedArrivalsAreBounded() {
        let state = ConsoleState()
        for index in 0..<(ConsoleState.waitingLimit + 5) { state.record(.message, detail: "#\(index)") }
        #expect(state.take(.message, timeout: 0)?.detail == "#5")
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
