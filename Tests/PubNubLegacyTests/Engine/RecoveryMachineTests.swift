import Testing

@testable import PubNubLegacy

/// The reachability/recovery decisions around the subscribe loop (docs/BEHAVIOR.md §2.2, §3.8), without I/O.
@Suite struct RecoveryMachineTests {
    @Test func oneProbeAtATime() {
        var machine = RecoveryMachine()
        #expect(machine.probeWanted() == [.sendProbe])
        #expect(machine.probeWanted().isEmpty)
        #expect(machine.loopNeedsCheck(canProbe: true).isEmpty)  // answered by the probe already on its way
        machine.probeConcluded()
        #expect(machine.probeWanted() == [.sendProbe])
    }

    @Test func aGoodProbeAnswersTheLoopsCheckOnceAndABadOneKeepsItPending() {
        var machine = RecoveryMachine()
        #expect(machine.loopNeedsCheck(canProbe: true) == [.sendProbe])
        machine.probeConcluded()
        #expect(machine.probeAnswered(reachable: false).isEmpty)
        #expect(machine.loopCheckPending)
        #expect(machine.loopNeedsCheck(canProbe: true) == [.sendProbe])
        machine.probeConcluded()
        #expect(machine.probeAnswered(reachable: true) == [.loopConnectionChecked])
        #expect(machine.probeAnswered(reachable: true).isEmpty)
        // Without settings no probe can be sent; the check waits for the next one.
        #expect(machine.loopNeedsCheck(canProbe: false).isEmpty)
        #expect(!machine.probeInFlight && machine.loopCheckPending)
    }

    @Test func aRecoveryWaitsForTheTimerAndRestoresAfterAGoodProbeOnlyWhileConnected() {
        var machine = RecoveryMachine()
        #expect(machine.loopNeedsRecovery() == [.scheduleProbe])
        #expect(machine.recoveryDue(connected: false).isEmpty)
        #expect(machine.recoveryPending)
        #expect(machine.recoveryDue(connected: true) == [.restoreLoop])
        #expect(machine.recoveryDue(connected: true).isEmpty)
    }

    @Test func aDroppedConnectionForgetsTheLoopsCheckAndRecoveryButNotTheProbeInFlight() {
        var machine = RecoveryMachine()
        _ = machine.loopNeedsCheck(canProbe: true)
        _ = machine.loopNeedsRecovery()
        machine.connectionDropped()
        #expect(!machine.loopCheckPending && !machine.recoveryPending && machine.probeInFlight)
        machine.probeConcluded()
        #expect(machine.probeAnswered(reachable: true).isEmpty)
        #expect(machine.recoveryDue(connected: true).isEmpty)
    }

    @Test func probingContinuesWhileConnectedOrWhileAConnectWaitsForTheNetwork() {
        var connection = ConnectionStateMachine()
        #expect(!connection.keepsProbing)  // created, nothing waits for the origin
        // Reachability unknown: the connect waits for a probe.
        _ = connection.connectRequested(carrying: ConnectionStateMachineTests.work())
        #expect(connection.keepsProbing)
        _ = connection.probeFinished(reachable: true)  // connecting: the attempt decides, not a probe
        #expect(connection.state == .connecting && !connection.keepsProbing)
        _ = connection.connectAttemptFinished(success: true, networkClass: false)
        #expect(connection.keepsProbing)
        _ = connection.probeFinished(reachable: false)
        _ = connection.networkLossFinished()
        #expect(connection.state == .disconnectedOnNetworkError && connection.keepsProbing)
    }
}
