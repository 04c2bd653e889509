import Foundation
import PNObservation
import PubNubLegacy

// The `[observer]` and `[notification]` channels: persistent observers in all 15 buckets of
// `PNObservationCenter.defaultCenter()`, and a `NotificationCenter.default` observer for each of the 34 notifications.
// The notification observer also keeps `ConsoleState` (connection state, occupancy, event counts) up to date, so
// commands can wait for their events even with the delegate switched off.

extension ConsoleEventPrinter {
    /// Every notification 3.4 posts (docs/API-3.4.md §2.4).
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

    /// Registers the `[observer]` printers in every bucket of the default observation center, with this printer as
    /// the observer (held weakly by the center: the registrations end with the printer).
    func observeObservationCenter() {
        let center = PNObservationCenter.defaultCenter()
        let out = self.output
        let say = { (bucket: String, fields: String) in
            out.line("[observer] \(bucket)\(fields.isEmpty ? "" : " " + fields)")
        }
        center.addClientConnectionStateObserver(self) { origin, connected, error in
            say("connectionState", "origin=\(origin) connected=\(connected) \(ConsoleFormat.error(error))")
        }
        center.addClientChannelSubscriptionStateObserver(self) { state, channels, error in
            say(
                "subscriptionState",
                "state=\(ConsoleFormat.state(state)) channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))"
            )
        }
        center.addClientChannelUnsubscriptionObserver(self) { channels, error in
            say("unsubscription", "channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))")
        }
        center.addClientPresenceEnablingObserver(self) { channels, error in
            say("presenceEnabling", "channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))")
        }
        center.addClientAsPresenceDisablingObserver(self) { channels, error in
            say("presenceDisabling", "channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))")
        }
        center.addClientPushNotificationsEnableObserver(self) { channels, error in
            say("pushNotificationsEnable", "channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))")
        }
        center.addClientPushNotificationsDisableObserver(self) { channels, error in
            say(
                "pushNotificationsDisable",
                "channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))"
            )
        }
        center.addClientPushNotificationsEnabledChannelsObserver(self) { channels, error in
            say(
                "pushNotificationsEnabledChannels",
                "channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))"
            )
        }
        center.addClientPushNotificationsRemoveObserver(self) { error in
            say("pushNotificationsRemove", ConsoleFormat.error(error))
        }
        center.addTimeTokenReceivingObserver(self) { token, error in
            say("timeToken", "token=\(token.map { String($0.uint64Value) } ?? "-") \(ConsoleFormat.error(error))")
        }
        center.addMessageProcessingObserver(self) { state, object in
            say("messageProcessing", ConsoleFormat.processing(state, object))
        }
        center.addMessageReceiveObserver(self) { message in
            say("messageReceive", ConsoleFormat.incoming(message))
        }
        center.addPresenceEventObserver(self) { event in
            say("presenceEvent", ConsoleFormat.presence(event))
        }
        center.addMessageHistoryProcessingObserver(self) { messages, channel, start, end, error in
            say(
                "messageHistory",
                "\(ConsoleFormat.history(messages, channel, start, end)) \(ConsoleFormat.error(error))"
            )
        }
        center.addChannelParticipantsListProcessingObserver(self) { uuids, channel, error in
            say("participantsList", "\(ConsoleFormat.participants(uuids, channel)) \(ConsoleFormat.error(error))")
        }
    }

    /// Registers the `[notification]` printer for every 3.4 notification; returns the registrations, which the
    /// caller removes at the end of the session.
    func observeNotifications() -> [any NSObjectProtocol] {
        Self.notificationNames.map { name in
            // queue nil: the block runs synchronously where the client posts, on its delivery queue.
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                self?.notification(note)
            }
        }
    }

    private func notification(_ note: Notification) {
        let fields = self.fields(of: note)
        self.output.line("[notification] \(note.name.rawValue)\(fields.isEmpty ? "" : " " + fields)")
        // Recorded after the line, so a command waiting for this event resumes after it was printed; the status
        // line drawn under it was built before, so it is drawn again with what the event changed.
        self.record(note)
        self.output.redraw(fresh: false)
    }

    private func fields(of note: Notification) -> String {
        switch note.pnPayload {
        case nil:
            return ""
        case let error as PNError:
            switch error.associatedObject {
            case let message as PNMessage: return "\(ConsoleFormat.outgoing(message)) \(ConsoleFormat.error(error))"
            case let channel as PNChannel: return "channel=\(channel.name) \(ConsoleFormat.error(error))"
            case is [PNChannel]:
                return "channels=\(ConsoleFormat.associatedChannels(error)) \(ConsoleFormat.error(error))"
            default: return ConsoleFormat.error(error)
            }
        case let channels as [PNChannel]:
            return "channels=\(ConsoleFormat.channels(channels))"
        case let origin as String:
            return "origin=\(origin)"
        case let token as NSNumber:
            return "token=\(token.uint64Value)"
        case let message as PNMessage:
            return note.name == kPNClientDidReceiveMessageNotification
                ? ConsoleFormat.incoming(message) : ConsoleFormat.outgoing(message)
        case let event as PNPresenceEvent:
            return ConsoleFormat.presence(event)
        case let history as PNMessagesHistory:
            return ConsoleFormat.history(history.messages, history.channel, history.startDate, history.endDate)
        case let hereNow as PNHereNow:
            return
                "\(ConsoleFormat.participants(hereNow.participants, hereNow.channel)) occupancy=\(hereNow.participantsCount)"
        case let other?:
            return "payload=\(ConsoleFormat.json(other))"
        }
    }

    /// Keeps the console state in step with the notification just printed.
    private func record(_ note: Notification) {
        switch note.name {
        case kPNClientWillConnectToOriginNotification:
            self.state.setConnection("connecting")
        case kPNClientDidConnectToOriginNotification:
            self.state.record(.connected, connection: "connected")
        case kPNClientDidDisconnectFromOriginNotification:
            self.state.record(.disconnected, connection: "disconnected")
        case kPNClientConnectionDidFailWithErrorNotification:
            let code = note.pnPayload(as: PNError.self).map { " (error \($0.code))" } ?? ""
            self.state.record(.connectionFailed, connection: "offline\(code)")
        case kPNClientErrorNotification:
            self.state.record(.configurationError)
        case kPNClientSubscriptionDidCompleteNotification, kPNClientSubscriptionDidRestoreNotification:
            self.state.record(.subscribed)
        case kPNClientUnsubscriptionDidCompleteNotification:
            self.state.record(.unsubscribed)
        case kPNClientDidReceiveMessageNotification:
            self.state.record(.message, detail: note.pnPayload(as: PNMessage.self).map(ConsoleFormat.incoming))
        case kPNClientDidReceivePresenceEventNotification:
            if let event = note.pnPayload(as: PNPresenceEvent.self), let channel = event.channel {
                self.state.setOccupancy(event.occupancy, of: channel.name)
            }
            self.state.record(.presence, detail: note.pnPayload(as: PNPresenceEvent.self).map(ConsoleFormat.presence))
        case kPNClientDidReceiveParticipantsListNotification:
            if let hereNow = note.pnPayload(as: PNHereNow.self), let channel = hereNow.channel {
                self.state.setOccupancy(UInt(hereNow.participantsCount), of: channel.name)
            }
        default:
            break
        }
    }
}
