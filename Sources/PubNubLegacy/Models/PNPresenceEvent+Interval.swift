import Foundation

// The service's `interval` presence events (docs/PROTOCOL.md §2.4): above a key's announce limit a channel's presence
// comes as one event every few seconds — `{"action":"interval","timestamp":…,"occupancy":…}` plus, with presence
// deltas, the uuids that `join`ed, `leave`d or `timeout`ed meanwhile (or `here_now_refresh` when they were too many
// to list). 3.4 knew only one event per uuid, and 3.4.2 handed an interval event to the app as a message on the
// `-pnpres` channel. This client turns it into what 3.x code was written for (MIGRATION.md §5, "Presence interval
// events"): one `PNPresenceEvent` per listed uuid — joins, then leaves, then timeouts — each with the interval's
// occupancy and time; an interval without a list only updates the channel's `participantsCount`.

/// One `interval` presence event.
struct PresenceInterval {
    var timestamp: Any?
    var occupancy: Any?
    var joined: [String]
    var left: [String]
    var timedOut: [String]

    /// The interval event `object` is, or nil when it is not one.
    init?(_ object: Any) {
        guard let fields = object as? [String: Any], fields[PNPresenceEvent.actionKey] as? String == "interval" else {
            return nil
        }
        self.timestamp = fields[PNPresenceEvent.timestampKey]
        self.occupancy = fields[PNPresenceEvent.occupancyKey]
        let names = { (key: String) in (fields[key] as? [Any])?.compactMap { $0 as? String } ?? [] }
        self.joined = names("join")
        self.left = names("leave")
        self.timedOut = names("timeout")
    }

    /// The interval's occupancy (0 when it has none).
    var occupancyCount: UInt {
        UInt(clamping: unsignedValue(of: self.occupancy) ?? 0)
    }

    /// Applies the interval to `channel` — each listed uuid's event, then the interval's occupancy — and returns those
    /// events, to be delivered in order.
    func applied(to channel: PNChannel) -> [PNPresenceEvent] {
        let events = self.events(on: channel)
        for event in events { channel.updateWithEvent(event) }
        channel.updateWithOccupancy(self.occupancyCount)
        return events
    }

    /// One event per uuid the interval lists, in the order joins, leaves, timeouts, on `channel`.
    func events(on channel: PNChannel?) -> [PNPresenceEvent] {
        let listed =
            self.joined.map { ("join", $0) } + self.left.map { ("leave", $0) }
            + self.timedOut.map { ("timeout", $0) }
        return listed.compactMap { action, uuid in
            var fields: [String: Any] = [
                PNPresenceEvent.actionKey: action, PNPresenceEvent.uuidKey: uuid,
                PNPresenceEvent.occupancyKey: self.occupancy ?? 0,
            ]
            fields[PNPresenceEvent.timestampKey] = self.timestamp ?? NSNull()
            return PNPresenceEvent(eventObject: fields, channel: channel)
        }
    }
}
