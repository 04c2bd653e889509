import Foundation
import PubNubLegacy

// The entry points through which the client's observation-center adapter hands one event to one center. Not for
// application use: `package` access keeps them out of the public API while letting the adapter, wherever in this
// package it lives, call them.
//
// Contract for every method below:
// - Called only on the delivery queue of the client this center observes, once per event, after the delegate was
//   called and before the notification is posted (docs/DESIGN.md §4). The blocks run synchronously inside the call.
// - Calls the blocks of the event's bucket in registration order; an observer added meanwhile starts with the next
//   call, one removed meanwhile (also from inside a block) is skipped (see `ObserverTable`).
// - The arguments are passed to every block unchanged; their order is the block typealias's.

extension PNObservationCenter {
    // MARK: - Connection and subscription

    /// Connection state changed: connected, disconnected cleanly, or failed (`connected == false` with `error`).
    package func deliverConnectionState(origin: String, connected: Bool, error: PNError?) {
        self.connectionStateObservers.forEachBlock { $0(origin, connected, error) }
    }

    /// Subscription state changed: subscribed, will restore, restored, or failed (not-subscribed with `error`).
    package func deliverSubscriptionState(_ state: PNSubscriptionProcessState, channels: [PNChannel], error: PNError?) {
        self.subscriptionStateObservers.forEachBlock { $0(state, channels, error) }
    }

    /// An unsubscribe finished, or failed with `error`.
    package func deliverUnsubscription(channels: [PNChannel], error: PNError?) {
        self.unsubscriptionObservers.forEachBlock { $0(channels, error) }
    }

    // MARK: - Presence

    /// Enabling presence observation finished, or failed with `error`.
    package func deliverPresenceEnabling(channels: [PNChannel], error: PNError?) {
        self.presenceEnablingObservers.forEachBlock { $0(channels, error) }
    }

    /// Disabling presence observation finished, or failed with `error`.
    package func deliverPresenceDisabling(channels: [PNChannel], error: PNError?) {
        self.presenceDisablingObservers.forEachBlock { $0(channels, error) }
    }

    /// A presence event arrived.
    package func deliverPresenceEvent(_ event: PNPresenceEvent) {
        self.presenceEventObservers.forEachBlock { $0(event) }
    }

    /// A participants (here-now) request finished: `(uuids, channel, nil)` or `(nil, channel, error)`.
    package func deliverParticipantsList(participants: [String]?, channel: PNChannel?, error: PNError?) {
        self.participantsListObservers.forEachBlock { $0(participants, channel, error) }
    }

    // MARK: - Push notifications

    /// Enabling push notifications finished, or failed with `error`.
    package func deliverPushNotificationsEnable(channels: [PNChannel], error: PNError?) {
        self.pushNotificationsEnableObservers.forEachBlock { $0(channels, error) }
    }

    /// Disabling push notifications finished, or failed with `error` (docs/DESIGN.md §5, D4: failures come here too).
    package func deliverPushNotificationsDisable(channels: [PNChannel], error: PNError?) {
        self.pushNotificationsDisableObservers.forEachBlock { $0(channels, error) }
    }

    /// The push-enabled channels arrived, or the request failed (`nil` channels with `error`).
    package func deliverPushNotificationsEnabledChannels(channels: [PNChannel]?, error: PNError?) {
        self.pushNotificationsEnabledChannelsObservers.forEachBlock { $0(channels, error) }
    }

    /// Removing push notifications from all channels finished (`nil`) or failed (`error`).
    package func deliverPushNotificationsRemove(error: PNError?) {
        self.pushNotificationsRemoveObservers.forEachBlock { $0(error) }
    }

    // MARK: - Time token, messages and history

    /// A time-token request finished: `(timeToken, nil)` or `(nil, error)`.
    package func deliverTimeToken(_ timeToken: NSNumber?, error: PNError?) {
        self.timeTokenObservers.forEachBlock { $0(timeToken, error) }
    }

    /// A sent message changed state; `data` is the `PNMessage` for sending and sent, the `PNError` for failed.
    package func deliverMessageProcessing(state: PNMessageState, data: Any?) {
        self.messageProcessingObservers.forEachBlock { $0(state, data) }
    }

    /// A message arrived on a subscribed channel.
    package func deliverMessageReceive(_ message: PNMessage) {
        self.messageReceiveObservers.forEachBlock { $0(message) }
    }

    /// A history request finished: `(messages, channel, start, end, nil)` or `(nil, channel, nil, nil, error)`.
    package func deliverMessageHistory(
        messages: [PNMessage]?,
        channel: PNChannel?,
        startDate: PNDate?,
        endDate: PNDate?,
        error: PNError?
    ) {
        self.messageHistoryObservers.forEachBlock { $0(messages, channel, startDate, endDate, error) }
    }
}
