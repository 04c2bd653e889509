// The Mac OS X demo of PubNub 3.4.2 (pubnub/objective-c at v3.4.2,
// `cocoa/3.4/PubNubMacOSTestApplication/PubNubMacOSTestApplication/Classes/Controller/TAAppDelegate.m`), ported by
// the mechanical rule of MIGRATION.md §2, method by method and line by line. The app has no window: it logs what
// happens with `PNLog`. Lines that needed more than the rule are marked `EDIT:` with the reason; MIGRATION.md
// "Porting a real app" counts them.

import Foundation
import PNObservation
import PubNubLegacy

// Stores reference on list of channels on which library should subscribe
private let kTAChannelName = "macosdev"

// MARK: - Private interface declaration

// EDIT: an AppKit application delegate is main-actor isolated in Swift 6, so it conforms with `@preconcurrency`
// (MIGRATION.md §4); that is also what lets its `dispatch_after` blocks on the main queue capture `self`.
@MainActor
final class TAAppDelegate: NSObject, @preconcurrency PNDelegate {
    // Stores whether client disconnected on network error
    // or not
    var disconnectedOnNetworkError = false
    var isDisconnectedOnNetworkError: Bool { self.disconnectedOnNetworkError }

    // MARK: - Instance methods

    func initializePubNubClient() {
        PubNub.setDelegate(self)

        // Subscribe for client connection state change
        // (observe when client will be disconnected)
        PNObservationCenter.defaultCenter().addClientConnectionStateObserver(
            self,
            withCallbackBlock: { origin, connected, error in
                if !connected && error != nil {
                    PNLog(
                        PNLogGeneralLevel,
                        self,
                        "#2 PubNub client was unable to connect because of error: %@",
                        error?.localizedDescription,
                        error?.localizedFailureReason
                    )
                }
            }
        )

        // Subscribe application delegate on subscription updates
        // (events when client subscribe on some channel)
        PNObservationCenter.defaultCenter().addClientChannelSubscriptionStateObserver(
            self,
            withCallbackBlock: { state, channels, subscriptionError in
                // EDIT: a `switch` without `default` names the 3.4 constants with a leading dot (MIGRATION.md §2).
                switch state {
                case .PNSubscriptionProcessNotSubscribedState:
                    PNLog(
                        PNLogGeneralLevel,
                        self,
                        "{BLOCK-P} PubNub client subscription failed with error: %@",
                        subscriptionError
                    )

                case .PNSubscriptionProcessSubscribedState:
                    PNLog(PNLogGeneralLevel, self, "{BLOCK-P} PubNub client subscribed on channels: %@", channels)

                case .PNSubscriptionProcessWillRestoreState:
                    PNLog(
                        PNLogGeneralLevel,
                        self,
                        "{BLOCK-P} PubNub client will restore subscribed on channels: %@",
                        channels
                    )

                case .PNSubscriptionProcessRestoredState:
                    PNLog(
                        PNLogGeneralLevel,
                        self,
                        "{BLOCK-P} PubNub client restores subscribed on channels: %@",
                        channels
                    )
                }
            }
        )

        // Subscribe on message arrival events with block
        PNObservationCenter.defaultCenter().addMessageReceiveObserver(
            self,
            withBlock: { message in
                PNLog(PNLogGeneralLevel, self, "{BLOCK-P} PubNubc client received new message: %@", message)

                self.fetchHistory()
            }
        )

        // Subscribe on presence event arrival events with block
        PNObservationCenter.defaultCenter().addPresenceEventObserver(
            self,
            withBlock: { presenceEvent in
                PNLog(PNLogGeneralLevel, self, "{BLOCK-P} PubNubc client received new event: %@", presenceEvent)
            }
        )
    }

    // MARK: - Console simulation of base functionality

    func connect() {
        // Update PubNub client configuration
        PubNub.setConfiguration(PNConfiguration.defaultConfiguration())

        let weakSelf = self
        PubNub.connectWithSuccessBlock(
            { origin in
                PNLog(PNLogGeneralLevel, weakSelf, "{BLOCK} PubNub client connected to: %@", origin)
                weakSelf.subscribeOnChannels()
            },
            errorBlock: { connectionError in
                if connectionError?.code == kPNClientConnectionFailedOnInternetFailureError {
                    let delayInSeconds = 1.0
                    let popTime = DispatchTime.now() + delayInSeconds
                    DispatchQueue.main.asyncAfter(deadline: popTime) {
                        // EDIT: 3.4 built this text with `+stringWithFormat:`; Linux's `String(format:)` takes no
                        // optional values, so the arguments are unwrapped (the texts are never nil here).
                        PNLog(
                            PNLogGeneralLevel,
                            weakSelf,
                            String(
                                format: "Connection error: %@(%@)\nReason:\n%@\n\nSuggestion:\n%@",
                                connectionError?.localizedDescription ?? "",
                                NSStringFromClass(type(of: self)),
                                connectionError?.localizedFailureReason ?? "",
                                connectionError?.localizedRecoverySuggestion ?? ""
                            )
                        )
                    }
                }
            }
        )
    }

    func subscribeOnChannels() {
        let weakSelf = self
        PubNub.subscribeOnChannel(
            PNChannel.channelWithName(kTAChannelName),
            withCompletionHandlingBlock: { state, channels, subscriptionError in
                // EDIT: `[channels valueForKey:@"name"]` is key-value coding, which Swift on Linux does not have;
                // the names are mapped, and interpolated (`String(format:)` on Linux takes no arrays).
                var logMessage = "Subscribed on channels: \(channels.map(\.name))"
                if state == PNSubscriptionProcessNotSubscribedState {
                    logMessage = "Failed to subscribe on: \(channels.map(\.name))"
                }

                PNLog(PNLogGeneralLevel, weakSelf, logMessage)

                if state == PNSubscriptionProcessSubscribedState {
                    weakSelf.publishMessage()

                    let delayInSeconds = 2.0
                    let popTime = DispatchTime.now() + delayInSeconds
                    DispatchQueue.main.asyncAfter(deadline: popTime) {
                        weakSelf.fetchHereNow()
                    }
                }
            }
        )
    }

    func publishMessage() {
        let weakSelf = self
        PubNub.sendMessage(
            [
                "title": "JSON dictionary encapsulated message",
                "body": "This is example how we can send dictionary object.",
            ],
            toChannel: PNChannel.channelWithName(kTAChannelName),
            withCompletionBlock: { sendingSate, data in
                // EDIT: a `switch` without `default`: leading dots (MIGRATION.md §2).
                switch sendingSate {
                case .PNMessageSending:
                    PNLog(PNLogGeneralLevel, weakSelf, "Sending message: %@", data)
                case .PNMessageSent:
                    PNLog(PNLogGeneralLevel, weakSelf, "Message sent: %@", data)
                case .PNMessageSendingError:
                    PNLog(PNLogGeneralLevel, weakSelf, "Message sending error: %@", data)
                }
            }
        )
    }

    func fetchHistory() {
        let weakSelf = self
        PubNub.requestHistoryForChannel(
            PNChannel.channelWithName(kTAChannelName),
            from: nil,
            to: nil,
            limit: 100,
            withCompletionBlock: { messages, channel, startDate, endDate, error in
                for message in messages ?? [] {
                    // EDIT: 3.4 passed `[NSString stringWithFormat:@"> %@\n", message.message]` as the format;
                    // `String(format:)` on Linux cannot print the dictionary, so the format and its argument go to
                    // `PNLog` itself, which prints them as 3.4 did.
                    PNLog(PNLogGeneralLevel, weakSelf, "> %@\n", message.message)
                }
            }
        )
    }

    func fetchHereNow() {
        let weakSelf = self
        PubNub.requestParticipantsListForChannel(
            PNChannel.channelWithName(kTAChannelName),
            withCompletionBlock: { participants, channel, error in
                if error == nil {
                    PNLog(
                        PNLogGeneralLevel,
                        weakSelf,
                        "Received list of participants on channel (%@):\n%@",
                        participants,
                        channel
                    )
                } else {
                    PNLog(PNLogGeneralLevel, weakSelf, "Participants list request error: %@", error)
                }
            }
        )
    }

    // MARK: - NSApplication delegate methods

    func applicationDidFinishLaunching(_ aNotification: Notification) {
        self.initializePubNubClient()
        self.connect()
    }

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
