import Testing

@testable import PubNubLegacy

@Suite struct ConnectionStateMachineTests {
    /// The work of a fresh operation `id` (no blocks): the machine holds it without looking into it.
    static func work(_ id: Int = 1) -> ConnectionWork {
        ConnectionWork(operation: EngineOperation(id: id, name: "connect \(id)"))
    }

    /// A machine that went through probe → connect attempt → Connected.
    static func connected() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested(carrying: Self.work())
        _ = machine.probeFinished(reachable: true)
        _ = machine.connectAttemptFinished(success: true, networkClass: false)
        return machine
    }

    @Test func firstConnectProbesBeforeWillConnect() {
        var machine = ConnectionStateMachine()
        let work = Self.work()
        #expect(machine.preflightErrorCode == 104)
        let actual1 = machine.connectRequested(carrying: work)
        #expect(actual1 == .probeFirst)
        #expect(machine.state == .created)
        #expect(machine.work == work)
        let actual2 = machine.probeFinished(reachable: true)
        #expect(actual2 == [.beginConnectAttempt])
        #expect(machine.state == .connecting)
        #expect(!machine.gateIsOpen)
        let actual3 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(actual3 == [.connected(work)])
        #expect(machine.work == nil)
        #expect(machine.isConnected)
        #expect(machine.gateIsOpen)
        #expect(machine.preflightErrorCode == nil)
    }

    @Test func connectWhileConnectedOrConnectingIsRefusedAndLeavesTheHeldWorkAlone() {
        var machine = ConnectionStateMachine()
        let first = Self.work(1)
        _ = machine.connectRequested(carrying: first)
        _ = machine.probeFinished(reachable: true)
        let actual4 = machine.connectRequested(carrying: Self.work(2))
        #expect(actual4 == .alreadyConnected)
        #expect(machine.work == first)
        _ = machine.connectAttemptFinished(success: true, networkClass: false)
        let actual5 = machine.connectRequested(carrying: Self.work(3))
        #expect(actual5 == .alreadyConnected)
        #expect(machine.state == .connected)
        #expect(machine.work == nil)
    }

    @Test func unreachableFirstProbeDefersTheConnectAndConnectsLaterOnItsOwn() {
        var machine = ConnectionStateMachine()
        let work = Self.work()
        _ = machine.connectRequested(carrying: work)
        // T3 → T4: the work is handed back (block-only 102), the probing goes on.
        let actual6 = machine.probeFinished(reachable: false)
        #expect(actual6 == [.deferConnect(work), .scheduleProbe])
        #expect(machine.work == nil)
        #expect(machine.state == .created)
        #expect(machine.keepsProbing)
        // T4: not held; the next good probe starts an automatic connect, which takes the lock itself.
        let actual7 = machine.connectRequested(carrying: Self.work(2))
        #expect(actual7 == .noNetwork)
        #expect(machine.work == nil)
        #expect(machine.preflightErrorCode == 104)
        let actual8 = machine.probeFinished(reachable: true)
        #expect(actual8 == [.submitAutomaticConnect])
        #expect(machine.state == .connecting)
        let automatic = Self.work(3)
        let actual9 = machine.automaticConnectStarting(carrying: automatic)
        #expect(actual9)
        #expect(machine.work == automatic)
        let actual10 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(actual10 == [.connected(automatic)])
    }

    @Test func anAutomaticConnectWhoseConnectEndedMeanwhileCarriesNothing() {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested(carrying: Self.work(1))
        _ = machine.probeFinished(reachable: false)
        _ = machine.connectRequested(carrying: Self.work(2))
        let actual11 = machine.probeFinished(reachable: true)
        #expect(actual11 == [.submitAutomaticConnect])
        let actual12 = machine.disconnectRequested()
        #expect(actual12 == (tearDown: true, work: nil))
        machine.disconnectFinished()
        let actual13 = machine.automaticConnectStarting(carrying: Self.work(3))
        #expect(!actual13)
        #expect(machine.work == nil)
        #expect(machine.state == .disconnected)
    }

    @Test func connectAttemptsRetryThreeTimesThenFailHandingBackTheWork() {
        var machine = ConnectionStateMachine()
        let work = Self.work()
        _ = machine.connectRequested(carrying: work)
        _ = machine.probeFinished(reachable: true)
        for _ in 1...3 {
            let actual14 = machine.connectAttemptFinished(success: false, networkClass: true)
            #expect(actual14 == [.retryConnectAttempt(delay: 2)])
            #expect(machine.disconnectCutsConnectShort)
        }
        let actual15 = machine.connectAttemptFinished(success: false, networkClass: true)
        #expect(
            actual15 == [
                .connectFailed(networkClass: true, clearsSubscription: true, work), .scheduleProbe,
            ]
        )
        #expect(machine.work == nil)
        #expect(machine.state == .disconnected)
        #expect(machine.reachability == .notReachable)
        let actual16 = machine.connectRequested(carrying: Self.work(2))
        #expect(actual16 == .noNetwork)
    }

    @Test func aDisconnectCutsShortOnlyAHeldConnectWhoseFirstAttemptFailed() {
        var machine = ConnectionStateMachine()
        let work = Self.work()
        _ = machine.connectRequested(carrying: work)
        #expect(!machine.disconnectCutsConnectShort)  // waiting for the probe
        _ = machine.probeFinished(reachable: true)
        #expect(!machine.disconnectCutsConnectShort)  // first attempt on its way
        _ = machine.connectAttemptFinished(success: false, networkClass: true)
        #expect(machine.disconnectCutsConnectShort)
        let actual17 = machine.disconnectRequested()
        #expect(actual17 == (tearDown: true, work: work))
        #expect(!machine.disconnectCutsConnectShort)
        // A reconnect whose automatic connect has not got the lock yet holds nothing to cut short.
        var reconnecting = Self.connected()
        _ = reconnecting.networkLost()
        _ = reconnecting.networkLossFinished()
        _ = reconnecting.probeFinished(reachable: true)
        let actual18 = reconnecting.reconnectDecided(true)
        #expect(actual18 == [.submitAutomaticConnect])
        _ = reconnecting.connectAttemptFinished(success: false, networkClass: true)
        #expect(!reconnecting.disconnectCutsConnectShort)
    }

    @Test func networkLossThenReconnectRestoresUnderTheAutomaticConnectsWork() {
        var machine = Self.connected()
        let actual19 = machine.networkLost()
        #expect(actual19 == [.beginNetworkLoss])
        #expect(machine.state == .disconnectingOnNetworkError)
        #expect(machine.gateIsOpen)
        let actual20 = machine.networkLost()
        #expect(actual20 == [])
        let actual21 = machine.networkLossFinished()
        #expect(actual21 == [.finishNetworkLoss, .scheduleProbe])
        #expect(machine.state == .disconnectedOnNetworkError)
        #expect(machine.waitsForNetwork)
        #expect(machine.preflightErrorCode == 104)
        let actual22 = machine.probeFinished(reachable: false)
        #expect(actual22 == [.scheduleProbe])
        let actual23 = machine.probeFinished(reachable: true)
        #expect(actual23 == [.askReconnect])
        let actual24 = machine.reconnectDecided(true)
        #expect(actual24 == [.submitAutomaticConnect])
        let automatic = Self.work(7)
        let actual25 = machine.automaticConnectStarting(carrying: automatic)
        #expect(actual25)
        let actual26 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(actual26 == [.connectedRestoring])
        // The restore keeps the work until it ends.
        #expect(machine.restoreStillWanted)
        let actual27 = machine.workEnded()
        #expect(actual27 == automatic)
        #expect(!machine.restoreStillWanted)
        let actual28 = machine.workEnded()
        #expect(actual28 == nil)
    }

    @Test func aReconnectThatCannotReachTheOriginKeepsTheSubscriptionAndWaits() {
        var machine = Self.connected()
        _ = machine.networkLost()
        _ = machine.networkLossFinished()
        _ = machine.probeFinished(reachable: true)
        _ = machine.reconnectDecided(true)
        let automatic = Self.work(7)
        _ = machine.automaticConnectStarting(carrying: automatic)
        for _ in 1...3 {
            _ = machine.connectAttemptFinished(success: false, networkClass: true)
        }
        let actual29 = machine.connectAttemptFinished(success: false, networkClass: true)
        #expect(
            actual29 == [
                .connectFailed(networkClass: true, clearsSubscription: false, automatic), .scheduleProbe,
            ]
        )
        #expect(machine.state == .disconnectedOnNetworkError)
    }

    @Test func reconnectRefusedEndsDisconnected() {
        var machine = Self.connected()
        _ = machine.networkLost()
        _ = machine.networkLossFinished()
        _ = machine.probeFinished(reachable: true)
        let actual30 = machine.reconnectDecided(false)
        #expect(actual30 == [])
        #expect(machine.state == .disconnected)
        #expect(!machine.gateIsOpen)
        #expect(machine.preflightErrorCode == 105)
    }

    @Test func anAppConnectPendingWhenTheReconnectIsRefusedGoesAheadWithoutRestore() {
        var machine = Self.connected()
        _ = machine.networkLost()
        _ = machine.networkLossFinished()
        _ = machine.probeFinished(reachable: false)
        let actual31 = machine.connectRequested(carrying: Self.work(2))
        #expect(actual31 == .noNetwork)
        _ = machine.probeFinished(reachable: true)
        let actual32 = machine.reconnectDecided(false)
        #expect(actual32 == [.submitAutomaticConnect])
        #expect(machine.state == .connecting)
        let automatic = Self.work(3)
        _ = machine.automaticConnectStarting(carrying: automatic)
        let actual33 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(actual33 == [.connected(automatic)])
    }

    @Test func aFailedProbeWhileConnectedIsANetworkLoss() {
        var machine = Self.connected()
        let actual34 = machine.probeFinished(reachable: false)
        #expect(actual34 == [.beginNetworkLoss])
    }

    @Test func userDisconnectOnlyWhenThereIsSomethingToCloseAndAlwaysEndsTheWork() {
        var machine = Self.connected()
        let actual35 = machine.disconnectRequested()
        #expect(actual35 == (tearDown: true, work: nil))
        #expect(machine.state == .disconnecting)
        #expect(!machine.gateIsOpen)
        machine.disconnectFinished()
        #expect(machine.state == .disconnected)
        let actual36 = machine.disconnectRequested()
        #expect(actual36 == (tearDown: false, work: nil))
        #expect(machine.preflightErrorCode == 105)
        // A connect waiting for its first probe: nothing to close, but its work ends (its block gets nil).
        var waiting = ConnectionStateMachine()
        let work = Self.work()
        _ = waiting.connectRequested(carrying: work)
        let actual37 = waiting.disconnectRequested()
        #expect(actual37 == (tearDown: false, work: work))
        #expect(waiting.work == nil)
        #expect(!waiting.keepsProbing)
    }

    @Test func hardResetReconnectsAndRestoresUnderItsWork() {
        var machine = Self.connected()
        let work = Self.work(5)
        let actual38 = machine.configurationChanged(reconnectNeeded: true)
        #expect(actual38 == .hardReset)
        let actual39 = machine.hardResetStarting(carrying: work)
        #expect(actual39)
        #expect(machine.state == .disconnectingOnConfigurationChange)
        #expect(machine.gateIsOpen)
        let actual40 = machine.hardResetReconnect()
        #expect(actual40 == [.beginConnectAttempt])
        let actual41 = machine.connectAttemptFinished(success: true, networkClass: false)
        #expect(actual41 == [.connectedRestoring])
        #expect(machine.work == work)
    }

    @Test func aHardResetThatFindsTheClientNoLongerConnectedOnlyStoresTheConfiguration() {
        var machine = Self.connected()
        _ = machine.disconnectRequested()
        machine.disconnectFinished()
        let actual42 = machine.hardResetStarting(carrying: Self.work(5))
        #expect(!actual42)
        #expect(machine.work == nil)
        #expect(machine.state == .disconnected)
        #expect(machine.reachability == .reachable)
    }

    @Test func aConfigurationChangeIsAppliedAccordingToTheState() {
        var connected = Self.connected()
        let actual43 = connected.configurationChanged(reconnectNeeded: false)
        #expect(actual43 == .applyInPlace)
        // T16: a held connect attempt restarts; an automatic connect still waiting for the lock reads it later.
        var connecting = ConnectionStateMachine()
        _ = connecting.connectRequested(carrying: Self.work())
        _ = connecting.probeFinished(reachable: true)
        let actual44 = connecting.configurationChanged(reconnectNeeded: true)
        #expect(actual44 == .restartConnectAttempt)
        var automatic = ConnectionStateMachine()
        _ = automatic.connectRequested(carrying: Self.work(1))
        _ = automatic.probeFinished(reachable: false)
        _ = automatic.connectRequested(carrying: Self.work(2))
        _ = automatic.probeFinished(reachable: true)
        let actual45 = automatic.configurationChanged(reconnectNeeded: true)
        #expect(actual45 == .store)
        #expect(automatic.state == .connecting)
        // Not connected: stored, and the new origin is assumed reachable.
        var created = ConnectionStateMachine()
        _ = created.connectRequested(carrying: Self.work())
        _ = created.probeFinished(reachable: false)
        let actual46 = created.configurationChanged(reconnectNeeded: true)
        #expect(actual46 == .store)
        #expect(created.reachability == .reachable)
    }

    @Test func aForcedRestoreHoldsItsWorkUntilItEndsAndAResetHandsItBack() {
        var machine = Self.connected()
        let work = Self.work(9)
        machine.restoreStarting(carrying: work)
        #expect(machine.restoreStillWanted)
        #expect(machine.allowsBestEffortRequests)
        // The engine completes the work's block with 105 before it stops (docs/DESIGN.md §4).
        #expect(machine.resetRequested() == work)
        #expect(machine.work == nil)
        #expect(!machine.restoreStillWanted)
        #expect(!machine.allowsBestEffortRequests)
    }

    @Test func bestEffortRequestsNeedAConnectionAndAnOriginNotKnownGone() {
        var machine = Self.connected()
        #expect(machine.allowsBestEffortRequests)
        _ = machine.networkLost()
        #expect(!machine.allowsBestEffortRequests)
    }

    @Test func aNewConfigurationIsAssumedReachableUntilSomethingFails() {
        var machine = ConnectionStateMachine()
        _ = machine.connectRequested(carrying: Self.work())
        _ = machine.probeFinished(reachable: false)
        #expect(machine.preflightErrorCode == 104)
        machine.configurationReplaced()
        #expect(machine.reachability == .reachable)
        #expect(machine.preflightErrorCode == 105)
        let actual47 = machine.connectRequested(carrying: Self.work())
        #expect(actual47 == .startConnecting)
        var connected = Self.connected()
        _ = connected.networkLost()
        connected.configurationReplaced()
        #expect(connected.reachability == .notReachable)
    }
}
