import Foundation
import TestSupport

@testable import PubNubLegacy

/// Records, in delivery order, every delegate callback, sink event and completion block of a client, so tests can
/// check payloads, order and exactly-once delivery. Everything it records arrives on the delivery queue.
final class EventRecorder: ClientEventSink, PNDelegate, @unchecked Sendable {
    // @unchecked: the only mutable state is `log`, a `Locked` box.

    /// Who reported an entry.
    enum Source: String, Sendable {
        case delegate
        case sink
        case block
    }

    /// One recorded callback. `value` carries the payload (channels, message, error, …).
    struct Entry: @unchecked Sendable, CustomStringConvertible {
        // @unchecked: payloads are the package's thread-safe models, or values a test made and no longer mutates.
        let source: Source
        let name: String
        let value: Any?

        var description: String { "\(self.source.rawValue):\(self.name)" }

        var error: PNError? { self.value as? PNError }
        var channels: [PNChannel] { (self.value as? [PNChannel]) ?? [] }
        var channelNames: [String] { self.channels.map(\.name) }
        var message: PNMessage? { self.value as? PNMessage }
    }

    private let log = Locked<[Entry]>([])
    private let cursor = Locked(0)
    /// Answers for the delegate's `should…` queries.
    let reconnectAnswer = Locked<NSNumber?>(nil)

    /// Everything recorded so far.
    var entries: [Entry] { self.log.current }

    func record(_ source: Source, _ name: String, _ value: Any? = nil) {
        self.log.withLock { $0.append(Entry(source: source, name: name, value: value)) }
    }

    /// Records a completion block call; for use inside the blocks tests pass.
    func block(_ name: String, _ value: Any? = nil) {
        self.record(.block, name, value)
    }

    /// Waits until an entry after the read cursor matches, moves the cursor past it and returns it.
    @discardableResult
    func next(
        _ source: Source? = nil,
        _ name: String,
        within seconds: Double = 5,
        sourceLocation: String = #function
    ) async throws -> Entry {
        var found: (Int, Entry)?
        try await eventually(
            "\(source?.rawValue ?? "any"):\(name); seen: \(self.entries.map(\.description))",
            within: seconds
        ) {
            found = self.log.withLock { entries -> (Int, Entry)? in
                let start = self.cursor.current
                guard start < entries.count else { return nil }
                for index in start..<entries.count {
                    let entry = entries[index]
                    if entry.name == name && (source == nil || entry.source == source) {
                        return (index, entry)
                    }
                }
                return nil
            }
            return found != nil
        }
        guard let (index, entry) = found else { preconditionFailure("eventually returned without a match") }
        self.cursor.set(index + 1)
        return entry
    }

    /// Waits until at least `count` entries named `name` (from `source`) were recorded, anywhere in the log.
    func waitForCount(_ count: Int, _ source: Source, _ name: String, within seconds: Double = 5) async throws {
        try await eventually(
            "\(count)× \(source.rawValue):\(name); seen: \(self.entries.map(\.description))",
            within: seconds
        ) { self.all(source, name).count >= count }
    }

    /// Entries named `name` (from `source`).
    func all(_ source: Source, _ name: String) -> [Entry] {
        self.entries.filter { $0.source == source && $0.name == name }
    }

    /// Names of all entries from `source`, in order.
    func names(_ source: Source) -> [String] {
        self.entries.filter { $0.source == source }.map(\.name)
    }

    // MARK: - Sink

    func handle(_ event: ClientEvent, from client: PubNub) {
        self.record(.sink, Self.name(of: event), Self.payload(of: event))
    }

    static func name(of event: ClientEvent) -> String {
        let text = String(describing: event)
        return String(text.prefix { $0 != "(" })
    }

    static func payload(of event: ClientEvent) -> Any? {
        switch event {
        case .error(let error), .willDisconnectWithError(let error), .connectionDidFail(let error),
            .subscriptionDidFail(let error), .unsubscriptionDidFail(let error),
            .presenceObservationEnablingDidFail(let error), .presenceObservationDisablingDidFail(let error),
            .pushNotificationEnableDidFail(let error), .pushNotificationDisableDidFail(let error),
            .pushNotificationRemoveDidFail(let error), .pushNotificationEnabledChannelsDidFail(let error),
            .timeTokenReceiveDidFail(let error), .messageSendDidFail(_, let error),
            .historyDownloadDidFail(_, let error), .participantsListDownloadDidFail(_, let error),
            .didDisconnectWithError(_, let error):
            return error
        case .willConnect(let origin), .didConnect(let origin), .didDisconnect(let origin):
            return origin
        case .didSubscribe(let channels), .willRestoreSubscription(let channels),
            .didRestoreSubscription(let channels), .didUnsubscribe(let channels),
            .didEnablePresenceObservation(let channels), .didDisablePresenceObservation(let channels),
            .didEnablePushNotifications(let channels), .didDisablePushNotifications(let channels),
            .didReceivePushNotificationEnabledChannels(let channels):
            return channels
        case .didRemovePushNotifications:
            return nil
        case .didReceiveTimeToken(let token):
            return token
        case .willSendMessage(let message), .didSendMessage(let message), .didReceiveMessage(let message):
            return message
        case .didReceivePresenceEvent(let event):
            return event
        case .didReceiveMessageHistory(let history):
            return history
        case .didReceiveParticipantsList(let hereNow):
            return hereNow
        }
    }

    // MARK: - Delegate

    func pubnubClient(_ client: PubNub, error: PNError) { self.record(.delegate, "error", error) }
    func pubnubClient(_ client: PubNub, willConnectToOrigin: String) {
        self.record(.delegate, "willConnect", willConnectToOrigin)
    }
    func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.record(.delegate, "didConnect", didConnectToOrigin)
    }
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.record(.delegate, "didDisconnect", didDisconnectFromOrigin)
    }
    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {
        self.record(.delegate, "didDisconnectWithError", withError)
    }
    func pubnubClient(_ client: PubNub, willDisconnectWithError: PNError) {
        self.record(.delegate, "willDisconnectWithError", willDisconnectWithError)
    }
    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {
        self.record(.delegate, "connectionDidFail", connectionDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.record(.delegate, "didSubscribe", didSubscribeOnChannels)
    }
    func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel]) {
        self.record(.delegate, "willRestoreSubscription", willRestoreSubscriptionOnChannels)
    }
    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {
        self.record(.delegate, "didRestoreSubscription", didRestoreSubscriptionOnChannels)
    }
    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {
        self.record(.delegate, "subscriptionDidFail", subscriptionDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels: [PNChannel]) {
        self.record(.delegate, "didUnsubscribe", didUnsubscribeOnChannels)
    }
    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError: PNError) {
        self.record(.delegate, "unsubscriptionDidFail", unsubscriptionDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didEnablePresenceObservationOnChannels: [PNChannel]) {
        self.record(.delegate, "didEnablePresenceObservation", didEnablePresenceObservationOnChannels)
    }
    func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError: PNError) {
        self.record(.delegate, "presenceObservationEnablingDidFail", presenceObservationEnablingDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didDisablePresenceObservationOnChannels: [PNChannel]) {
        self.record(.delegate, "didDisablePresenceObservation", didDisablePresenceObservationOnChannels)
    }
    func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError: PNError) {
        self.record(.delegate, "presenceObservationDisablingDidFail", presenceObservationDisablingDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didEnablePushNotificationsOnChannels: [PNChannel]) {
        self.record(.delegate, "didEnablePushNotifications", didEnablePushNotificationsOnChannels)
    }
    func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError: PNError) {
        self.record(.delegate, "pushNotificationEnableDidFail", pushNotificationEnableDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didDisablePushNotificationsOnChannels: [PNChannel]) {
        self.record(.delegate, "didDisablePushNotifications", didDisablePushNotificationsOnChannels)
    }
    func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError: PNError) {
        self.record(.delegate, "pushNotificationDisableDidFail", pushNotificationDisableDidFailWithError)
    }
    func pubnubClientDidRemovePushNotifications(_ client: PubNub) {
        self.record(.delegate, "didRemovePushNotifications")
    }
    func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError: PNError) {
        self.record(.delegate, "pushNotificationRemoveDidFail", pushNotificationsRemoveFromChannelsDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, didReceivePushNotificationEnabledChannels: [PNChannel]) {
        self.record(.delegate, "didReceivePushNotificationEnabledChannels", didReceivePushNotificationEnabledChannels)
    }
    func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError: PNError) {
        self.record(
            .delegate,
            "pushNotificationEnabledChannelsDidFail",
            pushNotificationEnabledChannelsReceiveDidFailWithError
        )
    }
    func pubnubClient(_ client: PubNub, didReceiveTimeToken: NSNumber) {
        self.record(.delegate, "didReceiveTimeToken", didReceiveTimeToken.uint64Value)
    }
    func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError: PNError) {
        self.record(.delegate, "timeTokenReceiveDidFail", timeTokenReceiveDidFailWithError)
    }
    func pubnubClient(_ client: PubNub, willSendMessage: PNMessage) {
        self.record(.delegate, "willSendMessage", willSendMessage)
    }
    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {
        self.record(.delegate, "messageSendDidFail", withError)
    }
    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        self.record(.delegate, "didSendMessage", didSendMessage)
    }
    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        self.record(.delegate, "didReceiveMessage", didReceiveMessage)
    }
    func pubnubClient(_ client: PubNub, didReceivePresenceEvent: PNPresenceEvent) {
        self.record(.delegate, "didReceivePresenceEvent", didReceivePresenceEvent)
    }
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    ) {
        self.record(.delegate, "didReceiveMessageHistory", didReceiveMessageHistory)
    }
    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel: PNChannel?, withError: PNError) {
        self.record(.delegate, "historyDownloadDidFail", withError)
    }
    func pubnubClient(_ client: PubNub, didReceiveParticipantsList: [String], forChannel: PNChannel) {
        self.record(.delegate, "didReceiveParticipantsList", didReceiveParticipantsList)
    }
    func pubnubClient(_ client: PubNub, didFailParticipantsListDownloadForChannel: PNChannel?, withError: PNError) {
        self.record(.delegate, "participantsListDownloadDidFail", withError)
    }
    func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber? {
        self.reconnectAnswer.current
    }
}

/// A wait that ran out; lists what was seen instead.
struct RecorderTimeout: Error, CustomStringConvertible {
    let wanted: String
    let seen: [String]

    var description: String { "timed out waiting for \(self.wanted); seen: \(self.seen)" }
}
