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

    // The PubNub client delegate methods are in TAAppDelegate+PNDelegate.swift.
}
