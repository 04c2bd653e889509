import Foundation
import PubNubLegacy

// The README's example, verbatim between the markers, so `SharedClientTests` runs exactly what users read.
// README-EXAMPLE-BEGIN
/// Connects, subscribes with presence, publishes, and — once its own message comes back — reads the history and
/// who is here, then unsubscribes and disconnects.
final class ChatDemo: PNDelegate {
    let channel = PNChannel.channelWithName("readme-demo", shouldObservePresence: true)
    var finished: (() -> Void)?

    func start(origin: String) {
        let configuration = PNConfiguration(
            origin: origin,  // e.g. "127.0.0.1:8090" from `LegacyDemo origin`
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = false  // LocalOrigin speaks plain HTTP
        configuration.deliveryQueue = DispatchQueue(label: "chat-demo")  // or keep .main and call dispatchMain()
        PubNub.setupWithConfiguration(configuration, andDelegate: self)
        PubNub.connect()
        PubNub.subscribeOnChannel(self.channel)  // waits for the connection, then runs
        PubNub.sendMessage(["text": "Hello from PubNubLegacy"], toChannel: self.channel)
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage) {
        print("received \(message.message ?? "nil") on \(message.channel?.name ?? "?")")
        PubNub.requestFullHistoryForChannel(self.channel) { messages, _, _, _, _ in
            print("history: \(messages?.count ?? 0) message(s)")
            PubNub.requestParticipantsListForChannel(self.channel) { uuids, _, _ in
                print("here now: \(uuids ?? [])")
                PubNub.unsubscribeFromChannel(self.channel) { _, _ in
                    PubNub.disconnect()
                }
            }
        }
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin origin: String) {
        print("disconnected from \(origin)")
        self.finished?()
    }
}
// README-EXAMPLE-END
