import PNObservation
import Testing

@testable import PubNubLegacy

@Suite struct PNObservationCenterPushNotificationsTests {
    @Test func enableAndDisableFailuresEachGoToTheirOwnBucket() {
        // docs/DESIGN.md §5, D4: unlike 3.4, a push-disable failure reaches the disable observers, not the enable ones.
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let channels = PNChannel.channelsWithNames(["d"])
        let error = PNError(code: kPNPushNotificationsNotEnabledError)
        center.addClientPushNotificationsEnableObserver(observer) { received, receivedError in
            log.append("enable \(describe(received)) \(describe(receivedError))")
        }
        center.addClientPushNotificationsDisableObserver(observer) { received, receivedError in
            log.append("disable \(describe(received)) \(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverPushNotificationsDisable(channels: channels, error: error)
        center.deliverPushNotificationsEnable(channels: channels, error: nil)
        #expect(log.calls == ["disable [d] 124 true", "enable [d] nil"])

        center.removeClientPushNotificationsEnableObserver(observer)
        center.removeClientPushNotificationsDisableObserver(observer)
        center.deliverPushNotificationsDisable(channels: channels, error: nil)
        center.deliverPushNotificationsEnable(channels: channels, error: nil)
        #expect(log.count == 2)
        withExtendedLifetime(observer) {}
    }

    @Test func enabledChannelsObserversGetTheListOrNilWithTheError() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let error = PNError(code: kPNRequestExecutionFailedClientNotReadyError)
        center.addClientPushNotificationsEnabledChannelsObserver(observer) { channels, receivedError in
            log.append("\(describe(channels)) \(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverPushNotificationsEnabledChannels(channels: PNChannel.channelsWithNames(["e", "f"]), error: nil)
        center.deliverPushNotificationsEnabledChannels(channels: nil, error: error)
        center.removeClientPushNotificationsEnabledChannelsObserver(observer)
        center.deliverPushNotificationsEnabledChannels(channels: [], error: nil)
        #expect(log.calls == ["[e,f] nil false", "nil 105 true"])
        withExtendedLifetime(observer) {}
    }

    @Test func removeObserversGetNilOrTheSameErrorObject() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let error = PNError(code: kPNDevicePushTokenIsEmptyError)
        center.addClientPushNotificationsRemoveObserver(observer) { receivedError in
            log.append("\(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverPushNotificationsRemove(error: nil)
        center.deliverPushNotificationsRemove(error: error)
        center.removeClientPushNotificationsRemoveObserver(observer)
        center.deliverPushNotificationsRemove(error: nil)
        #expect(log.calls == ["nil false", "125 true"])
        withExtendedLifetime(observer) {}
    }
}
