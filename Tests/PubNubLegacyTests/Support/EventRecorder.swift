import Foundation
import TestSupport

@testable import PubNubLegacy

/// Records, in delivery order, every delegate callback, sink event and completion block of a client, so tests can
/// check payloads, order and exactly-once delivery. Everything it records arrives on the delivery queue.
final class EventRecorder: NamingDelegate, ClientEventSink, @unchecked Sendable {
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

    override func delegateCallback(_ name: String, _ payload: Any?) {
        self.record(.delegate, name, payload)
    }

    override func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber? {
        self.reconnectAnswer.current
    }
}

/// A wait that ran out; lists what was seen instead.
struct RecorderTimeout: Error, CustomStringConvertible {
    let wanted: String
    let seen: [String]

    var description: String { "timed out waiting for \(self.wanted); seen: \(self.seen)" }
}
