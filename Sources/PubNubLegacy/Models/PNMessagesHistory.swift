import Foundation

/// One page of a channel's message history (3.4's `PNMessagesHistory`, docs/API-3.4.md §2.13). Created by the
/// client; immutable. An `NSObject` compared by identity, as in 3.4.
public final class PNMessagesHistory: NSObject, Sendable {
    /// The time token of the page's first message, as the origin reported it.
    public let startDate: PNDate?

    /// The time token of the page's last message, as the origin reported it.
    public let endDate: PNDate?

    /// The channel the request asked about.
    public let channel: PNChannel?

    /// The messages, oldest first unless the request asked for reverse order. Each has `channel` set to the
    /// requested channel and no `receiveDate`; with a cipher key they are already decrypted.
    public let messages: [PNMessage]

    /// Creates a page (3.4's internal `+historyBetween:andEndDate:` plus the fields it then set).
    init(startDate: PNDate?, endDate: PNDate?, channel: PNChannel?, messages: [PNMessage]) {
        self.startDate = startDate
        self.endDate = endDate
        self.channel = channel
        self.messages = messages
    }

    /// `<PNMessagesHistory: 0x…>`: 3.4 kept `NSObject`'s description.
    public override var description: String {
        "<PNMessagesHistory: \(pointerDescription(self))>"
    }
}
