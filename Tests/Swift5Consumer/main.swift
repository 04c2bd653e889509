// An app in Swift 5 language mode using the package: the 3.4 walkthrough's delegate as MIGRATION.md §3 ports it, a
// delegate that is no actor's, the observation center, the overlay and LocalOrigin. Never part of a target:
// `Scripts/test.sh` type-checks it with `swiftc -swift-version 5 -warnings-as-errors` against the modules `swift build`
// made, so a change that breaks or warns a Swift 5 app fails the test command. (A package in Swift 5 mode compiles
// this package's own targets in Swift 6 mode all the same: the language mode is per package.)

import Foundation
import LocalOrigin
import PNObservation
import PubNubAsync
import PubNubLegacy

/// The app delegate of MIGRATION.md §3: main-actor isolated, as UIKit's are; `@preconcurrency PNDelegate` keeps it
/// warning-free in Swift 5 mode too (the unedited `PNDelegate` is a warning there, an error in Swift 6 mode).
@MainActor
final class AppDelegate: NSObject, @preconcurrency PNDelegate {
    func didFinishLaunching() {
        PubNub.setDelegate(self)
        PubNub.setConfiguration(
            PNConfiguration.configurationForOrigin(
                "pubsub.pubnub.com",
                publishKey: "demo",
                subscribeKey: "demo",
                secretKey: "mySecret"
            )
        )
        PubNub.connect()
        let channel = PNChannel.channelWithName("a", shouldObservePresence: true)
        PubNub.subscribeOnChannel(channel)
        PubNub.sendMessage("hello from PubNub iOS!", toChannel: channel)
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage) {
        print("received: \(message.message ?? "")")
    }
}

/// A delegate bound to no actor (a service with its own delivery queue): conforms unedited.
final class Service: NSObject, PNDelegate {
    func pubnubClient(_ client: PubNub, didConnectToOrigin origin: String) {
        print("connected to \(origin)")
    }
}

// Top-level code is not main-actor isolated in Swift 5 mode (unless it awaits), so it says where it runs.
let appDelegate = MainActor.assumeIsolated { AppDelegate() }
MainActor.assumeIsolated { appDelegate.didFinishLaunching() }
PNObservationCenter.defaultCenter().addClientConnectionStateObserver(appDelegate) { origin, connected, error in
    print(origin, connected, error?.code ?? 0)
}
let service = Service()
let overlay = PubNubClient(
    configuration: PNConfiguration.configurationForOrigin(
        "127.0.0.1",
        publishKey: "demo",
        subscribeKey: "demo",
        secretKey: nil
    )
)
print(service, overlay, String(describing: LocalOrigin.self))
