import Foundation

/// The answer to a here-now request: who is on a channel (3.4's `PNHereNow`, docs/API-3.4.md §2.12).
/// Created by the client; immutable. An `NSObject` compared by identity, as in 3.4.
public final class PNHereNow: NSObject, Sendable {
    /// The uuids on the channel (the origin's `uuids`).
    public let participants: [String]

    /// The channel's occupancy (the origin's `occupancy`).
    public let participantsCount: UInt32

    /// The channel the request asked about.
    public let channel: PNChannel?

    /// Creates the answer for `channel`.
    init(participants: [String], participantsCount: UInt32, channel: PNChannel?) {
        self.participants = participants
        self.participantsCount = participantsCount
        self.channel = channel
    }

    /// `<PNHereNow: 0x…>`: 3.4 kept `NSObject`'s description.
    public override var description: String {
        "<PNHereNow: \(pointerDescription(self))>"
    }
}
