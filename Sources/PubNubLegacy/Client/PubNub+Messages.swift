import Foundation

// Time token and publishing: docs/API-3.4.md §2.1.5 and §2.1.6, `+requestServerTimeToken` …
// `+sendMessage:withCompletionBlock:`.

extension PubNub {
    // MARK: - Time token (`+requestServerTimeToken`, `+requestServerTimeTokenWithCompletionBlock:`)

    /// Asks the shared client for the server time; see `requestServerTimeTokenWithCompletionBlock(_:)`.
    public static func requestServerTimeToken() {
        self.sharedInstance().requestServerTimeToken()
    }

    /// Asks for the server time without a block; the result reaches the delegate.
    public func requestServerTimeToken() {
        self.requestServerTimeTokenWithCompletionBlock(nil)
    }

    /// Asks the shared client for the server time; see the instance method.
    public static func requestServerTimeTokenWithCompletionBlock(_ success: PNClientTimeTokenReceivingCompleteBlock?) {
        self.sharedInstance().requestServerTimeTokenWithCompletionBlock(success)
    }

    /// Asks the origin for its time token (unsigned 64-bit, 100 ns units). Success: `didReceiveTimeToken:` and the
    /// block with the token; failure: `timeTokenReceiveDidFailWithError:` (when connected or recovering) and the
    /// block with nil and the error — 104/105 when not connected, 106 after `nonSubscriptionRequestTimeout`.
    /// The block is called exactly once, on the delivery queue.
    public func requestServerTimeTokenWithCompletionBlock(_ success: PNClientTimeTokenReceivingCompleteBlock?) {
        let block = UserBlock(success)
        self.engine.enqueue {
            self.engine.requestTime(block: block)
        }
    }

    // MARK: - Send (`+sendMessage:toChannel:`, `+sendMessage:toChannel:withCompletionBlock:`)

    /// Publishes through the shared client; see `sendMessage(_:toChannel:withCompletionBlock:)`.
    @discardableResult
    public static func sendMessage(_ message: Any, toChannel: PNChannel) -> PNMessage? {
        self.sharedInstance().sendMessage(message, toChannel: toChannel)
    }

    /// Publishes `message` to `toChannel` without a block; see `sendMessage(_:toChannel:withCompletionBlock:)`.
    @discardableResult
    public func sendMessage(_ message: Any, toChannel: PNChannel) -> PNMessage? {
        self.sendMessage(message, toChannel: toChannel, withCompletionBlock: nil)
    }

    /// Publishes through the shared client; see the instance method.
    @discardableResult
    public static func sendMessage(
        _ message: Any,
        toChannel: PNChannel,
        withCompletionBlock: PNClientMessageProcessingBlock?
    ) -> PNMessage? {
        self.sharedInstance().sendMessage(message, toChannel: toChannel, withCompletionBlock: withCompletionBlock)
    }

    /// Publishes `message` (any JSON value: String, number, Bool, NSNull, arrays and dictionaries of those; a
    /// String that already is JSON text is sent as it is) to `toChannel`, after the calls made before it.
    ///
    /// Returns the `PNMessage`, or nil when the payload or channel is invalid: at once when other work of the client
    /// is waiting (the call is queued), after writing the request from the calling thread when the client is idle
    /// (no thread is woken for it); nothing is delivered inside the call either way. The block is called first
    /// with `PNMessageSending` and the message when the request is sent (after `willSendMessage:`), then exactly
    /// once more: `PNMessageSent` and the message after `didSendMessage:`, or `PNMessageSendingError` and the
    /// error after `didFailMessageSend:withError:` (the delegate only while connected or recovering). Errors: 122
    /// empty message, 121 not JSON-serializable, 123/111 missing or refused channel (all without sending),
    /// 110 larger than 32 KiB once escaped (before sending), 104/105 not connected, 106 timeout, 127 malformed
    /// answer (a publish is never re-sent), server refusals mapped by their text (109 wrong key, …). Publishes of
    /// one client reach the origin in call order. Blocks run on the delivery queue.
    @discardableResult
    public func sendMessage(
        _ message: Any,
        toChannel: PNChannel,
        withCompletionBlock: PNClientMessageProcessingBlock?
    ) -> PNMessage? {
        self.sendMessage(message, toChannel: toChannel, withCompletionBlock: withCompletionBlock, sentTimeToken: nil)
    }

    /// `sendMessage(_:toChannel:withCompletionBlock:)`, and `sentTimeToken` gets the publish time token the origin
    /// answered with, on the delivery queue right before the block's `PNMessageSent` call (`PubNubAsync`).
    @discardableResult
    package func sendMessage(
        _ message: Any,
        toChannel: PNChannel,
        withCompletionBlock: PNClientMessageProcessingBlock?,
        sentTimeToken: (@Sendable (UInt64?) -> Void)?
    ) -> PNMessage? {
        let block = UserBlock(withCompletionBlock)
        if let text = message as? String, !text.isEmpty, text.allSatisfy(\.isWhitespace) {
            // S-64: a message of only spaces is empty (3.4 trimmed before checking).
            self.engine.enqueue {
                self.engine.publish(
                    nil,
                    buildError: PNError(code: kPNMessageHasNoContentError),
                    block: block,
                    sentTimeToken: sentTimeToken
                )
            }
            return nil
        }
        switch PNMessage.messageWithObject(message, forChannel: toChannel) {
        case .success(let built):
            // In place when the queue is idle: the caller's thread writes the request (`ClientEngine.enqueue`).
            self.engine.enqueue(inPlace: true) {
                self.engine.publish(built, buildError: nil, block: block, sentTimeToken: sentTimeToken)
            }
            return built
        case .failure(let error):
            self.engine.enqueue {
                self.engine.publish(nil, buildError: error, block: block, sentTimeToken: sentTimeToken)
            }
            return nil
        }
    }

    // MARK: - Re-send (`+sendMessage:`, `+sendMessage:withCompletionBlock:`)

    /// Re-sends a message through the shared client; see `sendMessage(_:withCompletionBlock:)`.
    public static func sendMessage(_ message: PNMessage) {
        self.sharedInstance().sendMessage(message)
    }

    /// Re-sends `message` without a block; see `sendMessage(_:withCompletionBlock:)`.
    public func sendMessage(_ message: PNMessage) {
        self.sendMessage(message, withCompletionBlock: nil)
    }

    /// Re-sends a message through the shared client; see the instance method.
    public static func sendMessage(_ message: PNMessage, withCompletionBlock: PNClientMessageProcessingBlock?) {
        self.sharedInstance().sendMessage(message, withCompletionBlock: withCompletionBlock)
    }

    /// Publishes `message` again to its channel as a new request: the payload goes out byte-identical (no second
    /// JSON encoding, no second encryption) and the callbacks report this same `PNMessage` object. A received
    /// message (holding a decoded value) is encoded as a new payload. Callbacks as for
    /// `sendMessage(_:toChannel:withCompletionBlock:)`.
    public func sendMessage(_ message: PNMessage, withCompletionBlock: PNClientMessageProcessingBlock?) {
        let block = UserBlock(withCompletionBlock)
        let outgoing: PNMessage?
        let error: PNError?
        if message.message is String, message.receiveDate == nil, message.channel?.validationError() == nil,
            message.channel != nil
        {
            outgoing = message
            error = nil
        } else {
            switch PNMessage.messageWithObject(message.message, forChannel: message.channel) {
            case .success(let built):
                outgoing = built
                error = nil
            case .failure(let failure):
                outgoing = nil
                error = failure
            }
        }
        self.engine.enqueue {
            self.engine.publish(outgoing, buildError: error, block: block)
        }
    }
}
