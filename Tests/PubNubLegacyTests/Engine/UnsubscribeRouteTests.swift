import Testing

@testable import PubNubLegacy

/// docs/DESIGN.md A3, decided by the subscribe machine: how an unsubscribe is carried out in each connection state.
@Suite struct UnsubscribeRouteTests {
    typealias Machine = SubscribeLoop.StateMachine

    @Test func connectedUnsubscribesOnlineAfterALossOnlyTheKeptListShrinksOtherwiseThePreflightRefuses() {
        #expect(Machine.unsubscribeRoute(connection: .connected) == .online)
        #expect(Machine.unsubscribeRoute(connection: .disconnectingOnNetworkError) == .restoreListOnly)
        #expect(Machine.unsubscribeRoute(connection: .disconnectedOnNetworkError) == .restoreListOnly)
        for state: ConnectionStateMachine.State in [
            .created, .connecting, .disconnecting, .disconnectingOnConfigurationChange, .disconnected, .reset,
        ] {
            #expect(Machine.unsubscribeRoute(connection: state) == .refused, "\(state)")
        }
    }

    @Test func afterALossTheRemovedChannelsLeaveTheKeptListWithoutARequest() {
        var machine = Machine()
        _ = machine.subscribe(op: 1, adding: ["a", "b"], withPresenceEvent: true, keepTimeToken: true)
        let handshake = machine.requestInFlight ?? 0
        _ = machine.responseReceived(
            request: handshake,
            cursor: Cursor(timetoken: 5, region: 1),
            messageCount: 0,
            messageCountThreshold: 0
        )
        _ = machine.connectionLost()
        let result = machine.unsubscribe(removing: ["a"])
        #expect(result.removed == ["a"])
        #expect(result.actions.isEmpty)
        #expect(machine.channels == ["b"] && machine.phase == .suspended)
    }
}
