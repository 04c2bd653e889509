import PNObservation
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct PNObservationCenterPresenceTests {
    @Test func presenceEnablingAndDisablingAreSeparateBuckets() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let channels = PNChannel.channelsWithNames(["p"])
        let error = PNError(code: kPNPresenceAPINotAvailableError)
        center.addClientPresenceEnablingObserver(observer) { received, receivedError in
            log.append("enable \(describe(received)) \(describe(receivedError)) \(receivedError === error)")
        }
        center.addClientAsPresenceDisablingObserver(observer) { received, receivedError in
            log.append("disable \(describe(received)) \(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverPresenceEnabling(channels: channels, error: nil)
        center.deliverPresenceDisabling(channels: channels, error: error)
        #expect(log.calls == ["enable [p] nil false", "disable [p] 107 true"])

        center.removeClientPresenceEnablingObserver(observer)
        center.deliverPresenceEnabling(channels: channels, error: nil)
        center.deliverPresenceDisabling(channels: channels, error: nil)
        #expect(log.calls.suffix(1) == ["disable [p] nil false"])

        center.removeClientAsPresenceDisablingObserver(observer)
        center.deliverPresenceDisabling(channels: channels, error: nil)
        #expect(log.count == 3)
        withExtendedLifetime(observer) {}
    }

    @Test func presenceEventObserversGetTheSameEventObject() {
        let center = PNObservationCenter()
        let observer = TestObserver()
        let event = PNPresenceEvent(response: ["action": "timeout", "uuid": "u9", "occupancy": 0, "timestamp": 5])
        let received = Locked<[PNPresenceEvent]>([])
        center.addPresenceEventObserver(observer) { event in received.withLock { $0.append(event) } }

        center.deliverPresenceEvent(event)
        center.removePresenceEventObserver(observer)
        center.deliverPresenceEvent(event)
        #expect(received.current.count == 1)
        #expect(received.current.first === event)
        withExtendedLifetime(observer) {}
    }

    @Test func participantsObserversGetTheListOrTheError() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let channel = PNChannel.channelWithName("room")
        let error = PNError(
            code: kPNRequestExecutionFailedByTimeoutError,
            category: .timeout,
            associatedObject: channel
        )
        center.addChannelParticipantsListProcessingObserver(observer) { participants, receivedChannel, receivedError in
            let uuids = participants.map { $0.joined(separator: ",") } ?? "nil"
            log.append("\(uuids) \(receivedChannel === channel) \(describe(receivedError)) \(receivedError === error)")
        }

        center.deliverParticipantsList(participants: ["u1", "u2"], channel: channel, error: nil)
        center.deliverParticipantsList(participants: nil, channel: channel, error: error)
        center.removeChannelParticipantsListProcessingObserver(observer)
        center.deliverParticipantsList(participants: [], channel: channel, error: nil)
        #expect(log.calls == ["u1,u2 true nil false", "nil true 106 true"])
        withExtendedLifetime(observer) {}
    }
}
