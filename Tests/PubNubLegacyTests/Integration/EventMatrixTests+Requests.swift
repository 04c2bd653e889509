import Foundation
import PNObservation
import Testing

@testable import PubNubLegacy

// Rows of the push, time token, message, history and participants operations.

extension EventMatrixTests {
    static let requestCases: [MatrixCase] = [
        pushCase(
            "push enabled",
            failing: false,
            trigger: {
                $0.client.enablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: $0.token,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushEnable")
                )
            },
            row: Row(
                event: "push enabled",
                delegate: "didEnablePushNotifications",
                observer: "pushEnable",
                notification: kPNClientPushNotificationEnableDidCompleteNotification,
                block: "pushEnable"
            )
        ),
        pushCase(
            "push enable failed",
            failing: true,
            trigger: {
                $0.client.enablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: $0.token,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushEnable")
                )
            },
            row: Row(
                event: "push enable failed",
                delegate: "pushNotificationEnableDidFail",
                observer: "pushEnable:error",
                notification: kPNClientPushNotificationEnableDidFailNotification,
                block: "pushEnable"
            )
        ),
        pushCase(
            "push disabled",
            failing: false,
            trigger: {
                $0.client.disablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: $0.token,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushDisable")
                )
            },
            row: Row(
                event: "push disabled",
                delegate: "didDisablePushNotifications",
                observer: "pushDisable",
                notification: kPNClientPushNotificationDisableDidCompleteNotification,
                block: "pushDisable"
            )
        ),
        // D4: the failure reaches the push-disable observers and the disable call's own block.
        pushCase(
            "push disable failed (D4)",
            failing: true,
            trigger: {
                $0.client.disablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: $0.token,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushDisable")
                )
            },
            row: Row(
                event: "push disable failed",
                delegate: "pushNotificationDisableDidFail",
                observer: "pushDisable:error",
                notification: kPNClientPushNotificationDisableDidFailNotification,
                block: "pushDisable"
            )
        ),
        pushCase(
            "push removed",
            failing: false,
            trigger: {
                $0.client.removeAllPushNotificationsForDevicePushToken(
                    $0.token,
                    withCompletionHandlingBlock: $0.recorder.pushRemoveBlock
                )
            },
            row: Row(
                event: "push removed",
                delegate: "didRemovePushNotifications",
                observer: "pushRemove",
                notification: kPNClientPushNotificationRemoveDidCompleteNotification,
                block: "pushRemove"
            )
        ),
        pushCase(
            "push remove failed",
            failing: true,
            trigger: {
                $0.client.removeAllPushNotificationsForDevicePushToken(
                    $0.token,
                    withCompletionHandlingBlock: $0.recorder.pushRemoveBlock
                )
            },
            row: Row(
                event: "push remove failed",
                delegate: "pushNotificationRemoveDidFail",
                observer: "pushRemove:error",
                notification: kPNClientPushNotificationRemoveDidFailNotification,
                block: "pushRemove"
            )
        ),
        pushCase(
            "push-enabled channels received",
            failing: false,
            trigger: {
                $0.client.requestPushNotificationEnabledChannelsForDevicePushToken(
                    $0.token,
                    withCompletionHandlingBlock: $0.recorder.pushListBlock
                )
            },
            row: Row(
                event: "push channels",
                delegate: "didReceivePushNotificationEnabledChannels",
                observer: "pushList",
                notification: kPNClientPushNotificationChannelsRetrieveDidCompleteNotification,
                block: "pushList"
            )
        ),
        pushCase(
            "push-enabled channels failed",
            failing: true,
            trigger: {
                $0.client.requestPushNotificationEnabledChannelsForDevicePushToken(
                    $0.token,
                    withCompletionHandlingBlock: $0.recorder.pushListBlock
                )
            },
            row: Row(
                event: "push channels failed",
                delegate: "pushNotificationEnabledChannelsDidFail",
                observer: "pushList:error",
                notification: kPNClientPushNotificationChannelsRetrieveDidFailNotification,
                block: "pushList"
            )
        ),
        MatrixCase(
            name: "time token received",
            setup: { try await $0.connect() },
            trigger: { $0.client.requestServerTimeTokenWithCompletionBlock($0.recorder.timeBlock) },
            rows: [
                Row(
                    event: "time token",
                    delegate: "didReceiveTimeToken",
                    observer: "time",
                    notification: kPNClientDidReceiveTimeTokenNotification,
                    block: "time"
                )
            ]
        ),
        MatrixCase(
            name: "time token failed",
            origin: .fake,
            setup: { harness in
                try await harness.connect()
                harness.garble("/time/", times: 3)  // a time request is attempted three times (docs/BEHAVIOR.md §4.3)
            },
            trigger: { $0.client.requestServerTimeTokenWithCompletionBlock($0.recorder.timeBlock) },
            rows: [
                Row(
                    event: "time token failed",
                    delegate: "timeTokenReceiveDidFail",
                    observer: "time:error",
                    notification: kPNClientDidFailTimeTokenReceiveNotification,
                    block: "time"
                )
            ]
        ),
        MatrixCase(
            name: "message will send, message sent",
            setup: { try await $0.connect() },
            trigger: {
                _ = $0.client.sendMessage("hi", toChannel: $0.channel, withCompletionBlock: $0.recorder.sendBlock)
            },
            rows: [
                willSend,
                Row(
                    event: "sent",
                    delegate: "didSendMessage",
                    observer: "messageProcessing:1",
                    notification: kPNClientDidSendMessageNotification,
                    block: "send:1"
                ),
            ]
        ),
        MatrixCase(
            name: "message will send, message send failed",
            origin: .fake,
            setup: { harness in
                try await harness.connect()
                harness.fail("/publish/")
            },
            trigger: {
                _ = $0.client.sendMessage("hi", toChannel: $0.channel, withCompletionBlock: $0.recorder.sendBlock)
            },
            rows: [willSend, sendFailed(code: nil)]
        ),
        MatrixCase(
            name: "history received",
            setup: { harness in
                try await harness.connect()
                let start = harness.mark
                harness.client.sendMessage(
                    "stored",
                    toChannel: harness.channel,
                    withCompletionBlock: harness.recorder.sendBlock
                )
                try await harness.waitFor(.block, "send:1", from: start)
            },
            trigger: {
                $0.client.requestFullHistoryForChannel($0.channel, withCompletionBlock: $0.recorder.historyBlock)
            },
            rows: [
                Row(
                    event: "history",
                    delegate: "didReceiveMessageHistory",
                    observer: "history",
                    notification: kPNClientDidReceiveMessagesHistoryNotification,
                    block: "history"
                )
            ]
        ),
        MatrixCase(
            name: "history failed",
            origin: .fake,
            setup: { harness in
                try await harness.connect()
                harness.fail("/v2/history/")
            },
            trigger: {
                $0.client.requestFullHistoryForChannel($0.channel, withCompletionBlock: $0.recorder.historyBlock)
            },
            rows: [
                Row(
                    event: "history failed",
                    delegate: "historyDownloadDidFail",
                    observer: "history:error",
                    notification: kPNClientHistoryDownloadFailedWithErrorNotification,
                    block: "history"
                )
            ]
        ),
        MatrixCase(
            name: "participants received",
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe()
            },
            trigger: {
                $0.client.requestParticipantsListForChannel(
                    $0.channel,
                    withCompletionBlock: $0.recorder.participantsBlock
                )
            },
            rows: [
                Row(
                    event: "participants",
                    delegate: "didReceiveParticipantsList",
                    observer: "participants",
                    notification: kPNClientDidReceiveParticipantsListNotification,
                    block: "participants"
                )
            ]
        ),
        MatrixCase(
            name: "participants failed",
            origin: .fake,
            setup: { harness in
                try await harness.connect()
                harness.fail("/v2/presence/")
            },
            trigger: {
                $0.client.requestParticipantsListForChannel(
                    $0.channel,
                    withCompletionBlock: $0.recorder.participantsBlock
                )
            },
            rows: [
                Row(
                    event: "participants failed",
                    delegate: "participantsListDownloadDidFail",
                    observer: "participants:error",
                    notification: kPNClientParticipantsListDownloadFailedWithErrorNotification,
                    block: "participants"
                )
            ]
        ),
    ]

    static let willSend = Row(
        event: "will send",
        delegate: "willSendMessage",
        observer: "messageProcessing:0",
        notification: kPNClientWillSendMessageNotification,
        block: "send:0"
    )

    static func sendFailed(code: Int?) -> Row {
        Row(
            event: "send failed",
            delegate: "messageSendDidFail",
            observer: "messageProcessing:2",
            notification: kPNClientMessageSendingDidFailNotification,
            block: "send:2",
            code: code
        )
    }

    /// A push operation on a connected client: on LocalOrigin, or refused (403) by the in-memory transport.
    static func pushCase(
        _ name: String,
        failing: Bool,
        trigger: @escaping @Sendable (MatrixHarness) -> Void,
        row: Row
    ) -> MatrixCase {
        MatrixCase(
            name: name,
            origin: failing ? .fake : .local,
            setup: { harness in
                try await harness.connect()
                if failing { harness.fail("/v1/push/") }
            },
            trigger: { trigger($0) },
            rows: [row]
        )
    }
}
