import Foundation

// Participants ("here now"): docs/API-3.4.md §2.1.8, `+requestParticipantsListForChannel:withCompletionBlock:` and its
// variants.

extension PubNub {
    // MARK: - Participants

    /// Requests who is on `channel` through the shared client; see the instance method.
    public static func requestParticipantsListForChannel(_ channel: PNChannel) {
        self.sharedInstance().requestParticipantsListForChannel(channel)
    }

    /// Requests who is on `channel` without a block; the result reaches the delegate.
    public func requestParticipantsListForChannel(_ channel: PNChannel) {
        self.requestParticipantsListForChannel(channel, withCompletionBlock: nil)
    }

    /// Requests who is on `channel` through the shared client, with a block; see the instance method.
    public static func requestParticipantsListForChannel(
        _ channel: PNChannel,
        withCompletionBlock: PNClientParticipantsHandlingBlock?
    ) {
        self.sharedInstance().requestParticipantsListForChannel(channel, withCompletionBlock: withCompletionBlock)
    }

    /// Asks the origin which uuids are on `channel` ("here now"). The channel's `participants`,
    /// `participantsCount` and `presenceUpdateDate` are updated first; then `didReceiveParticipantsList:forChannel:`
    /// and the block with the uuids and the channel. Failure: `didFailParticipantsListDownloadForChannel:withError:`
    /// (when connected or recovering) and the block with nil, the channel and the error — 104/105, 111, 106, 107
    /// presence not enabled, 112/113. The block is called exactly once (also on pre-flight failures, unlike 3.4:
    /// docs/DESIGN.md D5), on the delivery queue.
    public func requestParticipantsListForChannel(
        _ channel: PNChannel,
        withCompletionBlock: PNClientParticipantsHandlingBlock?
    ) {
        let block = UserBlock(withCompletionBlock)
        self.engine.enqueue {
            self.engine.requestParticipants(channel, block: block)
        }
    }
}
