import Foundation
import Testing

@testable import LegacyDemo
@testable import PubNubLegacy

/// The `[delegate]` channel of the console (`ConsoleEventPrinter`): every one of the 36 event callbacks prints its
/// line, byte for byte as scripts and the console tests grep it.
@Suite struct ConsoleEventPrinterTests {
    /// Hears every callback the library sends for an event and keeps the printer's line of it.
    final class LineCapture: DelegateCallbackReceiver, @unchecked Sendable {
        // @unchecked: `lines` is written and read on the test's own thread only (`send` calls back synchronously).
        var lines: [String] = []

        func receive(_ callback: DelegateCallback, from client: PubNub) {
            self.lines.append(ConsoleEventPrinter.line(callback))
        }
    }

    static let channels = PNChannel.channelsWithNames(["b", "a"])
    static let channel = PNChannel.channelWithName("a")
    static let message = PNMessage(message: ["z": 1, "k": "v"], channel: channel, receiveDate: nil, timeToken: 7)
    static let textMessage = PNMessage(message: "hello", channel: channel, receiveDate: nil, timeToken: 8)

    static func error(_ code: Int, channels: Any? = nil) -> PNError {
        PNError(code: code, category: .networkIssues, associatedObject: channels)
    }

    /// Each event with the line the console prints for it.
    static let cases: [(ClientEvent, String)] = [
        (
            .error(error(100)),
            #"[delegate] error error=100 description="Incomplete PubNub client configuration. Make sure you set the configuration correctly.""#
        ),
        (.willConnect(origin: "o.example"), "[delegate] willConnectToOrigin origin=o.example"),
        (.didConnect(origin: "o.example"), "[delegate] didConnectToOrigin origin=o.example"),
        (.didDisconnect(origin: "o.example"), "[delegate] didDisconnectFromOrigin origin=o.example"),
        (
            .didDisconnectWithError(origin: "o.example", error(103)),
            #"[delegate] didDisconnectFromOriginWithError origin=o.example error=103 description="PubNub client connection lost connection""#
        ),
        (
            .willDisconnectWithError(error(103)),
            #"[delegate] willDisconnectWithError error=103 description="PubNub client connection lost connection""#
        ),
        (
            .connectionDidFail(error(102)),
            #"[delegate] connectionDidFailWithError error=102 description="PubNub client connection failed""#
        ),
        (.didSubscribe(channels), "[delegate] didSubscribeOnChannels channels=a,b"),
        (.willRestoreSubscription(channels), "[delegate] willRestoreSubscriptionOnChannels channels=a,b"),
        (.didRestoreSubscription(channels), "[delegate] didRestoreSubscriptionOnChannels channels=a,b"),
        (
            .subscriptionDidFail(error(106, channels: channels)),
            #"[delegate] subscriptionDidFailWithError channels=a,b error=106 description="Unknown error.""#
        ),
        (.didUnsubscribe(channels), "[delegate] didUnsubscribeOnChannels channels=a,b"),
        (
            .unsubscriptionDidFail(error(105, channels: channels)),
            #"[delegate] unsubscriptionDidFailWithError channels=a,b error=105 description="PubNub client can't perform request""#
        ),
        (.didEnablePresenceObservation(channels), "[delegate] didEnablePresenceObservationOnChannels channels=a,b"),
        (
            .presenceObservationEnablingDidFail(error(105, channels: channels)),
            #"[delegate] presenceObservationEnablingDidFailWithError channels=a,b error=105 description="PubNub client can't perform request""#
        ),
        (.didDisablePresenceObservation(channels), "[delegate] didDisablePresenceObservationOnChannels channels=a,b"),
        (
            .presenceObservationDisablingDidFail(error(105, channels: channel)),
            #"[delegate] presenceObservationDisablingDidFailWithError channels=a error=105 description="PubNub client can't perform request""#
        ),
        (.didEnablePushNotifications(channels), "[delegate] didEnablePushNotificationsOnChannels channels=a,b"),
        (
            .pushNotificationEnableDidFail(error(125, channels: channels)),
            #"[delegate] pushNotificationEnableDidFailWithError channels=a,b error=125 description="PubNub client can't enable push notification""#
        ),
        (.didDisablePushNotifications(channels), "[delegate] didDisablePushNotificationsOnChannels channels=a,b"),
        (
            .pushNotificationDisableDidFail(error(125, channels: channels)),
            #"[delegate] pushNotificationDisableDidFailWithError channels=a,b error=125 description="PubNub client can't enable push notification""#
        ),
        (.didRemovePushNotifications, "[delegate] didRemovePushNotifications"),
        (
            .pushNotificationRemoveDidFail(error(125, channels: channels)),
            #"[delegate] pushNotificationsRemoveFromChannelsDidFailWithError error=125 description="PubNub client can't enable push notification""#
        ),
        (
            .didReceivePushNotificationEnabledChannels(channels),
            "[delegate] didReceivePushNotificationEnabledChannels channels=a,b"
        ),
        (
            .pushNotificationEnabledChannelsDidFail(error(125)),
            #"[delegate] pushNotificationEnabledChannelsReceiveDidFailWithError error=125 description="PubNub client can't enable push notification""#
        ),
        (.didReceiveTimeToken(13_874_000_000_000_000), "[delegate] didReceiveTimeToken token=13874000000000000"),
        (
            .timeTokenReceiveDidFail(error(106)),
            #"[delegate] timeTokenReceiveDidFailWithError error=106 description="Unknown error.""#
        ),
        (.willSendMessage(textMessage), "[delegate] willSendMessage channel=a message=hello"),
        (.didSendMessage(message), #"[delegate] didSendMessage channel=a message={"k":"v","z":1}"#),
        (
            .messageSendDidFail(nil, error(122)),
            #"[delegate] didFailMessageSend channel=- message=- error=122 description="PubNub client can't submit message""#
        ),
        (
            .messageSendDidFail(textMessage, error(106)),
            #"[delegate] didFailMessageSend channel=a message=hello error=106 description="Unknown error.""#
        ),
        (.didReceiveMessage(message), #"[delegate] didReceiveMessage channel=a message={"k":"v","z":1}"#),
        (
            .didReceivePresenceEvent(
                PNPresenceEvent(response: ["action": "join", "uuid": "u1", "occupancy": 3, "timestamp": 1])
            ), "[delegate] didReceivePresenceEvent channel=- type=join uuid=u1 occupancy=3"
        ),
        (
            .didReceiveMessageHistory(
                PNMessagesHistory(
                    startDate: PNDate(timeToken: 1),
                    endDate: PNDate(timeToken: 2),
                    channel: channel,
                    messages: [message, textMessage]
                )
            ),
            #"[delegate] didReceiveMessageHistory channel=a start=1 end=2 count=2 messages=[{"k":"v","z":1},"hello"]"#
        ),
        (
            .didReceiveMessageHistory(PNMessagesHistory(startDate: nil, endDate: nil, channel: nil, messages: [])),
            "[delegate] didReceiveMessageHistory channel= start=- end=- count=0 messages=[]"
        ),
        (
            .historyDownloadDidFail(channel, error(106)),
            #"[delegate] didFailHistoryDownloadForChannel channel=a error=106 description="Unknown error.""#
        ),
        (
            .historyDownloadDidFail(nil, error(106)),
            #"[delegate] didFailHistoryDownloadForChannel channel=- error=106 description="Unknown error.""#
        ),
        (
            .didReceiveParticipantsList(PNHereNow(participants: ["u2", "u1"], participantsCount: 2, channel: channel)),
            "[delegate] didReceiveParticipantsList channel=a count=2 uuids=u1,u2"
        ),
        (
            .didReceiveParticipantsList(PNHereNow(participants: [], participantsCount: 0, channel: channel)),
            "[delegate] didReceiveParticipantsList channel=a count=0 uuids=-"
        ),
        (
            .participantsListDownloadDidFail(channel, error(106)),
            #"[delegate] didFailParticipantsListDownloadForChannel channel=a error=106 description="Unknown error.""#
        ),
        (
            .participantsListDownloadDidFail(nil, error(106)),
            #"[delegate] didFailParticipantsListDownloadForChannel channel=- error=106 description="Unknown error.""#
        ),
    ]

    @Test(arguments: 0..<Self.cases.count)
    func everyEventPrintsItsDelegateLine(index: Int) {
        let (event, line) = Self.cases[index]
        let capture = LineCapture()
        event.send(to: capture, from: PubNub(configuration: nil))
        #expect(capture.lines == [line])
    }

    /// The table covers every event, hence every one of the 36 callbacks.
    @Test func theTableCoversEveryEvent() {
        let names = Set(Self.cases.map { Mirror(reflecting: $0.0).children.first?.label ?? "\($0.0)" })
        #expect(names.count == 36)
    }
}
