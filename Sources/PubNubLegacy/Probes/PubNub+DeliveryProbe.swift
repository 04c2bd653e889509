import Foundation

// A hook for the package's benchmark (`LegacyDemo bench`): the fan-out of one event to the four listener channels
// cannot be timed through real publishes, whose request time is a hundred times larger than the dispatch itself.

extension PubNub {
    /// Hands `count` acknowledged-publish events for one message (`payload` on `channel`, built as `sendMessage`
    /// builds it) to this client's dispatcher, exactly as acknowledged publishes do: each, on the delivery queue,
    /// goes to the delegate's `pubnubClient(_:didSendMessage:)`, then the observation-center observers, then the
    /// `kPNClientDidSendMessageNotification` post, then `completion` with `.PNMessageSent` and the message.
    ///
    /// No request is made and no client state changes; the delivery gate is not consulted (the events are
    /// delivered as if connected). Callable from any thread; returns once every event is queued, usually before
    /// any is delivered. Returns false, delivering nothing, when `sendMessage` would refuse `payload` or `channel`.
    package func deliverSentMessageEvents(
        _ count: Int,
        payload: Any,
        channel: PNChannel,
        completion: PNClientMessageProcessingBlock?
    ) -> Bool {
        guard case .success(let message) = PNMessage.messageWithObject(payload, forChannel: channel) else {
            return false
        }
        let block = UserBlock(completion)
        for _ in 0..<max(count, 0) {
            self.engine.dispatcher.deliver(
                .didSendMessage(message),
                notify: true,
                completion: block.map { box in DeliveryBlock { box.block(.PNMessageSent, message) } }
            )
        }
        return true
    }
}
