// The "CallsWithoutBlocks" HOWTO app for PubNub 3.4 (pubnub/objective-c at v3.4.3,
// `iOS/HOWTO/CallsWithoutBlocks/CallsWithoutBlocks/PNAppDelegate.m`), ported by the mechanical rule of MIGRATION.md
// §2: a delegate that logs what arrives with `NSLog`. Lines that needed more than the rule are marked `EDIT:`.

import Foundation
import PubNubLegacy

// EDIT: a UIKit application delegate is main-actor isolated in Swift 6: `@preconcurrency` conformance (MIGRATION.md
// §4).
@MainActor
final class PNAppDelegate: NSObject, @preconcurrency PNDelegate {
    var viewController: PNViewController!

    func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage) {
        // EDIT: 3.4 formatted with `+stringWithFormat:` and logged the result as the format; `String(format:)` on
        // Linux takes no `Any`, so the message is interpolated.
        NSLog("received: \(message.message ?? "")")
    }

    func pubnubClient(_ client: PubNub, didReceivePresenceEvent event: PNPresenceEvent) {
        //PNLog(PNLogGeneralLevel, self, @"PubNub client received presence event: %@", event);
        //NSLog(event);

        // EDIT: `NSLog` takes no optionals: the channel's name (never nil here) is unwrapped.
        NSLog("Received presence event %@ on channel %@", event.description, event.channel?.name ?? "")
    }

    func pubnubClient(
        _ client: PubNub,
        didReceiveParticipantsList participantsList: [String],
        forChannel channel: PNChannel
    ) {
        // EDIT: an array is not a `CVarArg` on Linux; it is passed as its description (the format never prints it).
        NSLog("hereNow! %@", channel.name, participantsList.description)
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [AnyHashable: Any]?
    ) -> Bool {
        // Override point for customization after application launch.
        self.viewController = PNViewController(nibName: "PNViewController", bundle: nil)

        PubNub.setDelegate(self)

        return true
    }
}
