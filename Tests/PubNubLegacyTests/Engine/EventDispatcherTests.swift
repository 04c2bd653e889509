import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct EventDispatcherTests {
    /// A sink that records into a shared log under a label.
    final class LabelledSink: ClientEventSink, @unchecked Sendable {
        // @unchecked: `log` is a `Locked` box; `label` is immutable.
        let label: String
        let log: Locked<[String]>

        init(_ label: String, log: Locked<[String]>) {
            self.label = label
            self.log = log
        }

        func handle(_ event: ClientEvent, from client: PubNub) {
            self.log.withLock { $0.append(self.label) }
        }
    }

    @Test func listenersRunInTheFixedOrderOnTheDeliveryQueue() async throws {
        let queue = DispatchQueue(label: "delivery-under-test")
        let recorder = EventRecorder()
        let client = PubNub(configuration: nil, delegate: recorder, eventSinks: [])
        let dispatcher = client.engine.dispatcher
        dispatcher.setQueue(queue)
        let log = Locked<[String]>([])
        dispatcher.addSink(LabelledSink("notification", log: log), to: .notifications)
        dispatcher.addSink(LabelledSink("observer1", log: log), to: .observationCenter)
        dispatcher.addSink(LabelledSink("observer2", log: log), to: .observationCenter)
        dispatcher.addSink(recorder, to: .observationCenter)
        dispatcher.deliver(
            .didConnect(origin: "o"),
            notify: true,
            completion: DeliveryBlock {
                dispatchPrecondition(condition: .onQueue(queue))
                log.withLock { $0.append("block") }
                recorder.block("done")
            }
        )
        try await recorder.next(.block, "done")
        #expect(log.current == ["observer1", "observer2", "notification", "block"])
        #expect(recorder.entries.map(\.description) == ["delegate:didConnect", "sink:didConnect", "block:done"])
    }

    @Test func aClosedGateSkipsTheListenersButRunsTheBlock() async throws {
        let recorder = EventRecorder()
        let client = PubNub(configuration: nil, delegate: recorder, eventSinks: [recorder])
        client.engine.dispatcher.setQueue(DispatchQueue(label: "delivery-under-test"))
        client.engine.dispatcher.deliver(
            .didSubscribe([]),
            notify: false,
            completion: DeliveryBlock { recorder.block("done") }
        )
        try await recorder.next(.block, "done")
        #expect(recorder.entries.map(\.description) == ["block:done"])
    }

    /// Every event reaches the delegate method of its own name, once, with its payload (the recorder names delegate
    /// calls after the events).
    @Test(arguments: [
        ClientEvent.error(PNError(code: 100)), .willConnect(origin: "o"), .didConnect(origin: "o"),
        .didDisconnect(origin: "o"), .didDisconnectWithError(origin: "o", PNError(code: 103)),
        .willDisconnectWithError(PNError(code: 103)), .connectionDidFail(PNError(code: 102)), .didSubscribe([]),
        .willRestoreSubscription([]), .didRestoreSubscription([]), .subscriptionDidFail(PNError(code: 106)),
        .didUnsubscribe([]), .unsubscriptionDidFail(PNError(code: 105)), .didEnablePresenceObservation([]),
        .presenceObservationEnablingDidFail(PNError(code: 105)), .didDisablePresenceObservation([]),
        .presenceObservationDisablingDidFail(PNError(code: 105)), .didEnablePushNotifications([]),
        .pushNotificationEnableDidFail(PNError(code: 125)), .didDisablePushNotifications([]),
        .pushNotificationDisableDidFail(PNError(code: 125)), .didRemovePushNotifications,
        .pushNotificationRemoveDidFail(PNError(code: 125)), .didReceivePushNotificationEnabledChannels([]),
        .pushNotificationEnabledChannelsDidFail(PNError(code: 125)), .didReceiveTimeToken(1),
        .timeTokenReceiveDidFail(PNError(code: 106)),
        .willSendMessage(PNMessage(message: "1", channel: nil, receiveDate: nil, timeToken: nil)),
        .didSendMessage(PNMessage(message: "1", channel: nil, receiveDate: nil, timeToken: nil)),
        .messageSendDidFail(nil, PNError(code: 122)),
        .didReceiveMessage(PNMessage(message: "1", channel: nil, receiveDate: nil, timeToken: nil)),
        .didReceivePresenceEvent(PNPresenceEvent(response: ["action": "join"])),
        .didReceiveMessageHistory(PNMessagesHistory(startDate: nil, endDate: nil, channel: nil, messages: [])),
        .historyDownloadDidFail(nil, PNError(code: 106)),
        .didReceiveParticipantsList(PNHereNow(participants: [], participantsCount: 0, channel: nil)),
        .participantsListDownloadDidFail(nil, PNError(code: 106)),
    ])
    func everyEventCallsItsDelegateMethod(event: ClientEvent) async throws {
        let recorder = EventRecorder()
        let client = PubNub(configuration: nil, delegate: nil, eventSinks: [])
        event.send(to: recorder, from: client)
        #expect(recorder.names(.delegate) == [EventRecorder.name(of: event)])
        // …carrying the event's payload (compared by `FourChannelRecorder.key`, which accepts either shape).
        #expect(
            recorder.entries.map { FourChannelRecorder.key($0.value) }
                == [FourChannelRecorder.key(EventRecorder.payload(of: event))]
        )
    }
}
