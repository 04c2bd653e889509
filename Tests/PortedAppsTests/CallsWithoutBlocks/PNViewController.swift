// The view controller of the "CallsWithoutBlocks" HOWTO app for PubNub 3.4 (pubnub/objective-c at v3.4.3,
// `iOS/HOWTO/CallsWithoutBlocks/CallsWithoutBlocks/PNViewController.m`), ported by the mechanical rule: a burst of
// calls without completion blocks, made right after `connect`, that 3.4 ran one after the other in call order.

import Foundation
import PubNubLegacy

@MainActor
final class PNViewController: NSObject {
    /// The origin the app names. 3.4 wrote `@"pubsub.pubnub.com"` here; the tests put their LocalOrigin's address.
    static var origin = "pubsub.pubnub.com"

    init(nibName: String?, bundle: Bundle?) {}

    func viewDidLoad() {
        PubNub.setConfiguration(
            PNConfiguration.configurationForOrigin(
                PNViewController.origin,
                publishKey: "demo",
                subscribeKey: "demo",
                secretKey: "mySecret"
            )
        )
        PubNub.connect()

        let channel_1 = PNChannel.channelWithName("a", shouldObservePresence: true)
        let channel_2 = PNChannel.channelWithName("ping_3", shouldObservePresence: false)

        PubNub.subscribeOnChannel(channel_1)
        PubNub.subscribeOnChannel(channel_2)

        PubNub.enablePresenceObservationForChannel(channel_2)
        PubNub.disablePresenceObservationForChannel(channel_1)

        PubNub.unsubscribeFromChannel(channel_1)
        PubNub.requestParticipantsListForChannel(channel_2)

        // EDIT: Swift warns about a value that is never used (warnings are errors here): `_ =` instead of
        // `PNMessage *myMessage =`.
        _ = PubNub.sendMessage("hello world!", toChannel: channel_2)

        PubNub.sendMessage("hello ping3!", toChannel: channel_2)

        // Do a HereNow call after 5 sec
        let delayInSeconds = 5.0
        let popTime = DispatchTime.now() + delayInSeconds
        DispatchQueue.main.asyncAfter(deadline: popTime) {
            PubNub.requestParticipantsListForChannel(channel_2)
        }

        //[PubNub disconnect];
    }
}
