// Per-channel message buffers. Timetokens are handed out strictly increasing across the whole origin, so every ring
// is sorted by timetoken and cursor look-ups are binary searches.

/// One message as the origin keeps it.
struct StoredMessage: Sendable {
    /// The publish timetoken (unique across the origin).
    var timetoken: UInt64
    /// The channel it was published on (`{ch}-pnpres` for presence events).
    var channel: String
    /// The payload's JSON text, validated on arrival and sent back unchanged.
    var payload: String
    /// The publisher's `uuid`, when the publish carried one.
    var publisher: String?
    /// The publish `meta` JSON text, when given.
    var meta: String?
    /// What the publisher asked to be echoed in subscribe envelopes.
    var extras = PublishExtras()
}

/// What a publish may ask the service to echo in subscribe envelopes (docs/PROTOCOL.md §2.3.2): its sequence number
/// (`seqn=` → `s`), its origination timetoken (`ortt=` → `o`) and its custom message type (`custom_message_type=` →
/// `cmt`, and v3 history's `custom_message_type`).
struct PublishExtras: Sendable, Equatable {
    /// `seqn`, when it is an integer.
    var sequence: Int?
    /// `o`: `{"t":"…"[,"r":…]}` from the `ortt` object, its token as a string as the service sends it.
    var originator: JSONValue?
    /// `custom_message_type`, when non-empty.
    var customType: String?
}

/// A bounded, timetoken-ordered buffer that overwrites its oldest message when full.
struct MessageRing: Sendable {
    /// The most messages kept.
    let capacity: Int
    private var storage: [StoredMessage] = []
    private var head = 0

    /// An empty ring keeping at most `capacity` (at least 1) messages.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of messages kept.
    var count: Int { self.storage.count }

    /// The message at logical position `index`, 0 being the oldest.
    subscript(index: Int) -> StoredMessage {
        self.storage[(self.head + index) % self.storage.count]
    }

    /// Appends `message`, whose timetoken must be greater than every kept one; drops the oldest when full.
    mutating func append(_ message: StoredMessage) {
        if self.storage.count < self.capacity {
            self.storage.append(message)
        } else {
            self.storage[self.head] = message
            self.head = (self.head + 1) % self.capacity
        }
    }

    /// The first position whose timetoken is greater than `timetoken` (`count` when there is none).
    func firstIndex(after timetoken: UInt64) -> Int {
        var low = 0
        var high = self.count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].timetoken <= timetoken { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first position whose timetoken is at least `timetoken` (`count` when there is none).
    func firstIndex(atOrAfter timetoken: UInt64) -> Int {
        timetoken == 0 ? 0 : self.firstIndex(after: timetoken - 1)
    }

    /// The messages at logical positions `range`, oldest first.
    func messages(in range: Range<Int>) -> [StoredMessage] {
        range.map { self[$0] }
    }
}

/// Hands out timetokens: Unix time in units of 10⁻⁷ s, forced strictly increasing (docs/PROTOCOL.md §1.7).
struct TimetokenClock: Sendable {
    /// The last timetoken handed out (0 before the first).
    private(set) var last: UInt64 = 0

    /// A new timetoken for the Unix time `seconds`, greater than every earlier one.
    mutating func next(at seconds: Double) -> UInt64 {
        let candidate = TimetokenClock.timetoken(forUnixSeconds: seconds)
        self.last = max(candidate, self.last + 1)
        return self.last
    }

    /// `floor(seconds × 10⁷)`, 0 for times before 1970 or not finite.
    static func timetoken(forUnixSeconds seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let whole = seconds.rounded(.down)
        let fraction = ((seconds - whole) * 10_000_000).rounded(.down)
        guard whole < Double(UInt64.max / 10_000_000) else { return UInt64.max / 2 }
        return UInt64(whole) * 10_000_000 + UInt64(fraction)
    }
}
