import Foundation
import PNObservation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

/// Listens to one client on all four channels at once — delegate, observation-center observers in every bucket,
/// `NotificationCenter.default` observers for all 34 names (only posts whose `object` is the client), and the
/// completion blocks it hands out — and records, on the delivery queue, one entry per callback: channel, label,
/// payload key and a sequence number.
///
/// The payload key makes "the same payload" comparable across channels that receive it in different shapes: an
/// object (error, message, presence event) by identity; channels by name; a time token by value; a history by
/// the identities of its messages; a participants list by its identifiers.
final class FourChannelRecorder: NamingDelegate, @unchecked Sendable {
    // @unchecked: the mutable state is `log` and `tokens`, both `Locked` boxes; `center` and `client` are lets.

    enum Channel: Int, Sendable, Comparable, CustomStringConvertible {
        case delegate, observer, notification, block

        static func < (lhs: Channel, rhs: Channel) -> Bool { lhs.rawValue < rhs.rawValue }

        var description: String { ["D", "O", "N", "B"][self.rawValue] }
    }

    struct Entry: Sendable, Equatable, CustomStringConvertible {
        let sequence: Int
        let channel: Channel
        let label: String
        let key: String

        var description: String { "\(self.channel):\(self.label)[\(self.key)]" }
    }

    let center: PNObservationCenter
    private let log = Locked<[Entry]>([])
    private let tokens = Locked<[NSObjectProtocol]>([])
    /// Read by the delivery-queue callbacks only to compare identity.
    private weak var client: PubNub?

    /// Starts listening to `client` on the four channels: becomes its delegate, registers in every bucket of
    /// `center` (which must observe `client`), and observes every notification name for `client`.
    init(client: PubNub, center: PNObservationCenter) {
        self.center = center
        self.client = client
        super.init()
        client.setDelegate(self)
        self.registerObservers()
        let names = Self.notificationNames
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: client, queue: nil) { [weak self] note in
                guard let self, let client = self.client, (note.object as AnyObject?) === client else { return }
                let payload: Any? = note.userInfo == nil ? nil : note.pnPayload
                self.record(.notification, note.name.rawValue, Self.key(payload))
            }
        }
        self.tokens.withLock { $0 = tokens }
    }

    deinit {
        for token in self.tokens.current {
            NotificationCenter.default.removeObserver(token)
        }
    }

    /// Stops the notification observers (the center's registrations end with this object).
    func stop() {
        let tokens = self.tokens.withLock { tokens in
            defer { tokens.removeAll() }
            return tokens
        }
        for token in tokens {
            NotificationCenter.default.removeObserver(token)
        }
    }

    /// All 34 names of docs/API-3.4.md §2.4.
    static let notificationNames: [Notification.Name] = [
        kPNClientErrorNotification, kPNClientDidConnectToOriginNotification, kPNClientWillConnectToOriginNotification,
        kPNClientDidDisconnectFromOriginNotification, kPNClientConnectionDidFailWithErrorNotification,
        kPNClientSubscriptionDidCompleteNotification, kPNClientSubscriptionWillRestoreNotification,
        kPNClientSubscriptionDidRestoreNotification, kPNClientSubscriptionDidFailNotification,
        kPNClientUnsubscriptionDidCompleteNotification, kPNClientUnsubscriptionDidFailNotification,
        kPNClientPresenceEnablingDidCompleteNotification, kPNClientPresenceEnablingDidFailNotification,
        kPNClientPresenceDisablingDidCompleteNotification, kPNClientPresenceDisablingDidFailNotification,
        kPNClientPushNotificationEnableDidCompleteNotification, kPNClientPushNotificationEnableDidFailNotification,
        kPNClientPushNotificationDisableDidCompleteNotification, kPNClientPushNotificationDisableDidFailNotification,
        kPNClientPushNotificationRemoveDidCompleteNotification, kPNClientPushNotificationRemoveDidFailNotification,
        kPNClientPushNotificationChannelsRetrieveDidCompleteNotification,
        kPNClientPushNotificationChannelsRetrieveDidFailNotification, kPNClientDidReceiveTimeTokenNotification,
        kPNClientDidFailTimeTokenReceiveNotification, kPNClientWillSendMessageNotification,
        kPNClientDidSendMessageNotification, kPNClientMessageSendingDidFailNotification,
        kPNClientDidReceiveMessageNotification, kPNClientDidReceivePresenceEventNotification,
        kPNClientDidReceiveMessagesHistoryNotification, kPNClientHistoryDownloadFailedWithErrorNotification,
        kPNClientDidReceiveParticipantsListNotification, kPNClientParticipantsListDownloadFailedWithErrorNotification,
    ]

    // MARK: - Log

    var entries: [Entry] { self.log.current }

    func record(_ channel: Channel, _ label: String, _ key: String) {
        self.log.withLock { $0.append(Entry(sequence: $0.count, channel: channel, label: label, key: key)) }
    }

    /// Waits until at least `count` entries exist from index `start` on; returns false at the deadline.
    func waitForEntries(_ count: Int, from start: Int, within seconds: Double) async throws -> Bool {
        (try? await eventually("\(count) entries from \(start)", within: seconds) {
            self.entries.count - start >= count
        })
            != nil
    }

    // MARK: - Payload keys

    static func key(_ value: Any?) -> String {
        switch value {
        case nil:
            return "none"
        case let error as PNError:
            return "error(\(error.code))#\(Self.id(error))"
        case let origin as String:
            return "origin:\(origin)"
        case let channels as [PNChannel]:
            return "channels:" + channels.map(\.name).joined(separator: ",")
        case let token as NSNumber:
            return "token:\(token.uint64Value)"
        case let token as UInt64:
            return "token:\(token)"
        case let message as PNMessage:
            return "message#\(Self.id(message))"
        case let event as PNPresenceEvent:
            return "presence(\(event.uuid ?? ""))#\(Self.id(event))"
        case let history as PNMessagesHistory:
            return Self.key(history.messages)
        case let messages as [PNMessage]:
            return "history:" + messages.map { Self.id($0) }.joined(separator: ",")
        case let hereNow as PNHereNow:
            return Self.key(hereNow.participants)
        case let participants as [String]:
            return "participants:" + participants.sorted().joined(separator: ",")
        case let other?:
            return "other:\(other)"
        }
    }

    /// A name for `object` that no other object gets while the test process runs. Its address would not do: the
    /// recorder does not keep payloads alive, so a publish's error freed after its delivery can leave its address to
    /// the next error (seen: a subscribe's timeout error taking the address of the publish's timeout error before
    /// it), and two payloads would count as one.
    private static func id(_ object: AnyObject) -> String {
        let identifier = ObjectIdentifier(object)
        let serial = Self.identities.withLock { identities -> Int in
            if let known = identities.byAddress[identifier], known.object === object {
                return known.serial
            }
            identities.next += 1
            identities.byAddress[identifier] = Identity(object: object, serial: identities.next)
            return identities.next
        }
        return String(serial, radix: 16)
    }

    /// An object seen by `id(_:)`: held weakly, so a freed object's address names the next object anew.
    private struct Identity {
        weak var object: AnyObject?
        let serial: Int
    }

    private static let identities = Locked<(byAddress: [ObjectIdentifier: Identity], next: Int)>(([:], 0))

    // MARK: - Completion blocks

    var connectSuccess: PNClientConnectionSuccessBlock { { self.record(.block, "connect", Self.key($0)) } }
    var connectFailure: PNClientConnectionFailureBlock { { self.record(.block, "connect.error", Self.key($0)) } }
    var subscribeBlock: PNClientChannelSubscriptionHandlerBlock {
        { state, channels, error in
            self.record(.block, "subscribe:\(state.rawValue)", error.map { Self.key($0) } ?? Self.key(channels))
        }
    }
    /// For the `([PNChannel], PNError?)` blocks: unsubscribe, presence and push enable/disable.
    func channelsBlock(_ label: String) -> ([PNChannel], PNError?) -> Void {
        { channels, error in self.record(.block, label, error.map { Self.key($0) } ?? Self.key(channels)) }
    }
    var pushRemoveBlock: PNClientPushNotificationsRemoveHandlingBlock {
        { self.record(.block, "pushRemove", Self.key($0)) }
    }
    var pushListBlock: PNClientPushNotificationsEnabledChannelsHandlingBlock {
        { channels, error in self.record(.block, "pushList", error.map { Self.key($0) } ?? Self.key(channels)) }
    }
    var timeBlock: PNClientTimeTokenReceivingCompleteBlock {
        { token, error in self.record(.block, "time", error.map { Self.key($0) } ?? Self.key(token)) }
    }
    var sendBlock: PNClientMessageProcessingBlock {
        { state, data in self.record(.block, "send:\(state.rawValue)", Self.key(data)) }
    }
    var historyBlock: PNClientHistoryLoadHandlingBlock {
        { messages, _, _, _, error in
            self.record(.block, "history", error.map { Self.key($0) } ?? Self.key(messages))
        }
    }
    var participantsBlock: PNClientParticipantsHandlingBlock {
        { participants, _, error in
            self.record(.block, "participants", error.map { Self.key($0) } ?? Self.key(participants))
        }
    }

    // MARK: - Observation center

    private func registerObservers() {
        let center = self.center
        center.addClientConnectionStateObserver(self) { [unowned self] origin, connected, error in
            let label = error != nil ? "connection:error" : connected ? "connection:up" : "connection:down"
            self.record(.observer, label, error.map { Self.key($0) } ?? Self.key(origin))
        }
        center.addClientChannelSubscriptionStateObserver(self) { [unowned self] state, channels, error in
            self.record(.observer, "subscription:\(state.rawValue)", error.map { Self.key($0) } ?? Self.key(channels))
        }
        let channelBuckets: [(String, (AnyObject, @escaping ([PNChannel], PNError?) -> Void) -> Void)] = [
            ("unsubscription", center.addClientChannelUnsubscriptionObserver),
            ("presenceEnable", center.addClientPresenceEnablingObserver),
            ("presenceDisable", center.addClientAsPresenceDisablingObserver),
            ("pushEnable", center.addClientPushNotificationsEnableObserver),
            ("pushDisable", center.addClientPushNotificationsDisableObserver),
        ]
        for (bucket, add) in channelBuckets {
            add(self) { [unowned self] channels, error in
                self.record(
                    .observer,
                    bucket + (error == nil ? "" : ":error"),
                    error.map { Self.key($0) } ?? Self.key(channels)
                )
            }
        }
        center.addClientPushNotificationsEnabledChannelsObserver(self) { [unowned self] channels, error in
            self.record(
                .observer,
                "pushList" + (error == nil ? "" : ":error"),
                error.map { Self.key($0) } ?? Self.key(channels)
            )
        }
        center.addClientPushNotificationsRemoveObserver(self) { [unowned self] error in
            self.record(.observer, "pushRemove" + (error == nil ? "" : ":error"), Self.key(error))
        }
        center.addTimeTokenReceivingObserver(self) { [unowned self] token, error in
            self.record(
                .observer,
                "time" + (error == nil ? "" : ":error"),
                error.map { Self.key($0) } ?? Self.key(token)
            )
        }
        center.addMessageProcessingObserver(self) { [unowned self] state, data in
            self.record(.observer, "messageProcessing:\(state.rawValue)", Self.key(data))
        }
        center.addMessageReceiveObserver(self) { [unowned self] message in
            self.record(.observer, "messageReceive", Self.key(message))
        }
        center.addPresenceEventObserver(self) { [unowned self] event in
            self.record(.observer, "presenceEvent", Self.key(event))
        }
        center.addMessageHistoryProcessingObserver(self) { [unowned self] messages, _, _, _, error in
            self.record(
                .observer,
                "history" + (error == nil ? "" : ":error"),
                error.map { Self.key($0) } ?? Self.key(messages)
            )
        }
        center.addChannelParticipantsListProcessingObserver(self) { [unowned self] participants, _, error in
            self.record(
                .observer,
                "participants" + (error == nil ? "" : ":error"),
                error.map { Self.key($0) } ?? Self.key(participants)
            )
        }
    }

    // MARK: - Delegate

    override func delegateCallback(_ name: String, _ payload: Any?) {
        self.record(.delegate, name, Self.key(payload))
    }
}
