import PNObservation
import Testing

@testable import PubNubLegacy

@Suite struct PNObservationCenterConnectionTests {
    @Test func connectionStateObserversGetOriginStateAndTheSameErrorObject() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let error = PNError(code: kPNClientConnectionClosedOnInternetFailureError)
        center.addClientConnectionStateObserver(observer) { origin, connected, received in
            log.append("\(origin) \(connected) \(describe(received)) same=\(received === error)")
        }

        center.deliverConnectionState(origin: "origin.test", connected: true, error: nil)
        center.deliverConnectionState(origin: "origin.test", connected: false, error: nil)
        center.deliverConnectionState(origin: "configured.test", connected: false, error: error)
        #expect(
            log.calls == [
                "origin.test true nil same=false",
                "origin.test false nil same=false",
                "configured.test false 103 same=true",
            ]
        )

        center.removeClientConnectionStateObserver(observer)
        center.deliverConnectionState(origin: "origin.test", connected: true, error: nil)
        #expect(log.count == 3)
        withExtendedLifetime(observer) {}
    }

    @Test(arguments: PNSubscriptionProcessState.allCases)
    func subscriptionObserversGetEveryStateWithItsChannelsAndError(state: PNSubscriptionProcessState) {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let channels = PNChannel.channelsWithNames(["x", "y"])
        let error: PNError? =
            state == .PNSubscriptionProcessNotSubscribedState
            ? PNError(
                code: kPNRequestExecutionFailedClientNotReadyError,
                category: .unknown,
                associatedObject: channels
            )
            : nil
        center.addClientChannelSubscriptionStateObserver(observer) { received, receivedChannels, receivedError in
            let sameChannels = receivedChannels.elementsEqual(channels, by: ===)
            log.append("\(received.rawValue) \(sameChannels) \(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverSubscriptionState(state, channels: channels, error: error)
        center.removeClientChannelSubscriptionStateObserver(observer)
        center.deliverSubscriptionState(state, channels: channels, error: error)
        #expect(log.calls == ["\(state.rawValue) true \(describe(error)) true"])
        withExtendedLifetime(observer) {}
    }

    @Test func unsubscriptionObserversGetChannelsAndTheSameErrorObject() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let channels = PNChannel.channelsWithNames(["x"])
        let error = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        center.addClientChannelUnsubscriptionObserver(observer) { received, receivedError in
            log.append("\(describe(received)) \(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverUnsubscription(channels: channels, error: nil)
        center.deliverUnsubscription(channels: channels, error: error)
        center.removeClientChannelUnsubscriptionObserver(observer)
        center.deliverUnsubscription(channels: channels, error: nil)
        #expect(log.calls == ["[x] nil false", "[x] 106 true"])
        withExtendedLifetime(observer) {}
    }
}
