// The delegate half of the Mac OS X demo of PubNub 3.4.2 (`TAAppDelegate.m`, see `TAAppDelegate.swift`): its
// `#pragma mark - PubNub client delegate methods` section, kept in the order of the original and ported by the same
// rule. The class declares the `PNDelegate` conformance; only the file is split, no line of the port changed.

import Foundation
import PubNubLegacy

extension TAAppDelegate {
    // MARK: - PubNub client delegate methods

    func pubnubClient(_ client: PubNub, error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client report that error occurred: %@", error)
    }

    func pubnubClient(_ client: PubNub, willConnectToOrigin origin: String) {
        if self.isDisconnectedOnNetworkError {
            PNLog(PNLogGeneralLevel, self, "PubNub client trying to restore connection to PubNub origin at: %@", origin)
        } else {
            PNLog(PNLogGeneralLevel, self, "PubNub client is about to connect to PubNub origin at: %@", origin)
        }
    }

    func pubnubClient(_ client: PubNub, didConnectToOrigin origin: String) {
        if self.isDisconnectedOnNetworkError {
            PNLog(PNLogGeneralLevel, self, "PubNub client restored connection to PubNub origin at: %@", origin)
        } else {
            PNLog(PNLogGeneralLevel, self, "PubNub client successfully connected to PubNub origin at: %@", origin)
        }

        self.disconnectedOnNetworkError = false
    }

    func pubnubClient(_ client: PubNub, connectionDidFailWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "#1 PubNub client was unable to connect because of error: %@", error)

        self.disconnectedOnNetworkError = error.code == kPNClientConnectionFailedOnInternetFailureError
    }

    func pubnubClient(_ client: PubNub, willDisconnectWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub clinet will close connection because of error: %@", error)
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin origin: String, withError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client closed connection because of error: %@", error)

        self.disconnectedOnNetworkError = error.code == kPNClientConnectionClosedOnInternetFailureError
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin origin: String) {
        PNLog(PNLogGeneralLevel, self, "PubNub client disconnected from PubNub origin at: %@", origin)
    }

    func pubnubClient(_ client: PubNub, didSubscribeOnChannels channels: [PNChannel]) {
        PNLog(PNLogGeneralLevel, self, "PubNub client successfully subscribed on channels: %@", channels)
    }

    func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels channels: [PNChannel]) {
        PNLog(PNLogGeneralLevel, self, "PubNub client resuming subscription on: %@", channels)
    }

    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels channels: [PNChannel]) {
        PNLog(PNLogGeneralLevel, self, "PubNub client successfully restored subscription on channels: %@", channels)
    }

    // The 3.4.2 app declared this one with `NSError *`.
    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError error: NSError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client failed to subscribe because of error: %@", error)
    }

    func pubnubClient(_ client: PubNub, didUnsubscribeOnChannels channels: [PNChannel]) {
        PNLog(PNLogGeneralLevel, self, "PubNub client successfully unsubscribed from channels: %@", channels)
    }

    func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client failed to unsubscribe because of error: %@", error)
    }

    func pubnubClient(_ client: PubNub, didReceiveTimeToken timeToken: NSNumber) {
        PNLog(PNLogGeneralLevel, self, "PubNub client recieved time token: %@", timeToken)
    }

    func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client failed to receive time token because of error: %@", error)
    }

    func pubnubClient(_ client: PubNub, willSendMessage message: PNMessage) {
        PNLog(PNLogGeneralLevel, self, "PubNub client is about to send message: %@", message)
    }

    func pubnubClient(_ client: PubNub, didFailMessageSend message: PNMessage?, withError error: PNError) {
        PNLog(
            PNLogGeneralLevel,
            self,
            "PubNub client failed to send message '%@' because of error: %@",
            message,
            error
        )
    }

    func pubnubClient(_ client: PubNub, didSendMessage message: PNMessage) {
        PNLog(PNLogGeneralLevel, self, "PubNub client sent message: %@", message)
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage) {
        PNLog(PNLogGeneralLevel, self, "PubNub client received message: %@", message)
    }

    func pubnubClient(_ client: PubNub, didReceivePresenceEvent event: PNPresenceEvent) {
        PNLog(PNLogGeneralLevel, self, "PubNub client received presence event: %@", event)
    }

    // The 3.4.2 app declared the dates as `NSDate *`.
    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory messages: [PNMessage],
        forChannel channel: PNChannel,
        startingFrom startDate: Date?,
        to endDate: Date?
    ) {
        PNLog(
            PNLogGeneralLevel,
            self,
            "PubNub client received history for %@ starting from %@ to %@: %@",
            channel,
            startDate,
            endDate,
            messages
        )
    }

    func pubnubClient(_ client: PubNub, didFailHistoryDownloadForChannel channel: PNChannel?, withError error: PNError)
    {
        PNLog(
            PNLogGeneralLevel,
            self,
            "PubNub client failed to download history for %@ because of error: %@",
            channel,
            error
        )
    }

    // The 3.4.2 app misspelled this selector ("Lits"), so 3.4.2 never called it; neither does this port.
    func pubnubClient(
        _ client: PubNub,
        didReceiveParticipantsLits participantsList: [String],
        forChannel channel: PNChannel
    ) {
        PNLog(
            PNLogGeneralLevel,
            self,
            "PubNub client received participants list for channel %@: %@",
            participantsList,
            channel
        )
    }

    func pubnubClient(
        _ client: PubNub,
        didFailParticipantsListDownloadForChannel channel: PNChannel?,
        withError error: PNError
    ) {
        PNLog(
            PNLogGeneralLevel,
            self,
            "PubNub client failed to download participants list for channel %@ because of error: %@",
            channel,
            error
        )
    }

    func shouldResubscribeOnConnectionRestore() -> NSNumber? {
        let shouldResubscribeOnConnectionRestore = NSNumber(value: false)

        if PubNub.subscribedChannels().count > 0 {
            var lastTimeToken = PubNub.subscribedChannels().last?.updateTimeToken

            if shouldResubscribeOnConnectionRestore.boolValue {
                lastTimeToken = "0"
            }

            PNLog(
                PNLogGeneralLevel,
                self,
                "PubNub client should restore subscription? %@. Resuming at last time token: %@",
                !shouldResubscribeOnConnectionRestore.boolValue ? "YES" : "NO",
                lastTimeToken
            )
        }

        return shouldResubscribeOnConnectionRestore
    }
}
