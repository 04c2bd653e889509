import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

/// The only suite that touches `PubNub.sharedInstance()`: the static API as ported 3.4 code calls it, every one of
/// the 69 static methods (which forward to the instance methods), and the README example.
@Suite(.serialized, .sharedProcessState) struct SharedClientTests {
    @Test func everyStaticMethodReachesTheSharedClient() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        PubNub.resetClient()
        defer { PubNub.resetClient() }
        let recorder = EventRecorder()
        let configuration = PNConfiguration.testing(origin: origin.address)
        PubNub.setupWithConfiguration(configuration, andDelegate: recorder)
        PubNub.setDelegate(recorder)
        PubNub.setConfiguration(configuration)
        PubNub.connect()
        try await recorder.next(.delegate, "didConnect")
        #expect(PubNub.sharedInstance().isConnected())
        #expect(PubNub.clientIdentifier() != nil)
        PubNub.setClientIdentifier("shared-client")
        let c = (1...8).map { PNChannel.channelWithName("shared-\($0)-\(UUID().uuidString.prefix(6))") }
        let subscribed: PNClientChannelSubscriptionHandlerBlock = { _, _, _ in recorder.block("subscribed") }
        PubNub.subscribeOnChannel(c[0])
        PubNub.subscribeOnChannel(c[1], withCompletionHandlingBlock: subscribed)
        PubNub.subscribeOnChannel(c[2], withPresenceEvent: false)
        PubNub.subscribeOnChannel(c[3], withPresenceEvent: true, andCompletionHandlingBlock: subscribed)
        PubNub.subscribeOnChannels([c[4]])
        PubNub.subscribeOnChannels([c[5]], withCompletionHandlingBlock: subscribed)
        PubNub.subscribeOnChannels([c[6]], withPresenceEvent: true)
        PubNub.subscribeOnChannels([c[7]], withPresenceEvent: false, andCompletionHandlingBlock: subscribed)
        try await recorder.waitForCount(4, .block, "subscribed")
        #expect(recorder.all(.delegate, "didSubscribe").count == 8)
        #expect(Set(PubNub.subscribedChannels().map(\.name)) == Set(c.map(\.name)))
        #expect(PubNub.isSubscribedOnChannel(c[0]))
        #expect(PubNub.clientIdentifier() == "shared-client")

        let presence: PNClientPresenceEnableHandlingBlock = { _, _ in recorder.block("presence") }
        PubNub.enablePresenceObservationForChannel(c[0])
        PubNub.enablePresenceObservationForChannel(c[1], withCompletionHandlingBlock: presence)
        PubNub.enablePresenceObservationForChannels([c[2]])
        PubNub.enablePresenceObservationForChannels([c[3]], withCompletionHandlingBlock: presence)
        PubNub.requestServerTimeToken()
        try await recorder.next(.delegate, "didReceiveTimeToken")
        #expect(PubNub.isPresenceObservationEnabledForChannel(c[3]))
        PubNub.disablePresenceObservationForChannel(c[0])
        PubNub.disablePresenceObservationForChannel(c[1], withCompletionHandlingBlock: presence)
        PubNub.disablePresenceObservationForChannels([c[2]])
        PubNub.disablePresenceObservationForChannels([c[3]], withCompletionHandlingBlock: presence)
        PubNub.requestServerTimeTokenWithCompletionBlock { _, _ in recorder.block("time") }
        try await recorder.next(.block, "time")
        #expect(recorder.all(.delegate, "didEnablePresenceObservation").count == 4)
        #expect(recorder.all(.delegate, "didDisablePresenceObservation").count == 4)
        #expect(recorder.all(.block, "presence").count == 4)
        #expect(!PubNub.isPresenceObservationEnabledForChannel(c[3]))

        let sent: PNClientMessageProcessingBlock = { state, _ in
            if state == .PNMessageSent { recorder.block("sent") }
        }
        let first = PubNub.sendMessage("one", toChannel: c[0])
        PubNub.sendMessage(2, toChannel: c[0], withCompletionBlock: sent)
        let message = try #require(first)
        PubNub.sendMessage(message)
        PubNub.sendMessage(message, withCompletionBlock: sent)
        try await recorder.waitForCount(2, .block, "sent")
        #expect(recorder.all(.delegate, "didSendMessage").count == 4)

        let history: PNClientHistoryLoadHandlingBlock = { _, _, _, _, _ in recorder.block("history") }
        let now = PNDate.dateWithDate(Date())
        let past = PNDate.dateWithDate(Date(timeIntervalSinceNow: -3600))
        PubNub.requestFullHistoryForChannel(c[0])
        PubNub.requestFullHistoryForChannel(c[0], withCompletionBlock: history)
        PubNub.requestHistoryForChannel(c[0], from: past)
        PubNub.requestHistoryForChannel(c[0], from: past, to: now)
        PubNub.requestHistoryForChannel(c[0], from: past, withCompletionBlock: history)
        PubNub.requestHistoryForChannel(c[0], from: past, to: now, withCompletionBlock: history)
        PubNub.requestHistoryForChannel(c[0], from: nil, limit: 1)
        PubNub.requestHistoryForChannel(c[0], from: nil, to: nil, limit: 1)
        PubNub.requestHistoryForChannel(c[0], from: nil, limit: 1, withCompletionBlock: history)
        PubNub.requestHistoryForChannel(c[0], from: nil, to: nil, limit: 1, withCompletionBlock: history)
        PubNub.requestHistoryForChannel(c[0], from: nil, limit: 1, reverseHistory: true)
        PubNub.requestHistoryForChannel(c[0], from: nil, to: nil, limit: 1, reverseHistory: true)
        PubNub.requestHistoryForChannel(c[0], from: nil, limit: 1, reverseHistory: true, withCompletionBlock: history)
        PubNub.requestHistoryForChannel(
            c[0],
            from: nil,
            to: nil,
            limit: 1,
            reverseHistory: true,
            withCompletionBlock: history
        )
        PubNub.requestParticipantsListForChannel(c[0])
        PubNub.requestParticipantsListForChannel(c[0]) { _, _, _ in recorder.block("hereNow") }
        try await recorder.next(.block, "hereNow")
        #expect(recorder.all(.delegate, "didReceiveMessageHistory").count == 14)
        #expect(recorder.all(.block, "history").count == 7)
        #expect(recorder.all(.delegate, "didReceiveParticipantsList").count == 2)

        let token = Data((0..<32).map { UInt8(255 - $0) })
        let pushEnabled: PNClientPushNotificationsEnableHandlingBlock = { _, _ in recorder.block("pushOn") }
        let pushDisabled: PNClientPushNotificationsDisableHandlingBlock = { _, _ in recorder.block("pushOff") }
        PubNub.enablePushNotificationsOnChannel(c[0], withDevicePushToken: token)
        PubNub.enablePushNotificationsOnChannel(
            c[1],
            withDevicePushToken: token,
            andCompletionHandlingBlock: pushEnabled
        )
        PubNub.enablePushNotificationsOnChannels([c[2]], withDevicePushToken: token)
        PubNub.enablePushNotificationsOnChannels(
            [c[3]],
            withDevicePushToken: token,
            andCompletionHandlingBlock: pushEnabled
        )
        PubNub.disablePushNotificationsOnChannel(c[0], withDevicePushToken: token)
        PubNub.disablePushNotificationsOnChannel(
            c[1],
            withDevicePushToken: token,
            andCompletionHandlingBlock: pushDisabled
        )
        PubNub.disablePushNotificationsOnChannels([c[2]], withDevicePushToken: token)
        PubNub.disablePushNotificationsOnChannels(
            [c[3]],
            withDevicePushToken: token,
            andCompletionHandlingBlock: pushDisabled
        )
        PubNub.requestPushNotificationEnabledChannelsForDevicePushToken(token) { _, _ in recorder.block("pushList") }
        PubNub.removeAllPushNotificationsForDevicePushToken(token) { _ in recorder.block("pushRemove") }
        try await recorder.next(.block, "pushRemove")
        #expect(recorder.all(.delegate, "didEnablePushNotifications").count == 4)
        #expect(recorder.all(.delegate, "didDisablePushNotifications").count == 4)
        #expect(recorder.all(.block, "pushOn").count == 2 && recorder.all(.block, "pushOff").count == 2)
        #expect(recorder.all(.block, "pushList").count == 1)

        let unsubscribed: PNClientChannelUnsubscriptionHandlerBlock = { _, _ in recorder.block("unsubscribed") }
        PubNub.unsubscribeFromChannel(c[0])
        PubNub.unsubscribeFromChannel(c[1], withCompletionHandlingBlock: unsubscribed)
        PubNub.unsubscribeFromChannel(c[2], withPresenceEvent: false)
        PubNub.unsubscribeFromChannel(c[3], withPresenceEvent: true, andCompletionHandlingBlock: unsubscribed)
        PubNub.unsubscribeFromChannels([c[4]])
        PubNub.unsubscribeFromChannels([c[5]], withCompletionHandlingBlock: unsubscribed)
        PubNub.unsubscribeFromChannels([c[6]], withPresenceEvent: true)
        PubNub.unsubscribeFromChannels([c[7]], withPresenceEvent: false, andCompletionHandlingBlock: unsubscribed)
        try await recorder.waitForCount(4, .block, "unsubscribed")
        #expect(recorder.all(.delegate, "didUnsubscribe").count == 8)
        #expect(PubNub.subscribedChannels().isEmpty)

        PubNub.disconnect()
        try await recorder.next(.delegate, "didDisconnect")
        PubNub.connectWithSuccessBlock({ _ in recorder.block("reconnected") }, errorBlock: nil)
        try await recorder.next(.block, "reconnected")
        let before = PubNub.sharedInstance()
        PubNub.resetClient()
        #expect(PubNub.sharedInstance() !== before)
        #expect(PubNub.clientIdentifier() == nil)
    }

    @Test func readmeExampleRunsAgainstLocalOrigin() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        PubNub.resetClient()
        defer { PubNub.resetClient() }
        let demo = ChatDemo()
        let finished = Locked(false)
        demo.finished = { finished.set(true) }
        demo.start(origin: origin.address)
        try await eventually("the README example to finish") { finished.current }
        #expect(!PubNub.sharedInstance().isConnected())
        #expect(PubNub.subscribedChannels().isEmpty)
    }
}
