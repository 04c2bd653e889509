// The enums and block types of 3.4's `PNStructures.h` (docs/API-3.4.md §2.6). Case names are the Objective-C
// constant names and the raw values are 3.4's, so ported `switch` statements and stored raw values keep working.
// The block types are plain closures, not `@Sendable`, so ported code that captures and mutates its own state
// compiles (docs/DESIGN.md §3); the client calls every one of them on the delivery queue only.

import Foundation

// MARK: - Enums

/// Where a published message is in its life; the first argument of `PNClientMessageProcessingBlock`.
public enum PNMessageState: Int, Sendable, CaseIterable {
    /// The publish request is about to be sent; the block's second argument is the `PNMessage`.
    case PNMessageSending = 0
    /// The origin acknowledged the message; the block's second argument is the `PNMessage`.
    case PNMessageSent = 1
    /// The message could not be sent; the block's second argument is the `PNError` (message in `associatedObject`).
    case PNMessageSendingError = 2
}

/// The state of one of 3.4's socket streams. Transport-internal in 3.4, exported only because it lived in the
/// public header; this package never reports it.
public enum PNSocketStreamState: Int, Sendable, CaseIterable {
    /// The stream has not been configured yet.
    case PNSocketStreamNotConfigured = 0
    /// The stream is configured and ready to connect.
    case PNSocketStreamReady = 1
    /// The stream is connecting.
    case PNSocketStreamConnecting = 2
    /// The stream is connected.
    case PNSocketStreamConnected = 3
    /// The stream failed.
    case PNSocketStreamError = 4
}

/// What a presence event reports about a uuid on a channel.
public enum PNPresenceEventType: Int, Sendable, CaseIterable {
    /// The uuid joined the channel (also used for any action 3.4 did not recognise).
    case PNPresenceEventJoin = 0
    /// The uuid left the channel.
    case PNPresenceEventLeave = 1
    /// The uuid stopped sending and the origin timed it out.
    case PNPresenceEventTimeout = 2
}

/// The outcome of an operation whose response 3.4 parsed as an event (the leave acknowledgement).
public enum PNOperationResultEvent: Int, Sendable, CaseIterable {
    /// The response did not name a known result.
    case PNOperationResultUnknown = 0
    /// The response acknowledged a leave; equal to `PNPresenceEventType.PNPresenceEventLeave`'s raw value.
    case PNOperationResultLeave = 1
}

/// The subscription state reported to `PNClientChannelSubscriptionHandlerBlock` and to subscription observers.
public enum PNSubscriptionProcessState: Int, Sendable, CaseIterable {
    /// Not subscribed; used for every failure, together with a `PNError`.
    case PNSubscriptionProcessNotSubscribedState = 0
    /// Subscribed to the reported channels.
    case PNSubscriptionProcessSubscribedState = 1
    /// The connection came back and the client is about to restore the reported channels.
    case PNSubscriptionProcessWillRestoreState = 2
    /// The subscription on the reported channels was restored.
    case PNSubscriptionProcessRestoredState = 3
}

// MARK: - Unqualified case names
// 3.4 code names the C constants without the type (`if (state == PNMessageSent)`); these keep that compiling
// (docs/API-3.4.md §1.9).

/// `PNMessageState.PNMessageSending`, under its unqualified 3.4 name.
public let PNMessageSending = PNMessageState.PNMessageSending
/// `PNMessageState.PNMessageSent`, under its unqualified 3.4 name.
public let PNMessageSent = PNMessageState.PNMessageSent
/// `PNMessageState.PNMessageSendingError`, under its unqualified 3.4 name.
public let PNMessageSendingError = PNMessageState.PNMessageSendingError
/// `PNSocketStreamState.PNSocketStreamNotConfigured`, under its unqualified 3.4 name.
public let PNSocketStreamNotConfigured = PNSocketStreamState.PNSocketStreamNotConfigured
/// `PNSocketStreamState.PNSocketStreamReady`, under its unqualified 3.4 name.
public let PNSocketStreamReady = PNSocketStreamState.PNSocketStreamReady
/// `PNSocketStreamState.PNSocketStreamConnecting`, under its unqualified 3.4 name.
public let PNSocketStreamConnecting = PNSocketStreamState.PNSocketStreamConnecting
/// `PNSocketStreamState.PNSocketStreamConnected`, under its unqualified 3.4 name.
public let PNSocketStreamConnected = PNSocketStreamState.PNSocketStreamConnected
/// `PNSocketStreamState.PNSocketStreamError`, under its unqualified 3.4 name.
public let PNSocketStreamError = PNSocketStreamState.PNSocketStreamError
/// `PNPresenceEventType.PNPresenceEventJoin`, under its unqualified 3.4 name.
public let PNPresenceEventJoin = PNPresenceEventType.PNPresenceEventJoin
/// `PNPresenceEventType.PNPresenceEventLeave`, under its unqualified 3.4 name.
public let PNPresenceEventLeave = PNPresenceEventType.PNPresenceEventLeave
/// `PNPresenceEventType.PNPresenceEventTimeout`, under its unqualified 3.4 name.
public let PNPresenceEventTimeout = PNPresenceEventType.PNPresenceEventTimeout
/// `PNOperationResultEvent.PNOperationResultUnknown`, under its unqualified 3.4 name.
public let PNOperationResultUnknown = PNOperationResultEvent.PNOperationResultUnknown
/// `PNOperationResultEvent.PNOperationResultLeave`, under its unqualified 3.4 name.
public let PNOperationResultLeave = PNOperationResultEvent.PNOperationResultLeave
/// `PNSubscriptionProcessState.PNSubscriptionProcessNotSubscribedState`, under its unqualified 3.4 name.
public let PNSubscriptionProcessNotSubscribedState = PNSubscriptionProcessState.PNSubscriptionProcessNotSubscribedState
/// `PNSubscriptionProcessState.PNSubscriptionProcessSubscribedState`, under its unqualified 3.4 name.
public let PNSubscriptionProcessSubscribedState = PNSubscriptionProcessState.PNSubscriptionProcessSubscribedState
/// `PNSubscriptionProcessState.PNSubscriptionProcessWillRestoreState`, under its unqualified 3.4 name.
public let PNSubscriptionProcessWillRestoreState = PNSubscriptionProcessState.PNSubscriptionProcessWillRestoreState
/// `PNSubscriptionProcessState.PNSubscriptionProcessRestoredState`, under its unqualified 3.4 name.
public let PNSubscriptionProcessRestoredState = PNSubscriptionProcessState.PNSubscriptionProcessRestoredState

// MARK: - Block types
// Every block below is called exactly once per event it is registered for, on the client's delivery queue
// (`PNConfiguration.deliveryQueue`, `DispatchQueue.main` by default), after the delegate, the observation center
// and the notification of the same event (docs/DESIGN.md §4).

/// Connect succeeded; receives the origin host the client connected to.
public typealias PNClientConnectionSuccessBlock = (String) -> Void

/// Connect failed; receives the error (nil only when the attempt ended with a clean disconnect instead).
public typealias PNClientConnectionFailureBlock = (PNError?) -> Void

/// Connection state changed: origin, whether the client is now connected, and the error that caused a
/// disconnect or a failed connect (nil for clean transitions).
public typealias PNClientConnectionStateChangeBlock = (String, Bool, PNError?) -> Void

/// Subscription state changed: the new state, the regular (non `-pnpres`) channels concerned (`[]` when there are
/// none) and, for `PNSubscriptionProcessNotSubscribedState`, the error.
public typealias PNClientChannelSubscriptionHandlerBlock = (PNSubscriptionProcessState, [PNChannel], PNError?) -> Void

/// Unsubscribe finished: the channels it concerned and the error when it failed.
public typealias PNClientChannelUnsubscriptionHandlerBlock = ([PNChannel], PNError?) -> Void

/// Time token request finished: the server time token (unsigned 64-bit, 100 ns units) or the error.
public typealias PNClientTimeTokenReceivingCompleteBlock = (NSNumber?, PNError?) -> Void

/// A published message changed state: the state and either the `PNMessage` (`PNMessageSending`, `PNMessageSent`)
/// or the `PNError` (`PNMessageSendingError`).
public typealias PNClientMessageProcessingBlock = (PNMessageState, Any?) -> Void

/// A message arrived on a subscribed channel.
public typealias PNClientMessageHandlingBlock = (PNMessage) -> Void

/// History request finished: the messages, the channel, the start and end dates of the page, and the error (when
/// it is set the messages are nil).
public typealias PNClientHistoryLoadHandlingBlock = ([PNMessage]?, PNChannel?, PNDate?, PNDate?, PNError?) -> Void

/// Here-now request finished: the participant uuids (nil on error), the channel, and the error.
public typealias PNClientParticipantsHandlingBlock = ([String]?, PNChannel?, PNError?) -> Void

/// A presence event arrived on a channel whose presence is observed.
public typealias PNClientPresenceEventHandlingBlock = (PNPresenceEvent) -> Void

/// Presence observation was enabled: the observed (non `-pnpres`) channels and the error when it failed.
public typealias PNClientPresenceEnableHandlingBlock = ([PNChannel], PNError?) -> Void

/// Presence observation was disabled: the observed (non `-pnpres`) channels and the error when it failed.
public typealias PNClientPresenceDisableHandlingBlock = ([PNChannel], PNError?) -> Void

/// Push notifications were removed from every channel of a device token; the error when it failed.
public typealias PNClientPushNotificationsRemoveHandlingBlock = (PNError?) -> Void

/// Push notifications were enabled: the channels and the error when it failed.
public typealias PNClientPushNotificationsEnableHandlingBlock = ([PNChannel], PNError?) -> Void

/// Push notifications were disabled: the channels and the error when it failed.
public typealias PNClientPushNotificationsDisableHandlingBlock = ([PNChannel], PNError?) -> Void

/// The push-enabled channels of a device token arrived (nil on error), with the error when it failed.
public typealias PNClientPushNotificationsEnabledChannelsHandlingBlock = ([PNChannel]?, PNError?) -> Void
