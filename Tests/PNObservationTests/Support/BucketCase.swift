import Foundation
import Testing

@testable import PNObservation
@testable import PubNubLegacy

/// One of the center's 15 buckets, driven uniformly: register a recording block, remove it, deliver one canned
/// event. The recording block logs `"<tag>: <arguments>"`, and `expected(tag)` is what the canned event logs.
struct BucketCase: Sendable, CustomTestStringConvertible {
    let name: String
    let add: @Sendable (PNObservationCenter, AnyObject, _ tag: String, CallLog) -> Void
    let remove: @Sendable (PNObservationCenter, AnyObject) -> Void
    let deliver: @Sendable (PNObservationCenter) -> Void
    let cannedArguments: String
    /// The bucket's live registrations, read from the center's table.
    let registrationCount: @Sendable (PNObservationCenter) -> Int

    var testDescription: String { self.name }

    func expected(_ tag: String) -> String {
        "\(tag): \(self.cannedArguments)"
    }

    static let all: [BucketCase] = [
        BucketCase(
            name: "connection state",
            add: { center, observer, tag, log in
                center.addClientConnectionStateObserver(observer) { origin, connected, error in
                    log.append("\(tag): \(origin) \(connected) \(describe(error))")
                }
            },
            remove: { $0.removeClientConnectionStateObserver($1) },
            deliver: { $0.deliverConnectionState(origin: "origin.test", connected: true, error: nil) },
            cannedArguments: "origin.test true nil",
            registrationCount: { $0.connectionStateObservers.count }
        ),
        BucketCase(
            name: "subscription",
            add: { center, observer, tag, log in
                center.addClientChannelSubscriptionStateObserver(observer) { state, channels, error in
                    log.append("\(tag): \(state.rawValue) \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientChannelSubscriptionStateObserver($1) },
            deliver: {
                $0.deliverSubscriptionState(.PNSubscriptionProcessSubscribedState, channels: channels(), error: nil)
            },
            cannedArguments: "1 [a,b] nil",
            registrationCount: { $0.subscriptionStateObservers.count }
        ),
        BucketCase(
            name: "unsubscription",
            add: { center, observer, tag, log in
                center.addClientChannelUnsubscriptionObserver(observer) { channels, error in
                    log.append("\(tag): \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientChannelUnsubscriptionObserver($1) },
            deliver: { $0.deliverUnsubscription(channels: channels(), error: timeout()) },
            cannedArguments: "[a,b] 106",
            registrationCount: { $0.unsubscriptionObservers.count }
        ),
        BucketCase(
            name: "presence enabling",
            add: { center, observer, tag, log in
                center.addClientPresenceEnablingObserver(observer) { channels, error in
                    log.append("\(tag): \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientPresenceEnablingObserver($1) },
            deliver: { $0.deliverPresenceEnabling(channels: channels(), error: nil) },
            cannedArguments: "[a,b] nil",
            registrationCount: { $0.presenceEnablingObservers.count }
        ),
        BucketCase(
            name: "presence disabling",
            add: { center, observer, tag, log in
                center.addClientAsPresenceDisablingObserver(observer) { channels, error in
                    log.append("\(tag): \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientAsPresenceDisablingObserver($1) },
            deliver: { $0.deliverPresenceDisabling(channels: channels(), error: timeout()) },
            cannedArguments: "[a,b] 106",
            registrationCount: { $0.presenceDisablingObservers.count }
        ),
        BucketCase(
            name: "push enable",
            add: { center, observer, tag, log in
                center.addClientPushNotificationsEnableObserver(observer) { channels, error in
                    log.append("\(tag): \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientPushNotificationsEnableObserver($1) },
            deliver: { $0.deliverPushNotificationsEnable(channels: channels(), error: nil) },
            cannedArguments: "[a,b] nil",
            registrationCount: { $0.pushNotificationsEnableObservers.count }
        ),
        BucketCase(
            name: "push disable",
            add: { center, observer, tag, log in
                center.addClientPushNotificationsDisableObserver(observer) { channels, error in
                    log.append("\(tag): \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientPushNotificationsDisableObserver($1) },
            deliver: { $0.deliverPushNotificationsDisable(channels: channels(), error: timeout()) },
            cannedArguments: "[a,b] 106",
            registrationCount: { $0.pushNotificationsDisableObservers.count }
        ),
        BucketCase(
            name: "push enabled channels",
            add: { center, observer, tag, log in
                center.addClientPushNotificationsEnabledChannelsObserver(observer) { channels, error in
                    log.append("\(tag): \(describe(channels)) \(describe(error))")
                }
            },
            remove: { $0.removeClientPushNotificationsEnabledChannelsObserver($1) },
            deliver: { $0.deliverPushNotificationsEnabledChannels(channels: channels(), error: nil) },
            cannedArguments: "[a,b] nil",
            registrationCount: { $0.pushNotificationsEnabledChannelsObservers.count }
        ),
        BucketCase(
            name: "push remove",
            add: { center, observer, tag, log in
                center.addClientPushNotificationsRemoveObserver(observer) { error in
                    log.append("\(tag): \(describe(error))")
                }
            },
            remove: { $0.removeClientPushNotificationsRemoveObserver($1) },
            deliver: { $0.deliverPushNotificationsRemove(error: timeout()) },
            cannedArguments: "106",
            registrationCount: { $0.pushNotificationsRemoveObservers.count }
        ),
        BucketCase(
            name: "time token",
            add: { center, observer, tag, log in
                center.addTimeTokenReceivingObserver(observer) { timeToken, error in
                    log.append("\(tag): \(timeToken.map { "\($0.uint64Value)" } ?? "nil") \(describe(error))")
                }
            },
            remove: { $0.removeTimeTokenReceivingObserver($1) },
            deliver: { $0.deliverTimeToken(NSNumber(value: UInt64(17_000_000_000_000_000)), error: nil) },
            cannedArguments: "17000000000000000 nil",
            registrationCount: { $0.timeTokenObservers.count }
        ),
        BucketCase(
            name: "message processing",
            add: { center, observer, tag, log in
                center.addMessageProcessingObserver(observer) { state, data in
                    log.append("\(tag): \(state.rawValue) \(describe(data))")
                }
            },
            remove: { $0.removeMessageProcessingObserver($1) },
            deliver: { $0.deliverMessageProcessing(state: .PNMessageSent, data: message()) },
            cannedArguments: "1 message(\"hi\" on a)",
            registrationCount: { $0.messageProcessingObservers.count }
        ),
        BucketCase(
            name: "message receive",
            add: { center, observer, tag, log in
                center.addMessageReceiveObserver(observer) { message in
                    log.append("\(tag): \(describe(message))")
                }
            },
            remove: { $0.removeMessageReceiveObserver($1) },
            deliver: { $0.deliverMessageReceive(message()) },
            cannedArguments: "message(\"hi\" on a)",
            registrationCount: { $0.messageReceiveObservers.count }
        ),
        BucketCase(
            name: "presence event",
            add: { center, observer, tag, log in
                center.addPresenceEventObserver(observer) { event in
                    log.append("\(tag): \(event.type.rawValue) \(event.uuid ?? "nil") \(event.occupancy)")
                }
            },
            remove: { $0.removePresenceEventObserver($1) },
            deliver: {
                $0.deliverPresenceEvent(PNPresenceEvent(response: ["action": "leave", "uuid": "u1", "occupancy": 3]))
            },
            cannedArguments: "1 u1 3",
            registrationCount: { $0.presenceEventObservers.count }
        ),
        BucketCase(
            name: "history",
            add: { center, observer, tag, log in
                center.addMessageHistoryProcessingObserver(observer) { messages, channel, start, end, error in
                    let list = messages.map { "\($0.count) messages" } ?? "nil"
                    let dates = "\(start?.timeTokenValue ?? 0)-\(end?.timeTokenValue ?? 0)"
                    log.append("\(tag): \(list) \(channel?.name ?? "nil") \(dates) \(describe(error))")
                }
            },
            remove: { $0.removeMessageHistoryProcessingObserver($1) },
            deliver: {
                $0.deliverMessageHistory(
                    messages: [message(), message()],
                    channel: PNChannel.channelWithName("a"),
                    startDate: PNDate(timeToken: 10),
                    endDate: PNDate(timeToken: 20),
                    error: nil
                )
            },
            cannedArguments: "2 messages a 10-20 nil",
            registrationCount: { $0.messageHistoryObservers.count }
        ),
        BucketCase(
            name: "participants list",
            add: { center, observer, tag, log in
                center.addChannelParticipantsListProcessingObserver(observer) { participants, channel, error in
                    let uuids = participants.map { "[\($0.joined(separator: ","))]" } ?? "nil"
                    log.append("\(tag): \(uuids) \(channel?.name ?? "nil") \(describe(error))")
                }
            },
            remove: { $0.removeChannelParticipantsListProcessingObserver($1) },
            deliver: {
                $0.deliverParticipantsList(
                    participants: ["u1", "u2"],
                    channel: PNChannel.channelWithName("b"),
                    error: nil
                )
            },
            cannedArguments: "[u1,u2] b nil",
            registrationCount: { $0.participantsListObservers.count }
        ),
    ]
}

// MARK: - Canned values and their descriptions

private func channels() -> [PNChannel] {
    PNChannel.channelsWithNames(["a", "b"])
}

private func timeout() -> PNError {
    PNError(code: kPNRequestExecutionFailedByTimeoutError)
}

private func message() -> PNMessage {
    sampleMessage()
}

/// A received message `"hi"` on channel `a`.
func sampleMessage() -> PNMessage {
    PNMessage(message: "hi", channel: PNChannel.channelWithName("a"), receiveDate: nil, timeToken: nil)
}

func describe(_ channels: [PNChannel]?) -> String {
    channels.map { "[\($0.map(\.name).joined(separator: ","))]" } ?? "nil"
}

func describe(_ error: PNError?) -> String {
    error.map { "\($0.code)" } ?? "nil"
}

func describe(_ message: PNMessage) -> String {
    "message(\"\(message.message ?? "nil")\" on \(message.channel?.name ?? "nil"))"
}

func describe(_ data: Any?) -> String {
    switch data {
    case let message as PNMessage: describe(message)
    case let error as PNError: describe(error)
    default: "unexpected \(String(describing: data))"
    }
}
