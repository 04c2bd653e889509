import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// The network-loss sequence (S-21, S-27) on all four channels at once: delegate, observation center,
/// notifications and blocks, each in the same order with the same payload.
///
/// The drop reaches the client twice: the held publish's connection fails, and so does the long-poll, whose failure
/// starts a probe. Under load the probe could win, and the engine then emitted will-disconnect before failing the
/// publish with 104; the loss sequence now fails the request in flight first (`ClientEngine.beginNetworkLoss`).
extension NetworkFaultTests {
    @Test func lossAndRestoreReachEveryChannelInTheSameOrderWithTheSamePayload() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        // The held publish must still be in flight when the drop comes, however slowly a loaded machine runs this
        // test: its own timer (106) is pushed far beyond the test's deadlines.
        configuration.nonSubscriptionRequestTimeout = 120
        let client = PubNub(configuration: configuration, delegate: nil, eventSinks: [], timings: .probing(every: 0.3))
        let center = PNObservationCenter(client: client)
        let recorder = FourChannelRecorder(client: client, center: center)
        defer { recorder.stop() }
        let senderLog = EventRecorder()
        let sender = try await Self.connected(to: origin, recorder: senderLog, probeInterval: 1_000)
        client.connectWithSuccessBlock(recorder.connectSuccess, errorBlock: recorder.connectFailure)
        try await eventually("recorder.entries.contains { $0.label == \"connect\" }") {
            recorder.entries.contains { $0.label == "connect" }
        }
        let channel = PNChannel.channelWithName(Client.unique("four"))
        client.subscribeOnChannel(channel, withCompletionHandlingBlock: recorder.subscribeBlock)
        try await eventually("the subscribe block") {
            recorder.entries.contains { $0.channel == .block && $0.label.hasPrefix("subscribe:") }
        }
        try await eventually("origin.counters.parkedPolls >= 1") { origin.counters.parkedPolls >= 1 }
        let held = try origin.inject(.neverAnswer, on: .operation(.publish))
        let start = recorder.entries.count
        _ = client.sendMessage("in flight", toChannel: channel, withCompletionBlock: recorder.sendBlock)
        try await eventually("origin.faultCounters.unanswered >= 1") { origin.faultCounters.unanswered >= 1 }
        let refusal = try origin.inject(.refuseConnections(dropExisting: true))
        try await eventually("recorder.entries.contains { $0.label == \"didDisconnectWithError\" }", within: 15) {
            recorder.entries.contains { $0.label == "didDisconnectWithError" }
        }
        try origin.inject(.neverAnswer, on: .operation(.time))
        try origin.clearFault(held)
        try origin.clearFault(refusal)
        sender.sendMessage("m1", toChannel: channel) { state, _ in senderLog.block("m1.\(state.rawValue)") }
        try await senderLog.next(.block, "m1.\(PNMessageState.PNMessageSent.rawValue)", within: 10)
        try origin.clearFaults()
        // Each event: the delegate first, then the observer (where the center has a bucket for it), the
        // notification and the block, all with the same payload.
        let expected: [[String]] = [
            ["D:willSendMessage", "O:messageProcessing:0", "N:PNClientWillSendMessageNotification", "B:send:0"],
            [
                "D:messageSendDidFail", "O:messageProcessing:2", "N:PNClientMessageSendingDidFailNotification",
                "B:send:2",
            ],
            ["D:willDisconnectWithError", "O:connection:error", "N:PNClientConnectionDidFailWithErrorNotification"],
            ["D:didDisconnectWithError", "O:connection:error", "N:PNClientConnectionDidFailWithErrorNotification"],
            ["D:willConnect", "N:PNClientWillConnectToOriginNotification"],
            ["D:didConnect", "O:connection:up", "N:PNClientDidConnectToOriginNotification"],
            ["D:willRestoreSubscription", "O:subscription:2", "N:PNClientSubscriptionWillRestoreNotification"],
            ["D:didReceiveMessage", "O:messageReceive", "N:PNClientDidReceiveMessageNotification"],
            ["D:didRestoreSubscription", "O:subscription:3", "N:PNClientSubscriptionDidRestoreNotification"],
        ]
        let total = expected.map(\.count).reduce(0, +)
        #expect(try await recorder.waitForEntries(total, from: start, within: 20))
        let window = Array(recorder.entries.dropFirst(start))
        #expect(window.map { "\($0.channel):\($0.label)" } == expected.flatMap { $0 })
        var offset = 0
        for event in expected {
            let keys = window.dropFirst(offset).prefix(event.count).map(\.key)
            #expect(Set(keys).count == 1, "\(event.first ?? ""): \(keys)")
            offset += event.count
        }
        let failure = window.first { $0.label == "messageSendDidFail" }?.key ?? "none"
        #expect(failure.hasPrefix("error(104)"), "\(failure)")
        #expect(window.first { $0.label == "willDisconnectWithError" }?.key.hasPrefix("error(103)") == true)
        #expect(window.first { $0.label == "didDisconnectWithError" }?.key.hasPrefix("error(103)") == true)
        // Swallowed by the fault with its connection: only a re-send would reach the origin's log.
        #expect(origin.requestLog.filter { $0.target.contains("/in%20flight") }.isEmpty)
        sender.disconnect()
        client.disconnect()
    }
}
