import Foundation
import Testing

@testable import PubNubLegacy

/// The 34 notification names of docs/API-3.4.md §2.4: 3.4 constant, static member, raw value.
@Suite struct PNNotificationsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let constant: Notification.Name
        let member: Notification.Name
        let raw: String
        var testDescription: String { self.raw }
    }

    static let table: [Row] = [
        Row(constant: kPNClientErrorNotification, member: .pnClientError, raw: "PNClientErrorNotification"),
        Row(
            constant: kPNClientDidConnectToOriginNotification,
            member: .pnClientDidConnectToOrigin,
            raw: "PNClientDidConnectToOriginNotification"
        ),
        Row(
            constant: kPNClientWillConnectToOriginNotification,
            member: .pnClientWillConnectToOrigin,
            raw: "PNClientWillConnectToOriginNotification"
        ),
        Row(
            constant: kPNClientDidDisconnectFromOriginNotification,
            member: .pnClientDidDisconnectFromOrigin,
            raw: "PNClientDidDisconnectFromOriginNotification"
        ),
        Row(
            constant: kPNClientConnectionDidFailWithErrorNotification,
            member: .pnClientConnectionDidFailWithError,
            raw: "PNClientConnectionDidFailWithErrorNotification"
        ),
        Row(
            constant: kPNClientSubscriptionDidCompleteNotification,
            member: .pnClientSubscriptionDidComplete,
            raw: "PNClientSubscriptionDidCompleteNotification"
        ),
        Row(
            constant: kPNClientSubscriptionWillRestoreNotification,
            member: .pnClientSubscriptionWillRestore,
            raw: "PNClientSubscriptionWillRestoreNotification"
        ),
        Row(
            constant: kPNClientSubscriptionDidRestoreNotification,
            member: .pnClientSubscriptionDidRestore,
            raw: "PNClientSubscriptionDidRestoreNotification"
        ),
        Row(
            constant: kPNClientSubscriptionDidFailNotification,
            member: .pnClientSubscriptionDidFail,
            raw: "PNClientSubscriptionDidFailNotification"
        ),
        Row(
            constant: kPNClientUnsubscriptionDidCompleteNotification,
            member: .pnClientUnsubscriptionDidComplete,
            raw: "PNClientUnsubscriptionDidCompleteNotification"
        ),
        Row(
            constant: kPNClientUnsubscriptionDidFailNotification,
            member: .pnClientUnsubscriptionDidFail,
            raw: "PNClientUnsubscriptionDidFailNotification"
        ),
        Row(
            constant: kPNClientPresenceEnablingDidCompleteNotification,
            member: .pnClientPresenceEnablingDidComplete,
            raw: "PNClientPresenceEnablingDidCompleteNotification"
        ),
        Row(
            constant: kPNClientPresenceEnablingDidFailNotification,
            member: .pnClientPresenceEnablingDidFail,
            raw: "PNClientPresenceEnablingDidFailNotification"
        ),
        Row(
            constant: kPNClientPresenceDisablingDidCompleteNotification,
            member: .pnClientPresenceDisablingDidComplete,
            raw: "PNClientPresenceDisablingDidCompleteNotification"
        ),
        Row(
            constant: kPNClientPresenceDisablingDidFailNotification,
            member: .pnClientPresenceDisablingDidFail,
            raw: "PNClientPresenceDisablingDidFailNotification"
        ),
        Row(
            constant: kPNClientPushNotificationEnableDidCompleteNotification,
            member: .pnClientPushNotificationEnableDidComplete,
            raw: "PNClientPushNotificationEnableDidCompleteNotification"
        ),
        Row(
            constant: kPNClientPushNotificationEnableDidFailNotification,
            member: .pnClientPushNotificationEnableDidFail,
            raw: "PNClientPushNotificationEnableDidFailNotification"
        ),
        Row(
            constant: kPNClientPushNotificationDisableDidCompleteNotification,
            member: .pnClientPushNotificationDisableDidComplete,
            raw: "PNClientPushNotificationDisableDidCompleteNotification"
        ),
        Row(
            constant: kPNClientPushNotificationDisableDidFailNotification,
            member: .pnClientPushNotificationDisableDidFail,
            raw: "PNClientPushNotificationDisableDidFailNotification"
        ),
        Row(
            constant: kPNClientPushNotificationRemoveDidCompleteNotification,
            member: .pnClientPushNotificationRemoveDidComplete,
            raw: "PNClientPushNotificationRemoveDidCompleteNotification"
        ),
        Row(
            constant: kPNClientPushNotificationRemoveDidFailNotification,
            member: .pnClientPushNotificationRemoveDidFail,
            raw: "PNClientPushNotificationRemoveDidFailNotification"
        ),
        Row(
            constant: kPNClientPushNotificationChannelsRetrieveDidCompleteNotification,
            member: .pnClientPushNotificationChannelsRetrieveDidComplete,
            raw: "PNClientPushNotificationChannelsRetrieveDidCompleteNotification"
        ),
        Row(
            constant: kPNClientPushNotificationChannelsRetrieveDidFailNotification,
            member: .pnClientPushNotificationChannelsRetrieveDidFail,
            raw: "PNClientPushNotificationChannelsRetrieveDidFailNotification"
        ),
        Row(
            constant: kPNClientDidReceiveTimeTokenNotification,
            member: .pnClientDidReceiveTimeToken,
            raw: "PNClientDidReceiveTimeTokenNotification"
        ),
        Row(
            constant: kPNClientDidFailTimeTokenReceiveNotification,
            member: .pnClientDidFailTimeTokenReceive,
            raw: "PNClientDidFailTimeTokenReceiveNotification"
        ),
        Row(
            constant: kPNClientWillSendMessageNotification,
            member: .pnClientWillSendMessage,
            raw: "PNClientWillSendMessageNotification"
        ),
        Row(
            constant: kPNClientDidSendMessageNotification,
            member: .pnClientDidSendMessage,
            raw: "PNClientDidSendMessageNotification"
        ),
        Row(
            constant: kPNClientMessageSendingDidFailNotification,
            member: .pnClientMessageSendingDidFail,
            raw: "PNClientMessageSendingDidFailNotification"
        ),
        Row(
            constant: kPNClientDidReceiveMessageNotification,
            member: .pnClientDidReceiveMessage,
            raw: "PNClientDidReceiveMessageNotification"
        ),
        Row(
            constant: kPNClientDidReceivePresenceEventNotification,
            member: .pnClientDidReceivePresenceEvent,
            raw: "PNClientDidReceivePresenceEventNotification"
        ),
        Row(
            constant: kPNClientDidReceiveMessagesHistoryNotification,
            member: .pnClientDidReceiveMessagesHistory,
            raw: "PNClientDidReceiveMessagesHistoryNotification"
        ),
        Row(
            constant: kPNClientHistoryDownloadFailedWithErrorNotification,
            member: .pnClientHistoryDownloadFailedWithError,
            raw: "PNClientHistoryDownloadFailedWithErrorNotification"
        ),
        Row(
            constant: kPNClientDidReceiveParticipantsListNotification,
            member: .pnClientDidReceiveParticipantsList,
            raw: "PNClientDidReceiveParticipantsListNotification"
        ),
        Row(
            constant: kPNClientParticipantsListDownloadFailedWithErrorNotification,
            member: .pnClientParticipantsListDownloadFailedWithError,
            raw: "PNClientParticipantsListDownloadFailedWithErrorNotification"
        ),
    ]

    @Test func thereAreThirtyFourDistinctNames() {
        #expect(Self.table.count == 34)
        #expect(Set(Self.table.map(\.raw)).count == 34)
    }

    @Test(arguments: table)
    func rawValueIsTheThreeFourString(_ row: Row) {
        #expect(row.constant.rawValue == row.raw)
        #expect(row.member == row.constant)
    }

    @Test func payloadKeyAndAccessors() {
        #expect(kPNNotificationPayloadKey == "PNNotificationPayload")
        let message = PNMessage(message: "m", channel: nil, receiveDate: nil, timeToken: nil)
        let notification = Notification(
            name: .pnClientDidReceiveMessage,
            object: nil,
            userInfo: Notification.pnUserInfo(payload: message)
        )
        #expect(notification.pnPayload as? PNMessage === message)
        #expect(notification.pnPayload(as: PNMessage.self) === message)
        #expect(notification.pnPayload(as: PNError.self) == nil)
    }

    /// Each `userInfo` is a dictionary of its own with exactly one entry, the payload under its key, however many are
    /// made (they start from one shared template and must never show another notification's payload).
    @Test func everyUserInfoHoldsItsOwnPayloadAlone() {
        let messages = (0..<200).map { PNMessage(message: "m\($0)", channel: nil, receiveDate: nil, timeToken: nil) }
        let made = messages.map { Notification.pnUserInfo(payload: $0) }
        for (message, userInfo) in zip(messages, made) {
            #expect(userInfo?.count == 1)
            #expect(userInfo?.keys.first == AnyHashable(kPNNotificationPayloadKey))
            #expect(userInfo?[kPNNotificationPayloadKey] as? PNMessage === message)
        }
        let channels = [PNChannel(name: "a")]
        let number = Notification.pnUserInfo(payload: NSNumber(value: 7))
        #expect((Notification.pnUserInfo(payload: channels)?[kPNNotificationPayloadKey] as? [PNChannel]) == channels)
        #expect((number?[kPNNotificationPayloadKey] as? NSNumber) == NSNumber(value: 7))
        #expect(made.first??[kPNNotificationPayloadKey] as? PNMessage === messages.first)
    }

    @Test func noPayloadMeansNoUserInfo() {
        #expect(Notification.pnUserInfo(payload: nil) == nil)
        let notification = Notification(
            name: .pnClientPushNotificationRemoveDidComplete,
            object: nil,
            userInfo: Notification.pnUserInfo(payload: nil)
        )
        #expect(notification.userInfo == nil)
        #expect(notification.pnPayload == nil)
    }

    @Test func channelListPayloadsAreTyped() {
        let channels = [PNChannel(name: "a"), PNChannel(name: "b")]
        let notification = Notification(
            name: kPNClientSubscriptionDidCompleteNotification,
            object: nil,
            userInfo: Notification.pnUserInfo(payload: channels)
        )
        #expect(notification.pnPayload(as: [PNChannel].self) == channels)
    }
}
