import Foundation

// Bounded delivery of one subscribe answer (issue: the client's memory stays bounded whatever the origin sends).
// Events used to be made all at once on the client queue — a decoded Foundation tree, then one `PNMessage`, one
// `ClientEvent` and one queued closure per message — so a 100,000-message answer held all of them until the delivery
// queue had run through them. A batch instead keeps the answer's bytes and a small index, goes to the delivery queue
// as one item (so it stays in order with every other event), and makes each message's event there, just before its
// listeners run: only one message exists as objects at a time.

/// The events of one subscribe answer, made one at a time on the delivery queue.
///
/// Built on the client queue, which resolves everything that touches the client's state (channel objects,
/// presence updates, duplicates); afterwards immutable.
// @unchecked: every stored property is a `let`. The channel objects and presence events it refers to are the
// package's thread-safe models; the cryptor is a value.
final class SubscribeBatch: @unchecked Sendable {
    /// One event of the answer, in array order.
    enum Item {
        /// A message: the envelope at this index of `response.messages`, with the channel it names.
        case message(index: Int, channel: PNChannel?)
        /// A presence event, already applied to its channel on the client queue.
        case presence(PNPresenceEvent)
    }

    let response: SubscribeResponse
    let items: [Item]
    let receiveDate: PNDate
    /// The cipher of the settings in force when the answer arrived, nil without a cipher key.
    let cryptor: MessageCryptor?

    init(response: SubscribeResponse, items: [Item], receiveDate: PNDate, cryptor: MessageCryptor?) {
        self.response = response
        self.items = items
        self.receiveDate = receiveDate
        self.cryptor = cryptor
    }

    /// Roughly the memory the batch holds until delivered: the answer's bytes plus the index entries. The subscribe
    /// loop stops fetching while undelivered batches weigh more than its window.
    var weight: Int {
        self.response.body.count + 128 * self.items.count
    }

    /// Makes the events of item `index` of the answer: the message (delivered with its raw text when the payload
    /// cannot be decoded, or as `DECRYPTION_ERROR` when it cannot be decrypted), followed by the error that reports
    /// it, if any; or the presence event. Called on the delivery queue, once per item, in order.
    func events(ofItemAt index: Int) -> [ClientEvent] {
        switch self.items[index] {
        case .presence(let event):
            return [.didReceivePresenceEvent(event)]
        case .message(let index, let channel):
            let envelope = self.response.messages[index]
            switch self.response.payload(of: envelope) {
            case .value(let payload):
                var value = payload
                var failure: CryptoError?
                if let cryptor = self.cryptor {
                    switch cryptor.decrypt(wireValue: payload) {
                    case .success(let decrypted): value = decrypted
                    case .failure(let error):
                        value = ClientEngine.decryptionErrorValue
                        failure = error
                    }
                }
                let message = PNMessage(
                    message: value,
                    channel: channel,
                    receiveDate: self.receiveDate,
                    timeToken: envelope.publishTimetoken
                )
                guard let failure else { return [.didReceiveMessage(message)] }
                return [.didReceiveMessage(message), .error(ClientEngine.decryptionError(failure, of: message))]
            case .undecodable(let text, let reason):
                let message = PNMessage(
                    message: text,
                    channel: channel,
                    receiveDate: self.receiveDate,
                    timeToken: envelope.publishTimetoken
                )
                return [.didReceiveMessage(message), .error(ClientEngine.undecodableMessageError(reason, of: message))]
            }
        }
    }
}
