import Foundation

@testable import PubNubLegacy

/// A `PNDelegate` that reports every callback `ClientEvent.send(to:from:)` makes first for an event — the canonical
/// shape of each of the 36 — to `delegateCallback(_:_:)`, named after its `ClientEvent` case (`didReceiveMessage`,
/// `subscriptionDidFail`, …) and carrying the callback's argument (the error for a failure; a time token as
/// `UInt64`). Built on the library's own mapping (`DelegateCallbackReceiver`), whose case names are the events';
/// `EventDispatcherTests.everyEventCallsItsDelegateMethod` checks it against `ClientEvent.send(to:from:)`, event by
/// event. Callbacks arrive on the client's delivery queue.
class NamingDelegate: DelegateCallbackReceiver, @unchecked Sendable {
    // @unchecked: no stored state here; subclasses keep theirs in lock boxes.

    /// Receives each callback, on the delivery queue; subclasses record it.
    func delegateCallback(_ name: String, _ payload: Any?) {
        preconditionFailure("a NamingDelegate subclass overrides delegateCallback")
    }

    /// No answer (the protocol's default); a subclass may answer.
    func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber? { nil }

    func receive(_ callback: DelegateCallback, from client: PubNub) {
        self.delegateCallback(Self.name(of: callback), Self.payload(of: callback))
    }

    /// The case name of `callback` (the name of the `ClientEvent` sent through that method).
    static func name(of callback: DelegateCallback) -> String {
        Mirror(reflecting: callback).children.first?.label ?? String(describing: callback)
    }

    /// What the recorders keep of a callback's arguments: the error of a failure, else its main argument.
    static func payload(of callback: DelegateCallback) -> Any? {
        switch callback {
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
            return token.uint64Value
        case .willSendMessage(let message), .didSendMessage(let message), .didReceiveMessage(let message):
            return message
        case .didReceivePresenceEvent(let event):
            return event
        case .didReceiveMessageHistory(let messages, _, _, _):
            return messages
        case .didReceiveParticipantsList(let participants, _):
            return participants
        }
    }
}
