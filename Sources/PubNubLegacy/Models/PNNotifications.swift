// The 34 notification names of 3.4's `PNNotifications.h` (docs/API-3.4.md §2.4). Each exists twice: as a
// `Notification.Name` static member (`.pnClientDidReceiveMessage`) and under its 3.4 constant name
// (`kPNClientDidReceiveMessageNotification`); both have the 3.4 string as raw value. 3.4 put the payload object
// itself in `userInfo`; Swift's `userInfo` is a dictionary, so the payload sits under `kPNNotificationPayloadKey`
// (docs/API-3.4.md §1.7). Notifications are posted on `NotificationCenter.default` with the client as `object`,
// on the delivery queue, after the delegate and the observation center (docs/DESIGN.md §4).

import Foundation

/// The `userInfo` key under which every notification of the client carries its payload; new in this package.
public let kPNNotificationPayloadKey = "PNNotificationPayload"

extension Notification {
    /// The payload the client attached (`userInfo[kPNNotificationPayloadKey]`); nil when there is none.
    public var pnPayload: Any? {
        self.userInfo?[kPNNotificationPayloadKey]
    }

    /// The payload as `type` (e.g. `notification.pnPayload(as: PNMessage.self)`); nil when there is none or it
    /// is of another type.
    public func pnPayload<Payload>(as type: Payload.Type) -> Payload? {
        self.pnPayload as? Payload
    }
}

extension Notification {
    /// The `userInfo` a client notification carries: the payload under `kPNNotificationPayloadKey`, or nil for
    /// no payload.
    static func pnUserInfo(payload: Any?) -> [AnyHashable: Any]? {
        guard let payload else { return nil }
        // A copy of a one-entry dictionary made once, with the value replaced at the key's known position: the key is
        // not hashed again for every notification (a new dictionary costs about twice as much). The copy gets its
        // own storage at the first write, so no two notifications share a value.
        var userInfo = PayloadUserInfo.template
        userInfo.values[PayloadUserInfo.position] = payload
        return userInfo
    }
}

/// The `userInfo` every notification with a payload starts from, and where its one value sits.
// nonisolated(unsafe): both are constants, only read; a copy of the dictionary takes storage of its own before it
// is written (the storage's reference count is atomic), and its one value, `NSNull`, is immutable.
private enum PayloadUserInfo {
    nonisolated(unsafe) static let template: [AnyHashable: Any] = [kPNNotificationPayloadKey: NSNull()]
    nonisolated(unsafe) static let position = template.index(forKey: kPNNotificationPayloadKey)!
}

// MARK: - Names

extension Notification.Name {
    /// Posted when a configuration error (code 100) from setup or connect. Payload: `PNError`. 3.4 name: `kPNClientErrorNotification`.
    public static let pnClientError = Notification.Name("PNClientErrorNotification")

    /// Posted when the client connected. Payload: the origin (`String`). 3.4 name: `kPNClientDidConnectToOriginNotification`.
    public static let pnClientDidConnectToOrigin = Notification.Name("PNClientDidConnectToOriginNotification")

    /// Posted when the client starts connecting. Payload: the origin (`String`). 3.4 name: `kPNClientWillConnectToOriginNotification`.
    public static let pnClientWillConnectToOrigin = Notification.Name("PNClientWillConnectToOriginNotification")

    /// Posted when the client disconnected cleanly. Payload: the origin (`String`). 3.4 name: `kPNClientDidDisconnectFromOriginNotification`.
    public static let pnClientDidDisconnectFromOrigin = Notification.Name("PNClientDidDisconnectFromOriginNotification")

    /// Posted when connecting failed, or the connection is about to close or closed because of an error. Payload: `PNError`. 3.4 name: `kPNClientConnectionDidFailWithErrorNotification`.
    public static let pnClientConnectionDidFailWithError = Notification.Name(
        "PNClientConnectionDidFailWithErrorNotification"
    )

    /// Posted when a subscribe completed. Payload: `[PNChannel]`. 3.4 name: `kPNClientSubscriptionDidCompleteNotification`.
    public static let pnClientSubscriptionDidComplete = Notification.Name("PNClientSubscriptionDidCompleteNotification")

    /// Posted when the client is about to restore its subscription. Payload: `[PNChannel]`. 3.4 name: `kPNClientSubscriptionWillRestoreNotification`.
    public static let pnClientSubscriptionWillRestore = Notification.Name("PNClientSubscriptionWillRestoreNotification")

    /// Posted when the subscription was restored. Payload: `[PNChannel]`. 3.4 name: `kPNClientSubscriptionDidRestoreNotification`.
    public static let pnClientSubscriptionDidRestore = Notification.Name("PNClientSubscriptionDidRestoreNotification")

    /// Posted when a subscribe failed. Payload: `PNError` (channels in `associatedObject`). 3.4 name: `kPNClientSubscriptionDidFailNotification`.
    public static let pnClientSubscriptionDidFail = Notification.Name("PNClientSubscriptionDidFailNotification")

    /// Posted when an unsubscribe completed. Payload: `[PNChannel]`. 3.4 name: `kPNClientUnsubscriptionDidCompleteNotification`.
    public static let pnClientUnsubscriptionDidComplete = Notification.Name(
        "PNClientUnsubscriptionDidCompleteNotification"
    )

    /// Posted when an unsubscribe failed. Payload: `PNError` (channels in `associatedObject`). 3.4 name: `kPNClientUnsubscriptionDidFailNotification`.
    public static let pnClientUnsubscriptionDidFail = Notification.Name("PNClientUnsubscriptionDidFailNotification")

    /// Posted when presence observation was enabled. Payload: `[PNChannel]` (the observed channels). 3.4 name: `kPNClientPresenceEnablingDidCompleteNotification`.
    public static let pnClientPresenceEnablingDidComplete = Notification.Name(
        "PNClientPresenceEnablingDidCompleteNotification"
    )

    /// Posted when enabling presence observation failed. Payload: `PNError` (channels in `associatedObject`). 3.4 name: `kPNClientPresenceEnablingDidFailNotification`.
    public static let pnClientPresenceEnablingDidFail = Notification.Name("PNClientPresenceEnablingDidFailNotification")

    /// Posted when presence observation was disabled. Payload: `[PNChannel]` (the observed channels). 3.4 name: `kPNClientPresenceDisablingDidCompleteNotification`.
    public static let pnClientPresenceDisablingDidComplete = Notification.Name(
        "PNClientPresenceDisablingDidCompleteNotification"
    )

    /// Posted when disabling presence observation failed. Payload: `PNError` (channels in `associatedObject`). 3.4 name: `kPNClientPresenceDisablingDidFailNotification`.
    public static let pnClientPresenceDisablingDidFail = Notification.Name(
        "PNClientPresenceDisablingDidFailNotification"
    )

    /// Posted when push notifications were enabled. Payload: `[PNChannel]`. 3.4 name: `kPNClientPushNotificationEnableDidCompleteNotification`.
    public static let pnClientPushNotificationEnableDidComplete = Notification.Name(
        "PNClientPushNotificationEnableDidCompleteNotification"
    )

    /// Posted when enabling push notifications failed. Payload: `PNError` (channels in `associatedObject`). 3.4 name: `kPNClientPushNotificationEnableDidFailNotification`.
    public static let pnClientPushNotificationEnableDidFail = Notification.Name(
        "PNClientPushNotificationEnableDidFailNotification"
    )

    /// Posted when push notifications were disabled. Payload: `[PNChannel]`. 3.4 name: `kPNClientPushNotificationDisableDidCompleteNotification`.
    public static let pnClientPushNotificationDisableDidComplete = Notification.Name(
        "PNClientPushNotificationDisableDidCompleteNotification"
    )

    /// Posted when disabling push notifications failed. Payload: `PNError` (channels in `associatedObject`). 3.4 name: `kPNClientPushNotificationDisableDidFailNotification`.
    public static let pnClientPushNotificationDisableDidFail = Notification.Name(
        "PNClientPushNotificationDisableDidFailNotification"
    )

    /// Posted when push notifications were removed from all channels. Payload: none (`userInfo` is nil). 3.4 name: `kPNClientPushNotificationRemoveDidCompleteNotification`.
    public static let pnClientPushNotificationRemoveDidComplete = Notification.Name(
        "PNClientPushNotificationRemoveDidCompleteNotification"
    )

    /// Posted when removing push notifications failed. Payload: `PNError`. 3.4 name: `kPNClientPushNotificationRemoveDidFailNotification`.
    public static let pnClientPushNotificationRemoveDidFail = Notification.Name(
        "PNClientPushNotificationRemoveDidFailNotification"
    )

    /// Posted when the push-enabled channels arrived. Payload: `[PNChannel]`. 3.4 name: `kPNClientPushNotificationChannelsRetrieveDidCompleteNotification`.
    public static let pnClientPushNotificationChannelsRetrieveDidComplete = Notification.Name(
        "PNClientPushNotificationChannelsRetrieveDidCompleteNotification"
    )

    /// Posted when retrieving the push-enabled channels failed. Payload: `PNError`. 3.4 name: `kPNClientPushNotificationChannelsRetrieveDidFailNotification`.
    public static let pnClientPushNotificationChannelsRetrieveDidFail = Notification.Name(
        "PNClientPushNotificationChannelsRetrieveDidFailNotification"
    )

    /// Posted when a time token arrived. Payload: the time token (`NSNumber`). 3.4 name: `kPNClientDidReceiveTimeTokenNotification`.
    public static let pnClientDidReceiveTimeToken = Notification.Name("PNClientDidReceiveTimeTokenNotification")

    /// Posted when a time token request failed. Payload: `PNError`. 3.4 name: `kPNClientDidFailTimeTokenReceiveNotification`.
    public static let pnClientDidFailTimeTokenReceive = Notification.Name("PNClientDidFailTimeTokenReceiveNotification")

    /// Posted when a message is about to be sent. Payload: `PNMessage`. 3.4 name: `kPNClientWillSendMessageNotification`.
    public static let pnClientWillSendMessage = Notification.Name("PNClientWillSendMessageNotification")

    /// Posted when a message was sent. Payload: `PNMessage`. 3.4 name: `kPNClientDidSendMessageNotification`.
    public static let pnClientDidSendMessage = Notification.Name("PNClientDidSendMessageNotification")

    /// Posted when sending a message failed. Payload: `PNError` (the `PNMessage` in `associatedObject`). 3.4 name: `kPNClientMessageSendingDidFailNotification`.
    public static let pnClientMessageSendingDidFail = Notification.Name("PNClientMessageSendingDidFailNotification")

    /// Posted when a message arrived. Payload: `PNMessage`. 3.4 name: `kPNClientDidReceiveMessageNotification`.
    public static let pnClientDidReceiveMessage = Notification.Name("PNClientDidReceiveMessageNotification")

    /// Posted when a presence event arrived. Payload: `PNPresenceEvent`. 3.4 name: `kPNClientDidReceivePresenceEventNotification`.
    public static let pnClientDidReceivePresenceEvent = Notification.Name("PNClientDidReceivePresenceEventNotification")

    /// Posted when a history page arrived. Payload: `PNMessagesHistory`. 3.4 name: `kPNClientDidReceiveMessagesHistoryNotification`.
    public static let pnClientDidReceiveMessagesHistory = Notification.Name(
        "PNClientDidReceiveMessagesHistoryNotification"
    )

    /// Posted when a history request failed. Payload: `PNError` (the `PNChannel` in `associatedObject`). 3.4 name: `kPNClientHistoryDownloadFailedWithErrorNotification`.
    public static let pnClientHistoryDownloadFailedWithError = Notification.Name(
        "PNClientHistoryDownloadFailedWithErrorNotification"
    )

    /// Posted when a here-now answer arrived. Payload: `PNHereNow`. 3.4 name: `kPNClientDidReceiveParticipantsListNotification`.
    public static let pnClientDidReceiveParticipantsList = Notification.Name(
        "PNClientDidReceiveParticipantsListNotification"
    )

    /// Posted when a here-now request failed. Payload: `PNError` (the `PNChannel` in `associatedObject`). 3.4 name: `kPNClientParticipantsListDownloadFailedWithErrorNotification`.
    public static let pnClientParticipantsListDownloadFailedWithError = Notification.Name(
        "PNClientParticipantsListDownloadFailedWithErrorNotification"
    )
}

// MARK: - 3.4 constant names

/// `Notification.Name.pnClientError` under its 3.4 name: posted when a configuration error (code 100) from setup or connect.
public let kPNClientErrorNotification = Notification.Name.pnClientError

/// `Notification.Name.pnClientDidConnectToOrigin` under its 3.4 name: posted when the client connected.
public let kPNClientDidConnectToOriginNotification = Notification.Name.pnClientDidConnectToOrigin

/// `Notification.Name.pnClientWillConnectToOrigin` under its 3.4 name: posted when the client starts connecting.
public let kPNClientWillConnectToOriginNotification = Notification.Name.pnClientWillConnectToOrigin

/// `Notification.Name.pnClientDidDisconnectFromOrigin` under its 3.4 name: posted when the client disconnected cleanly.
public let kPNClientDidDisconnectFromOriginNotification = Notification.Name.pnClientDidDisconnectFromOrigin

/// `Notification.Name.pnClientConnectionDidFailWithError` under its 3.4 name: posted when connecting failed, or the connection is about to close or closed because of an error.
public let kPNClientConnectionDidFailWithErrorNotification = Notification.Name.pnClientConnectionDidFailWithError

/// `Notification.Name.pnClientSubscriptionDidComplete` under its 3.4 name: posted when a subscribe completed.
public let kPNClientSubscriptionDidCompleteNotification = Notification.Name.pnClientSubscriptionDidComplete

/// `Notification.Name.pnClientSubscriptionWillRestore` under its 3.4 name: posted when the client is about to restore its subscription.
public let kPNClientSubscriptionWillRestoreNotification = Notification.Name.pnClientSubscriptionWillRestore

/// `Notification.Name.pnClientSubscriptionDidRestore` under its 3.4 name: posted when the subscription was restored.
public let kPNClientSubscriptionDidRestoreNotification = Notification.Name.pnClientSubscriptionDidRestore

/// `Notification.Name.pnClientSubscriptionDidFail` under its 3.4 name: posted when a subscribe failed.
public let kPNClientSubscriptionDidFailNotification = Notification.Name.pnClientSubscriptionDidFail

/// `Notification.Name.pnClientUnsubscriptionDidComplete` under its 3.4 name: posted when an unsubscribe completed.
public let kPNClientUnsubscriptionDidCompleteNotification = Notification.Name.pnClientUnsubscriptionDidComplete

/// `Notification.Name.pnClientUnsubscriptionDidFail` under its 3.4 name: posted when an unsubscribe failed.
public let kPNClientUnsubscriptionDidFailNotification = Notification.Name.pnClientUnsubscriptionDidFail

/// `Notification.Name.pnClientPresenceEnablingDidComplete` under its 3.4 name: posted when presence observation was enabled.
public let kPNClientPresenceEnablingDidCompleteNotification = Notification.Name.pnClientPresenceEnablingDidComplete

/// `Notification.Name.pnClientPresenceEnablingDidFail` under its 3.4 name: posted when enabling presence observation failed.
public let kPNClientPresenceEnablingDidFailNotification = Notification.Name.pnClientPresenceEnablingDidFail

/// `Notification.Name.pnClientPresenceDisablingDidComplete` under its 3.4 name: posted when presence observation was disabled.
public let kPNClientPresenceDisablingDidCompleteNotification = Notification.Name.pnClientPresenceDisablingDidComplete

/// `Notification.Name.pnClientPresenceDisablingDidFail` under its 3.4 name: posted when disabling presence observation failed.
public let kPNClientPresenceDisablingDidFailNotification = Notification.Name.pnClientPresenceDisablingDidFail

/// `Notification.Name.pnClientPushNotificationEnableDidComplete` under its 3.4 name: posted when push notifications were enabled.
public let kPNClientPushNotificationEnableDidCompleteNotification = Notification.Name
    .pnClientPushNotificationEnableDidComplete

/// `Notification.Name.pnClientPushNotificationEnableDidFail` under its 3.4 name: posted when enabling push notifications failed.
public let kPNClientPushNotificationEnableDidFailNotification = Notification.Name.pnClientPushNotificationEnableDidFail

/// `Notification.Name.pnClientPushNotificationDisableDidComplete` under its 3.4 name: posted when push notifications were disabled.
public let kPNClientPushNotificationDisableDidCompleteNotification = Notification.Name
    .pnClientPushNotificationDisableDidComplete

/// `Notification.Name.pnClientPushNotificationDisableDidFail` under its 3.4 name: posted when disabling push notifications failed.
public let kPNClientPushNotificationDisableDidFailNotification = Notification.Name
    .pnClientPushNotificationDisableDidFail

/// `Notification.Name.pnClientPushNotificationRemoveDidComplete` under its 3.4 name: posted when push notifications were removed from all channels.
public let kPNClientPushNotificationRemoveDidCompleteNotification = Notification.Name
    .pnClientPushNotificationRemoveDidComplete

/// `Notification.Name.pnClientPushNotificationRemoveDidFail` under its 3.4 name: posted when removing push notifications failed.
public let kPNClientPushNotificationRemoveDidFailNotification = Notification.Name.pnClientPushNotificationRemoveDidFail

/// `Notification.Name.pnClientPushNotificationChannelsRetrieveDidComplete` under its 3.4 name: posted when the push-enabled channels arrived.
public let kPNClientPushNotificationChannelsRetrieveDidCompleteNotification = Notification.Name
    .pnClientPushNotificationChannelsRetrieveDidComplete

/// `Notification.Name.pnClientPushNotificationChannelsRetrieveDidFail` under its 3.4 name: posted when retrieving the push-enabled channels failed.
public let kPNClientPushNotificationChannelsRetrieveDidFailNotification = Notification.Name
    .pnClientPushNotificationChannelsRetrieveDidFail

/// `Notification.Name.pnClientDidReceiveTimeToken` under its 3.4 name: posted when a time token arrived.
public let kPNClientDidReceiveTimeTokenNotification = Notification.Name.pnClientDidReceiveTimeToken

/// `Notification.Name.pnClientDidFailTimeTokenReceive` under its 3.4 name: posted when a time token request failed.
public let kPNClientDidFailTimeTokenReceiveNotification = Notification.Name.pnClientDidFailTimeTokenReceive

/// `Notification.Name.pnClientWillSendMessage` under its 3.4 name: posted when a message is about to be sent.
public let kPNClientWillSendMessageNotification = Notification.Name.pnClientWillSendMessage

/// `Notification.Name.pnClientDidSendMessage` under its 3.4 name: posted when a message was sent.
public let kPNClientDidSendMessageNotification = Notification.Name.pnClientDidSendMessage

/// `Notification.Name.pnClientMessageSendingDidFail` under its 3.4 name: posted when sending a message failed.
public let kPNClientMessageSendingDidFailNotification = Notification.Name.pnClientMessageSendingDidFail

/// `Notification.Name.pnClientDidReceiveMessage` under its 3.4 name: posted when a message arrived.
public let kPNClientDidReceiveMessageNotification = Notification.Name.pnClientDidReceiveMessage

/// `Notification.Name.pnClientDidReceivePresenceEvent` under its 3.4 name: posted when a presence event arrived.
public let kPNClientDidReceivePresenceEventNotification = Notification.Name.pnClientDidReceivePresenceEvent

/// `Notification.Name.pnClientDidReceiveMessagesHistory` under its 3.4 name: posted when a history page arrived.
public let kPNClientDidReceiveMessagesHistoryNotification = Notification.Name.pnClientDidReceiveMessagesHistory

/// `Notification.Name.pnClientHistoryDownloadFailedWithError` under its 3.4 name: posted when a history request failed.
public let kPNClientHistoryDownloadFailedWithErrorNotification = Notification.Name
    .pnClientHistoryDownloadFailedWithError

/// `Notification.Name.pnClientDidReceiveParticipantsList` under its 3.4 name: posted when a here-now answer arrived.
public let kPNClientDidReceiveParticipantsListNotification = Notification.Name.pnClientDidReceiveParticipantsList

/// `Notification.Name.pnClientParticipantsListDownloadFailedWithError` under its 3.4 name: posted when a here-now request failed.
public let kPNClientParticipantsListDownloadFailedWithErrorNotification = Notification.Name
    .pnClientParticipantsListDownloadFailedWithError
