import Foundation
import PNObservation
import Testing

@testable import PubNubLegacy

// docs/API-3.4.md §3.3 pre-flight failures. Each API is called twice: before the first connect, where gate G is closed
// and only the call's own block hears of the failure (D5: history and participants blocks too), and after a network
// loss, where G is open and all four channels report 104.

extension EventMatrixTests {
    /// One API of docs/API-3.4.md §3.3: how to call it and the row it produces when G is open.
    struct PreflightAPI: Sendable {
        let name: String
        let call: @Sendable (MatrixHarness) -> Void
        let row: Row
    }

    static let preflightAPIs: [PreflightAPI] = [
        PreflightAPI(
            name: "subscribe",
            call: {
                $0.client.subscribeOnChannels(
                    [$0.channel],
                    withPresenceEvent: false,
                    andCompletionHandlingBlock: $0.recorder.subscribeBlock
                )
            },
            row: Row(
                event: "subscribe",
                delegate: "subscriptionDidFail",
                observer: "subscription:0",
                notification: kPNClientSubscriptionDidFailNotification,
                block: "subscribe:0"
            )
        ),
        PreflightAPI(
            name: "unsubscribe",
            call: {
                $0.client.unsubscribeFromChannels(
                    [$0.channel],
                    withPresenceEvent: false,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("unsubscribe")
                )
            },
            // A3: after a network loss an unsubscribe completes locally at once.
            row: Row(
                event: "unsubscribe",
                delegate: "didUnsubscribe",
                observer: "unsubscription",
                notification: kPNClientUnsubscriptionDidCompleteNotification,
                block: "unsubscribe"
            )
        ),
        PreflightAPI(
            name: "enable presence",
            call: {
                $0.client.enablePresenceObservationForChannels(
                    [$0.channel],
                    withCompletionHandlingBlock: $0.recorder.channelsBlock("presenceEnable")
                )
            },
            row: Row(
                event: "enable presence",
                delegate: "presenceObservationEnablingDidFail",
                observer: "presenceEnable:error",
                notification: kPNClientPresenceEnablingDidFailNotification,
                block: "presenceEnable"
            )
        ),
        PreflightAPI(
            name: "disable presence",
            call: {
                $0.client.disablePresenceObservationForChannels(
                    [$0.channel],
                    withCompletionHandlingBlock: $0.recorder.channelsBlock("presenceDisable")
                )
            },
            row: Row(
                event: "disable presence",
                delegate: "presenceObservationDisablingDidFail",
                observer: "presenceDisable:error",
                notification: kPNClientPresenceDisablingDidFailNotification,
                block: "presenceDisable"
            )
        ),
        PreflightAPI(
            name: "push enable",
            call: {
                $0.client.enablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: $0.token,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushEnable")
                )
            },
            row: Row(
                event: "push enable",
                delegate: "pushNotificationEnableDidFail",
                observer: "pushEnable:error",
                notification: kPNClientPushNotificationEnableDidFailNotification,
                block: "pushEnable"
            )
        ),
        PreflightAPI(
            name: "push disable (D4)",
            call: {
                $0.client.disablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: $0.token,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushDisable")
                )
            },
            row: Row(
                event: "push disable",
                delegate: "pushNotificationDisableDidFail",
                observer: "pushDisable:error",
                notification: kPNClientPushNotificationDisableDidFailNotification,
                block: "pushDisable"
            )
        ),
        PreflightAPI(
            name: "push remove",
            call: {
                $0.client.removeAllPushNotificationsForDevicePushToken(
                    $0.token,
                    withCompletionHandlingBlock: $0.recorder.pushRemoveBlock
                )
            },
            row: Row(
                event: "push remove",
                delegate: "pushNotificationRemoveDidFail",
                observer: "pushRemove:error",
                notification: kPNClientPushNotificationRemoveDidFailNotification,
                block: "pushRemove"
            )
        ),
        PreflightAPI(
            name: "push list",
            call: {
                $0.client.requestPushNotificationEnabledChannelsForDevicePushToken(
                    $0.token,
                    withCompletionHandlingBlock: $0.recorder.pushListBlock
                )
            },
            row: Row(
                event: "push list",
                delegate: "pushNotificationEnabledChannelsDidFail",
                observer: "pushList:error",
                notification: kPNClientPushNotificationChannelsRetrieveDidFailNotification,
                block: "pushList"
            )
        ),
        PreflightAPI(
            name: "time token",
            call: { $0.client.requestServerTimeTokenWithCompletionBlock($0.recorder.timeBlock) },
            row: Row(
                event: "time token",
                delegate: "timeTokenReceiveDidFail",
                observer: "time:error",
                notification: kPNClientDidFailTimeTokenReceiveNotification,
                block: "time"
            )
        ),
        PreflightAPI(
            name: "send message",
            call: {
                _ = $0.client.sendMessage("hi", toChannel: $0.channel, withCompletionBlock: $0.recorder.sendBlock)
            },
            row: sendFailed(code: nil)
        ),
        PreflightAPI(
            name: "history (D5: block called)",
            call: { $0.client.requestFullHistoryForChannel($0.channel, withCompletionBlock: $0.recorder.historyBlock) },
            row: Row(
                event: "history",
                delegate: "historyDownloadDidFail",
                observer: "history:error",
                notification: kPNClientHistoryDownloadFailedWithErrorNotification,
                block: "history"
            )
        ),
        PreflightAPI(
            name: "participants (D5: block called)",
            call: {
                $0.client.requestParticipantsListForChannel(
                    $0.channel,
                    withCompletionBlock: $0.recorder.participantsBlock
                )
            },
            row: Row(
                event: "participants",
                delegate: "participantsListDownloadDidFail",
                observer: "participants:error",
                notification: kPNClientParticipantsListDownloadFailedWithErrorNotification,
                block: "participants"
            )
        ),
    ]

    static var preflightCases: [MatrixCase] {
        let gateClosed = Self.preflightAPIs.map { api in
            var row = api.row
            row.delegate = nil
            row.observer = nil
            row.notification = nil
            row.code = api.name == "unsubscribe" ? kPNRequestExecutionFailedClientNotReadyError : nil
            return MatrixCase(
                name: "pre-flight before connect, G closed: \(api.name)",
                trigger: { api.call($0) },
                rows: [row]
            )
        }
        let gateOpen = Self.preflightAPIs.map { api in
            var row = api.row
            row.code = api.name == "unsubscribe" ? nil : kPNRequestExecutionFailedOnInternetFailureError
            return MatrixCase(
                name: "pre-flight after a network loss, G open: \(api.name)",
                origin: .fake,
                setup: { harness in
                    try await harness.connect()
                    try await harness.loseNetwork()
                },
                trigger: { api.call($0) },
                rows: [row]
            )
        }
        return gateClosed + gateOpen + Self.otherPreflightCases
    }

    static let otherPreflightCases: [MatrixCase] = [
        MatrixCase(
            name: "send message without content (122)",
            setup: { try await $0.connect() },
            trigger: {
                _ = $0.client.sendMessage("", toChannel: $0.channel, withCompletionBlock: $0.recorder.sendBlock)
            },
            rows: [sendFailed(code: kPNMessageHasNoContentError)]
        ),
        MatrixCase(
            name: "push enable with an empty token (125)",
            setup: { try await $0.connect() },
            trigger: {
                $0.client.enablePushNotificationsOnChannels(
                    [$0.channel],
                    withDevicePushToken: Data(),
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("pushEnable")
                )
            },
            rows: [
                Row(
                    event: "push enable",
                    delegate: "pushNotificationEnableDidFail",
                    observer: "pushEnable:error",
                    notification: kPNClientPushNotificationEnableDidFailNotification,
                    block: "pushEnable",
                    code: kPNDevicePushTokenIsEmptyError
                )
            ]
        ),
        MatrixCase(
            name: "connect while connected (101 on every channel, as 3.4.2)",
            setup: { try await $0.connect() },
            trigger: {
                $0.client.connectWithSuccessBlock($0.recorder.connectSuccess, errorBlock: $0.recorder.connectFailure)
            },
            rows: [
                Row(
                    event: "connect while connected",
                    delegate: "connectionDidFail",
                    observer: "connection:error",
                    notification: kPNClientConnectionDidFailWithErrorNotification,
                    block: "connect.error",
                    code: kPNClientTriedConnectWhileConnectedError
                )
            ]
        ),
        MatrixCase(
            name: "connect while the network is known unreachable (102, block only)",
            origin: .fake,
            setup: { harness in
                try await harness.connect()
                try await harness.loseNetwork()
            },
            trigger: {
                $0.client.connectWithSuccessBlock($0.recorder.connectSuccess, errorBlock: $0.recorder.connectFailure)
            },
            rows: [
                Row(
                    event: "connect while unreachable",
                    block: "connect.error",
                    code: kPNClientConnectionFailedOnInternetFailureError
                )
            ]
        ),
    ]
}
