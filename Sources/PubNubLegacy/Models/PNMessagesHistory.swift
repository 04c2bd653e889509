/// One page of a channel's message history (3.4's `PNMessagesHistory`, docs/API-3.4.md §2.13). Created by the
/// client; immutable.
public final class PNMessagesHistory: CustomStringConvertible, Sendable {
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

    /// Channel, dates and message count.
    public var description: String {
        "PNMessagesHistory <channel: \(self.channel?.name ?? "(null)"); "
            + "start: \(self.startDate?.timeTokenValue.description ?? "(null)"); "
            + "end: \(self.endDate?.timeTokenValue.description ?? "(null)"); messages: \(self.messages.count)>"
    }
}
