import Testing

@testable import PubNubLegacy

@Suite struct ConnectionStateMachineTests {
    /// A machine that went through probe → connect attempt → Connected.
    static func connected() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested()
        _ = machine.probeFinished(reachable: true)
        _ = machine.connectAttemptFinished(success: true, networkClass: false)
        return machine
    }

    @Test func firstConnectProbesBeforeWillConnect() {
        var machine = ConnectionStateMachine()
        #expect(machine.preflightErrorCode == 104)
        let result1 = machine.connectRequested()
        #expect(result1 == .probeFirst)
        #expect(machine.state == .created)
        let result2 = machine.probeFinished(reachable: true)
        #expect(result2 == [.beginConnectAttempt])
        #expect(machine.state == .connecting)
        #expect(!machine.gateIsOpen)
        let result3 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(result3 == [.connected(restoring: false)])
        #expect(machine.isConnected)
        #expect(machine.gateIsOpen)
        #expect(machine.preflightErrorCode == nil)
    }

    @Test func connectWhileConnectedOrConnectingIsRefused() {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested()
        _ = machine.probeFinished(reachable: true)
        let result4 = machine.connectRequested()
        #expect(result4 == .alreadyConnected)
        _ = machine.connectAttemptFinished(success: true, networkClass: false)
        let result5 = machine.connectRequested()
        #expect(result5 == .alreadyConnected)
        #expect(machine.state == .connected)
    }

    @Test func unreachableFirstProbeFailsTheConnectAndConnectsLaterOnItsOwn() {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested()
        let result6 = machine.probeFinished(reachable: false)
        #expect(result6 == [.scheduleProbe])
        #expect(machine.state == .created)
        let result7 = machine.connectRequested()
        #expect(result7 == .noNetwork)
        #expect(machine.preflightErrorCode == 104)
        let result8 = machine.probeFinished(reachable: true)
        #expect(result8 == [.beginConnectAttempt])
        #expect(machine.state == .connecting)
    }

    @Test func connectAttemptsRetryThreeTimesThenFail() {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested()
        _ = machine.probeFinished(reachable: true)
        for _ in 1...3 {
            let result9 = machine.connectAttemptFinished(success: false, networkClass: true)
            #expect(result9 == [.retryConnectAttempt(delay: 2)])
        }
        let result10 = machine.connectAttemptFinished(success: false, networkClass: true)
        #expect(
            result10 == [
                .connectFailed(networkClass: true), .scheduleProbe,
            ]
        )
        #expect(machine.state == .disconnected)
        #expect(machine.reachability == .notReachable)
        let result11 = machine.connectRequested()
        #expect(result11 == .noNetwork)
    }

    @Test func networkLossThenReconnectRestores() {
        var machine = Self.connected()
        let result12 = machine.networkLost()
        #expect(result12 == [.beginNetworkLoss])
        #expect(machine.state == .disconnectingOnNetworkError)
        #expect(machine.gateIsOpen)
        let result13 = machine.networkLost()
        #expect(result13 == [])
        let result14 = machine.networkLossFinished()
        #expect(result14 == [.finishNetworkLoss, .scheduleProbe])
        #expect(machine.state == .disconnectedOnNetworkError)
        #expect(machine.preflightErrorCode == 104)
        let result15 = machine.probeFinished(reachable: false)
        #expect(result15 == [.scheduleProbe])
        let result16 = machine.probeFinished(reachable: true)
        #expect(result16 == [.askReconnect])
        let result17 = machine.reconnectDecided(true)
        #expect(result17 == [.beginConnectAttempt])
        let result18 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(result18 == [.connected(restoring: true)])
    }

    @Test func reconnectRefusedEndsDisconnected() {
        var machine = Self.connected()
        _ = machine.networkLost()
        _ = machine.networkLossFinished()
        _ = machine.probeFinished(reachable: true)
        let result19 = machine.reconnectDecided(false)
        #expect(result19 == [])
        #expect(machine.state == .disconnected)
        #expect(!machine.gateIsOpen)
        #expect(machine.preflightErrorCode == 105)
    }

    @Test func anAppConnectPendingWhenTheReconnectIsRefusedGoesAheadWithoutRestore() {
        var machine = Self.connected()
        _ = machine.networkLost()
        _ = machine.networkLossFinished()
        _ = machine.probeFinished(reachable: false)
        #expect(machine.connectRequested() == .noNetwork)
        _ = machine.probeFinished(reachable: true)
        #expect(machine.reconnectDecided(false) == [.beginConnectAttempt])
        #expect(machine.state == .connecting)
        #expect(machine.connectAttemptFinished(success: true, networkClass: false) == [.connected(restoring: false)])
    }

    @Test func aFailedProbeWhileConnectedIsANetworkLoss() {
        var machine = Self.connected()
        let result20 = machine.probeFinished(reachable: false)
        #expect(result20 == [.beginNetworkLoss])
    }

    @Test func userDisconnectOnlyWhenThereIsSomethingToClose() {
        var machine = Self.connected()
        let first = machine.disconnectRequested()
        #expect(first)
        #expect(machine.state == .disconnecting)
        #expect(!machine.gateIsOpen)
        machine.disconnectFinished()
        #expect(machine.state == .disconnected)
        let second = machine.disconnectRequested()
        #expect(!second)
        #expect(machine.preflightErrorCode == 105)
    }

    @Test func hardResetReconnectsAndRestores() {
        var machine = Self.connected()
        machine.hardResetStarted()
        #expect(machine.state == .disconnectingOnConfigurationChange)
        #expect(machine.gateIsOpen)
        let result21 = machine.hardResetReconnect()
        #expect(result21 == [.beginConnectAttempt])
        let result22 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(result22 == [.connected(restoring: true)])
    }

    @Test func aNewConfigurationIsAssumedReachableUntilSomethingFails() {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested()
        _ = machine.probeFinished(reachable: false)
        #expect(machine.preflightErrorCode == 104)
        machine.configurationReplaced()
        #expect(machine.reachability == .reachable)
        #expect(machine.preflightErrorCode == 105)
        #expect(machine.connectRequested() == .startConnecting)
        var connected = Self.connected()
        _ = connected.networkLost()
        connected.configurationReplaced()
        #expect(connected.reachability == .notReachable)
    }
}
