import Foundation
import PlatformSupport

// The status adapter: derives the 4.x statuses (`PNStatus`) from the 3.4 events and delivers each to
// `pubnubClient(_:didReceiveStatus:)`, to `kPNClientDidReceiveStatusNotification` and to the package's listeners
// (`PubNubAsync`). It sits last in the dispatcher's notification slot, so a status arrives on the delivery queue
// right after the 3.4 delegate, observers and notification of the event it derives from, and before that event's
// completion block. Gate G applies as to that event (docs/API-3.4.md §1.3).

/// Turns 3.4 events into 4.x statuses. A pure decision with one bit of memory: whether the connection was lost,
/// so the next did-connect is a reconnection. Documented in MIGRATION.md "Modernising a ported app".
struct StatusDerivation {
    /// A network loss was reported and the connection has not come back yet.
    private var lost = false
    /// The did-connect after a loss reported `reconnected` while channels were to be restored: the restore that
    /// follows is part of the same reconnection and reports nothing more.
    private var restoreReported = false

    /// The statuses of `event`, in order; `subscribed` gives the subscribed regular channels at this moment.
    mutating func statuses(for event: ClientEvent, subscribed: () -> [PNChannel]) -> [PNStatus] {
        switch event {
        case .didConnect:
            guard self.lost else { return [PNStatus(category: .connected)] }
            self.lost = false
            let channels = subscribed()
            self.restoreReported = !channels.isEmpty
            return [PNStatus(category: .reconnected, affectedChannels: channels)]
        case .didRestoreSubscription(let channels):
            if self.restoreReported {
                self.restoreReported = false
                return []
            }
            return [PNStatus(category: .reconnected, affectedChannels: channels)]
        case .willDisconnectWithError(let error):
            self.lost = true
            self.restoreReported = false
            return [PNStatus(category: .unexpectedDisconnect, affectedChannels: subscribed(), error: error)]
        case .didDisconnect:
            self.lost = false
            self.restoreReported = false
            return [PNStatus(category: .disconnected)]
        case .connectionDidFail(let error):
            // 101 (connect while connected) is a usage error that leaves the connection as it is.
            guard error.code != kPNClientTriedConnectWhileConnectedError else { return [] }
            return [PNStatus(category: PNStatusCategory(error.category), error: error)]
        case .subscriptionDidFail(let error):
            let channels = (error.associatedObject as? [PNChannel]) ?? []
            return [PNStatus(category: PNStatusCategory(error.category), affectedChannels: channels, error: error)]
        case .error(let error):
            // Message count exceeded (200), a message that could not be decrypted (119) or decoded (126/127) — the
            // message as associated object — and configuration errors (100).
            let channels = ((error.associatedObject as? PNMessage)?.channel).map { [$0] } ?? []
            return [PNStatus(category: PNStatusCategory(error.category), affectedChannels: channels, error: error)]
        case .willConnect, .didDisconnectWithError, .didSubscribe, .willRestoreSubscription, .didUnsubscribe,
            .unsubscriptionDidFail, .didEnablePresenceObservation, .presenceObservationEnablingDidFail,
            .didDisablePresenceObservation, .presenceObservationDisablingDidFail, .didEnablePushNotifications,
            .pushNotificationEnableDidFail, .didDisablePushNotifications, .pushNotificationDisableDidFail,
            .didRemovePushNotifications, .pushNotificationRemoveDidFail, .didReceivePushNotificationEnabledChannels,
            .pushNotificationEnabledChannelsDidFail, .didReceiveTimeToken, .timeTokenReceiveDidFail, .willSendMessage,
            .didSendMessage, .messageSendDidFail, .didReceiveMessage, .didReceivePresenceEvent,
            .didReceiveMessageHistory, .historyDownloadDidFail, .didReceiveParticipantsList,
            .participantsListDownloadDidFail:
            // Outcomes of single calls reach their caller; they are not statuses of the connection (as in 4.x).
            return []
        }
    }
}

/// Delivers the statuses of each event. One per client, installed by `PubNub.init`.
final class StatusAdapter: ClientEventSink {
    /// Receives every status on the delivery queue.
    typealias Listener = @Sendable (PNStatus) -> Void

    private let state = Locked(State())

    private struct State {
        var derivation = StatusDerivation()
        var listeners: [Int: Listener] = [:]
        var nextListenerID = 0
    }

    /// Adds a listener; the returned id removes it.
    func addListener(_ listener: @escaping Listener) -> Int {
        self.state.withLock { state in
            state.nextListenerID += 1
            state.listeners[state.nextListenerID] = listener
            return state.nextListenerID
        }
    }

    /// Removes the listener `id`; statuses already being delivered may still reach it once.
    func removeListener(_ id: Int) {
        self.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
    }

    func handle(_ event: ClientEvent, from client: PubNub) {
        let (statuses, listeners) = self.state.withLock { state -> ([PNStatus], [Listener]) in
            let statuses = state.derivation.statuses(for: event) { client.subscribedChannels() }
            // Most events (every publish, every message) derive no status: the listeners are not read for them.
            guard !statuses.isEmpty else { return ([], []) }
            return (statuses, state.listeners.sorted { $0.key < $1.key }.map(\.value))
        }
        guard !statuses.isEmpty else { return }
        let delegate = client.engine.dispatcher.delegate
        for status in statuses {
            delegate?.pubnubClient(client, didReceiveStatus: status)
            NotificationCenter.default.post(
                name: .pnClientDidReceiveStatus,
                object: client,
                userInfo: Notification.pnUserInfo(payload: status)
            )
            for listener in listeners {
                listener(status)
            }
        }
    }
}
