import Foundation
import PlatformSupport

/// A presence event: a uuid joined, left or timed out on a channel (3.4's `PNPresenceEvent`,
/// docs/API-3.4.md §2.11). Created by the client from the objects the origin delivers on `-pnpres` channels. An
/// `NSObject` compared by identity, as in 3.4.
public final class PNPresenceEvent: NSObject, @unchecked Sendable {
    // @unchecked: every field is a `let` except the weak channel reference, which lives in the `channelBox` lock.

    /// The keys of a presence event object; an object is an event only when it has all four.
    static let actionKey = "action"
    static let timestampKey = "timestamp"
    static let uuidKey = "uuid"
    static let occupancyKey = "occupancy"

    /// Join, leave or timeout: `"leave"` and `"timeout"` map to their cases, any other action to join (as 3.4).
    public let type: PNPresenceEventType

    /// When it happened: the event's `timestamp` (Unix seconds) as a `PNDate`; nil when it has none.
    public let date: PNDate?

    /// The uuid that joined, left or timed out; nil when the event names none.
    public let uuid: String?

    /// How many uuids are on the channel after the event.
    public let occupancy: UInt

    private let channelBox = Locked(WeakChannel())

    private struct WeakChannel {
        weak var channel: PNChannel?
    }

    /// 3.4's `-initWithResponse:`: reads `action`, `timestamp`, `uuid` and `occupancy` from the event object.
    /// Missing or mistyped values give the defaults (join, nil, nil, 0); use `isPresenceEventObject(_:)` first
    /// to tell whether the object is an event at all.
    public init(response presenceResponse: Any) {
        let fields = presenceResponse as? [String: Any] ?? [:]
        switch fields[PNPresenceEvent.actionKey] as? String {
        case "leave": self.type = .PNPresenceEventLeave
        case "timeout": self.type = .PNPresenceEventTimeout
        default: self.type = .PNPresenceEventJoin
        }
        self.date = unsignedValue(of: fields[PNPresenceEvent.timestampKey]).map { PNDate(timeToken: $0) }
        self.uuid = fields[PNPresenceEvent.uuidKey] as? String
        let occupancy = unsignedValue(of: fields[PNPresenceEvent.occupancyKey]) ?? 0
        self.occupancy = UInt(clamping: occupancy)
    }

    /// Parses an object delivered on a presence channel; nil when it is not a presence event (not a dictionary,
    /// or one of the four keys missing). `channel` is the observed (non `-pnpres`) channel.
    convenience init?(eventObject: Any, channel: PNChannel?) {
        guard let fields = eventObject as? [String: Any], PNPresenceEvent.isPresenceEventObject(fields) else {
            return nil
        }
        self.init(response: fields)
        self.channel = channel
    }

    /// 3.4's `+presenceEventForResponse:`: `init(response:)`. (3.4's header promised an array for several events;
    /// its implementation, like this one, always returns one event.)
    public static func presenceEventForResponse(_ presenceResponse: Any) -> PNPresenceEvent {
        PNPresenceEvent(response: presenceResponse)
    }

    /// 3.4's `+isPresenceEventObject:`: true when `event` has all of `action`, `timestamp`, `uuid` and
    /// `occupancy` (a null value counts as present, as in 3.4).
    public static func isPresenceEventObject(_ event: [String: Any]) -> Bool {
        [actionKey, timestampKey, uuidKey, occupancyKey].allSatisfy { event[$0] != nil }
    }

    /// The observed (non `-pnpres`) channel the event happened on. Not retained, as in 3.4: the channel cache
    /// keeps channels alive until it is purged.
    public internal(set) var channel: PNChannel? {
        get { self.channelBox.withLock { $0.channel } }
        set { self.channelBox.withLock { $0.channel = newValue } }
    }

    /// The event as 3.4 described it: action, uuid, date, occupancy and channel on separate lines.
    public override var description: String {
        let action: String
        switch self.type {
        case .PNPresenceEventJoin: action = "join"
        case .PNPresenceEventLeave: action = "leave"
        case .PNPresenceEventTimeout: action = "timeout"
        }
        return "PNPresenceEvent \nEVENT: \(action)\nUSER IDENTIFIER: \(self.uuid ?? "(null)")\n"
            + "DATE: \(self.date.map { String(describing: $0) } ?? "(null)")\nOCCUPANCY: \(self.occupancy)\n"
            + "CHANNEL: \(self.channel.map { String(describing: $0) } ?? "(null)")"
    }
}
