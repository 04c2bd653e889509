import Foundation
import PNObservation
import Testing

@testable import PubNubLegacy

/// The benchmark's hook `deliverSentMessageEvents`: its events take the production delivery path, so every
/// listener channel sees them in the order of docs/DESIGN.md §4, and nothing goes out for a message `sendMessage`
/// refuses.
@Suite struct PubNubDeliveryProbeTests {
    private func client() -> (PubNub, DispatchQueue, FourChannelRecorder) {
        let queue = DispatchQueue(label: "PubNubDeliveryProbeTests")
        let configuration = PNConfiguration(
            origin: "127.0.0.1",
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: nil,
            cipherKey: nil
        )
        configuration.deliveryQueue = queue
        let client = PubNub(configuration: configuration)
        let recorder = FourChannelRecorder(client: client, center: PNObservationCenter(client: client))
        return (client, queue, recorder)
    }

    @Test func everyEventReachesTheFourChannelsInOrder() async throws {
        let (client, _, recorder) = self.client()
        defer { recorder.stop() }
        let channel = PNChannel.channelWithName("probe-channel")
        #expect(client.deliverSentMessageEvents(3, payload: ["n": 1], channel: channel, completion: recorder.sendBlock))
        #expect(try await recorder.waitForEntries(12, from: 0, within: 10))
        let entries = recorder.entries
        let round: [FourChannelRecorder.Channel] = [.delegate, .observer, .notification, .block]
        #expect(entries.map(\.channel) == round + round + round, "\(entries)")
        let labels = Set(entries.map(\.label))
        #expect(labels.contains("send:\(PNMessageState.PNMessageSent.rawValue)"), "\(labels)")
        #expect(labels.contains("messageProcessing:\(PNMessageState.PNMessageSent.rawValue)"), "\(labels)")
        // One message, built as `sendMessage` builds it, handed to every listener.
        #expect(Set(entries.map(\.key)).count == 1, "\(entries)")
    }

    @Test func aMessageSendMessageRefusesDeliversNothing() throws {
        let (client, queue, recorder) = self.client()
        defer { recorder.stop() }
        #expect(
            !client.deliverSentMessageEvents(
                2,
                payload: "x",
                channel: PNChannel.channelWithName("a,b"),
                completion: nil
            )
        )
        #expect(
            !client.deliverSentMessageEvents(2, payload: "", channel: PNChannel.channelWithName("ok"), completion: nil)
        )
        // The delivery queue is serial: whatever was queued before this runs first.
        queue.sync {}
        #expect(recorder.entries.isEmpty, "\(recorder.entries)")
    }
}
