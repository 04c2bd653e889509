import Foundation
import PlatformSupport

/// The process-wide channel cache shared by `PNChannel` and `PNChannelPresence`, keyed by exact name.
private let channelsCache = Locked<[String: PNChannel]>([:])

/// A PubNub channel (3.4's `PNChannel`, docs/API-3.4.md §2.8).
///
/// There is one cached instance per exact (case-sensitive) name: `channelWithName(_:)` returns it, creating it on
/// first use. An `NSObject`, as in 3.4, so it works in `NSArray`, `NSSet` and `NSDictionary` and with
/// `isEqual(_:)` and `index(of:)`. Unlike 3.4, channels compare and hash by name (docs/DESIGN.md §3) — `isEqual(_:)`,
/// `==`, `hash` and `Hashable` all agree — so an instance obtained after `purgeChannelsCache()` still equals one
/// obtained before it, and sets of channels behave as 3.x code expects. The instance also carries what the client
/// last learnt about the channel: the last subscribe time token and presence information. All members may be used
/// from any thread.
public class PNChannel: NSObject, @unchecked Sendable {
    // @unchecked: `name` is a `let`; every mutable field lives in `state`, a `Locked` box.

    /// The exact name the channel was created with.
    public let name: String

    private let state = Locked(State())

    private struct State {
        var updateTimeToken = "0"
        var presenceUpdateDate: PNDate?
        var participantsCount: UInt = 0
        var participants: [String] = []
        var observePresence = false
        var userDefinedPresenceObservation = false
    }

    /// Creates an uncached instance; everything outside the cache goes through `channelWithName(_:)`.
    required init(name: String) {
        self.name = name
    }

    // MARK: - Cache

    /// 3.4's `+channelsWithNames:`: `channelWithName(_:)` for each name, in order.
    public static func channelsWithNames(_ channelsName: [String]) -> [PNChannel] {
        channelsName.map { PNChannel.channelWithName($0) }
    }

    /// 3.4's `+channelWithName:`: the cached channel named `channelName`, created if absent. Its presence flag is
    /// left as it is. A name ending in `-pnpres` gives the `PNChannelPresence` for that name.
    ///
    /// Any name is accepted here, as in 3.4; operations refuse invalid names (see `validationError()`).
    public static func channelWithName(_ channelName: String) -> PNChannel {
        self.cachedChannel(named: channelName)
    }

    /// 3.4's `+channelWithName:shouldObservePresence:`: the cached channel, with its shared presence flag set to
    /// `shouldObservePresence` (a flag set this way is not "user-defined": enabling presence observation through
    /// the client is).
    public static func channelWithName(_ channelName: String, shouldObservePresence: Bool) -> PNChannel {
        let channel = self.cachedChannel(named: channelName)
        channel.state.withLock {
            $0.observePresence = shouldObservePresence
            $0.userDefinedPresenceObservation = false
        }
        return channel
    }

    /// Forgets every cached channel (3.4 did this on `resetClient` and after a user disconnect). References held
    /// elsewhere stay usable and still compare equal by name, but later lookups create new instances with fresh
    /// time tokens, presence flags and participant lists.
    public static func purgeChannelsCache() {
        channelsCache.withLock { $0.removeAll() }
    }

    /// The cached instance for `name`; `-pnpres` names are always `PNChannelPresence` instances.
    static func cachedChannel(named name: String) -> PNChannel {
        channelsCache.withLock { cache in
            if let channel = cache[name] {
                return channel
            }
            let type: PNChannel.Type =
                PNChannelPresence.isPresenceObservingChannelName(name) ? PNChannelPresence.self : PNChannel.self
            let channel = type.init(name: name)
            cache[name] = channel
            return channel
        }
    }

    // MARK: - Public state

    /// The time token of the last subscribe response that covered this channel, as decimal text; "0" until the
    /// first one, and again after the channel is left or re-joined with a presence event.
    public var updateTimeToken: String {
        self.state.withLock { $0.updateTimeToken }
    }

    /// When presence information (a presence event or a here-now answer) last updated this channel.
    public var presenceUpdateDate: PNDate? {
        self.state.withLock { $0.presenceUpdateDate }
    }

    /// The occupancy reported by the last presence event or here-now answer.
    public var participantsCount: UInt {
        self.state.withLock { $0.participantsCount }
    }

    /// The uuids known to be on the channel: here-now answers replace the list, joins add to it, leaves and
    /// timeouts remove from it.
    public var participants: [String] {
        self.state.withLock { $0.participants }
    }

    // MARK: - Validity

    /// The longest channel name in UTF-16 code units: the hard limit PubNub documents for channel names.
    public static let maximumNameLength = 2_048

    /// The error every operation reports for this channel's name before sending anything, or nil when the name
    /// is usable: empty names, names containing `,` (the separator of channel lists) or `/` (a path separator)
    /// (docs/DESIGN.md §3), names with a control character (U+0000–U+001F, U+007F) and names longer than
    /// `maximumNameLength` are refused with `kPNRestrictedCharacterInChannelNameError`. The channel is the error's
    /// associated object.
    public func validationError() -> PNError? {
        let problem: String
        let length = self.name.utf16.count
        if self.name.isEmpty {
            problem = "PubNub client can't use a channel with an empty name"
        } else if length > PNChannel.maximumNameLength {
            problem =
                "PubNub client can't use channel '\(self.shortName)': its name has \(length) UTF-16 code units, more "
                + "than the \(PNChannel.maximumNameLength) PubNub allows"
        } else if self.name.contains(",") {
            problem = "PubNub client can't use channel '\(self.shortName)': ',' separates channel names"
        } else if self.name.contains("/") {
            problem = "PubNub client can't use channel '\(self.shortName)': '/' is reserved"
        } else if self.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            problem = "PubNub client can't use channel '\(self.shortName)': it contains a control character"
        } else {
            return nil
        }
        return PNError(
            domain: kPNDefaultErrorDomain,
            code: kPNRestrictedCharacterInChannelNameError,
            message: problem,
            failureReason: "Looks like the channel name is empty, too long, or contains a control character or one "
                + "of the reserved characters ',' and '/'",
            category: .unknown,
            associatedObject: self,
            underlyingError: nil
        )
    }

    /// The name for error texts: control characters escaped, cut after 64 characters.
    private var shortName: String {
        let scalars = self.name.unicodeScalars
        let escaped = scalars.prefix(64).map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return escaped.joined() + (scalars.dropFirst(64).isEmpty ? "" : "…")
    }

    // MARK: - Presence (3.4's `PNChannel+Protected.h`)
    // 3.x apps imported the protected header for these getters; they are public here under their 3.4 names. The
    // setters stay with the client: the presence flag is set by `channelWithName(_:shouldObservePresence:)` and by
    // enabling or disabling presence observation.

    /// Whether the client subscribes to this channel's `-pnpres` companion along with it (3.4's protected
    /// `observePresence` property, read through its getter name). Set it with
    /// `channelWithName(_:shouldObservePresence:)` or `PubNub.enablePresenceObservationForChannel(_:)`.
    public internal(set) var shouldObservePresence: Bool {
        get { self.state.withLock { $0.observePresence } }
        set { self.state.withLock { $0.observePresence = newValue } }
    }

    /// Whether the presence flag was set by enabling presence observation through the client (rather than by
    /// `channelWithName(_:shouldObservePresence:)`); such companions are left on unsubscribe. 3.4's protected
    /// `userDefinedPresenceObservation` property, read through its getter name.
    public internal(set) var isUserDefinedPresenceObservation: Bool {
        get { self.state.withLock { $0.userDefinedPresenceObservation } }
        set { self.state.withLock { $0.userDefinedPresenceObservation = newValue } }
    }

    /// 3.4's protected `-isPresenceObserver`: whether this is a `-pnpres` channel (a `PNChannelPresence`).
    public func isPresenceObserver() -> Bool {
        false
    }

    /// 3.4's protected `-presenceObserver`: the `-pnpres` companion while the presence flag is set, nil otherwise.
    public func presenceObserver() -> PNChannelPresence? {
        self.shouldObservePresence ? PNChannelPresence.presenceForChannel(self) : nil
    }

    /// Records the time token of a subscribe response that covered this channel.
    func setUpdateTimeToken(_ token: UInt64) {
        self.state.withLock { $0.updateTimeToken = String(token) }
    }

    /// Sets the time token back to "0".
    func resetUpdateTimeToken() {
        self.state.withLock { $0.updateTimeToken = "0" }
    }

    /// Applies a presence event: occupancy, and the uuid added (join) or removed (leave, timeout).
    func updateWithEvent(_ event: PNPresenceEvent) {
        let now = PNDate(timeToken: timeTokenFromDate(Date()))
        self.state.withLock { state in
            state.participantsCount = event.occupancy
            if let uuid = event.uuid {
                if event.type == .PNPresenceEventJoin {
                    // 3.4 appended duplicates; one entry per uuid keeps `participants` a list of who is there.
                    if !state.participants.contains(uuid) {
                        state.participants.append(uuid)
                    }
                } else {
                    state.participants.removeAll { $0 == uuid }
                }
            }
            state.presenceUpdateDate = now
        }
    }

    /// Applies the occupancy of a presence `interval` event (which names no uuid, or too many to list).
    func updateWithOccupancy(_ occupancy: UInt) {
        let now = PNDate(timeToken: timeTokenFromDate(Date()))
        self.state.withLock { state in
            state.participantsCount = occupancy
            state.presenceUpdateDate = now
        }
    }

    /// Applies a here-now answer: it replaces the participants and the occupancy.
    func updateWithParticipantsList(_ hereNow: PNHereNow) {
        let now = PNDate(timeToken: timeTokenFromDate(Date()))
        self.state.withLock { state in
            state.participants = hereNow.participants
            state.participantsCount = UInt(hereNow.participantsCount)
            state.presenceUpdateDate = now
        }
    }

    // MARK: - Equality

    /// Channels are equal when their names are (docs/DESIGN.md §3); `==` and `!=` call this. A `PNChannelPresence`
    /// equals the channel object of the same (`-pnpres`) name.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PNChannel else {
            return false
        }
        return other === self || other.name == self.name
    }

    /// The hash of the name, consistent with `isEqual(_:)`.
    public override var hash: Int {
        self.name.hashValue
    }

    /// `PNChannel(0x…) name`, as 3.4 described channels (`%@`, `print`, string interpolation).
    public override var description: String {
        "\(type(of: self))(\(pointerDescription(self))) \(self.name)"
    }
}
