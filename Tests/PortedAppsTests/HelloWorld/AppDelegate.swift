// The "HelloWorld" HOWTO app for PubNub 3.4 (pubnub/objective-c at v3.4.3,
// `iOS/HOWTO/HelloWorld/3.4/PubNubDemo/AppDelegate.m`), ported by the mechanical rule of MIGRATION.md §2. UIKit's
// window is replaced by the screen stand-ins of `UIKitScreen.swift`. Lines that needed more than the rule are marked
// `EDIT:` with the reason.

import Foundation
import PNObservation
import PubNubLegacy

// EDIT: a UIKit application delegate is main-actor isolated in Swift 6: `@preconcurrency` conformance (MIGRATION.md
// §4).
@MainActor
final class AppDelegate: NSObject, @preconcurrency PNDelegate {
    var viewController: ViewController!

    func initializePubNubClient() {
        PubNub.setDelegate(self)

        // Subscribe for client connection state change
        // (observe when client will be disconnected)
        PNObservationCenter.defaultCenter().addClientConnectionStateObserver(
            self,
            withCallbackBlock: { origin, connected, error in
                if !connected, let error {
                    let infoAlertView = UIAlertView()
                    infoAlertView.title = String(
                        format: "%@(%@)",
                        error.localizedDescription,
                        NSStringFromClass(type(of: self))
                    )
                    infoAlertView.message = String(
                        format: "Reason:\n%@\nSuggestion:\n%@",
                        error.localizedFailureReason,
                        error.localizedRecoverySuggestion
                    )
                    infoAlertView.addButton(withTitle: "OK")
                    infoAlertView.show()
                }
            }
        )

        // Subscribe application delegate on subscription updates
        // (events when client subscribe on some channel)
        // Subscribe application delegate on subscription updates
        // (events when client subscribe on some channel)
        PNObservationCenter.defaultCenter().addClientChannelSubscriptionStateObserver(
            self,
            withCallbackBlock: { state, channels, subscriptionError in
                // EDIT: a `switch` without `default`: leading dots (MIGRATION.md §2).
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

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [AnyHashable: Any]?
    ) -> Bool {
        // Override point for customization after application launch.
        self.viewController = ViewController(nibName: "ViewController", bundle: nil)

        //Initialize PubNub library
        self.initializePubNubClient()
        return true
    }

    // MARK: - PubNub client delegate methods

    func pubnubClient(_ client: PubNub, error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client report that error occurred: %@", error)
    }

    func pubnubClient(_ client: PubNub, willConnectToOrigin origin: String) {
        PNLog(PNLogGeneralLevel, self, "PubNub client is about to connect to PubNub origin at: %@", origin)
    }

    func pubnubClient(_ client: PubNub, didConnectToOrigin origin: String) {
        PNLog(PNLogGeneralLevel, self, "PubNub client successfully connected to PubNub origin at: %@", origin)
    }

    func pubnubClient(_ client: PubNub, connectionDidFailWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client was unable to connect because of error: %@", error)
    }

    func pubnubClient(_ client: PubNub, willDisconnectWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub clinet will close connection because of error: %@", error)
    }

    // 3.4 declared no such callback (the app meant `didDisconnectFromOrigin:withError:`): never called, in 3.4 too.
    func pubnubClient(_ client: PubNub, didDisconnectWithError error: PNError) {
        PNLog(PNLogGeneralLevel, self, "PubNub client closed connection because of error: %@", error)
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin origin: String) {
        PNLog(PNLogGeneralLevel, self, "PubNub client disconnected from PubNub origin at: %@", origin)
    }

    func pubnubClient(_ client: PubNub, didSubscribeOnChannels channels: [PNChannel]) {
        PNLog(PNLogGeneralLevel, self, "PubNub client successfully subscribed on channels: %@", channels)
    }

    // The app declared this one with `NSError *`.
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

    // The app declared the dates as `NSDate *`.
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

    // Misspelled ("Lits") in the app, so never called, in 3.4 too.
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

    // `- (NSNumber *)`, ported as written: a non-optional `NSNumber`.
    func shouldResubscribeOnConnectionRestore() -> NSNumber {
        NSNumber(value: false)
    }
}
