import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// Chained publishes (docs/BEHAVIOR.md §1.2): by default the next publish's request is made while the one before is
/// on its way and written as soon as that one's answer is read — and still, on all four channels, each publish's
/// will-send comes after the outcome of the one before, as a client that sends one publish at a time shows.
@Suite struct ChainedPublishTests {
    static let sending = PNMessageState.PNMessageSending.rawValue
    static let sent = PNMessageState.PNMessageSent.rawValue

    /// The will-send and sent labels of each channel (`FourChannelRecorder`).
    static let labels: [FourChannelRecorder.Channel: (will: String, did: String)] = [
        .delegate: ("willSendMessage", "didSendMessage"),
        .observer: ("messageProcessing:\(sending)", "messageProcessing:\(sent)"),
        .notification: (kPNClientWillSendMessageNotification.rawValue, kPNClientDidSendMessageNotification.rawValue),
        .block: ("send:\(sending)", "send:\(sent)"),
    ]

    /// A client of `origin` on a service lane the test holds, connected, with a recorder of all four channels.
    static func connected(
        to origin: LocalOrigin,
        lane: SocketTransport
    ) async throws -> (PubNub, FourChannelRecorder) {
        let client = PubNub(
            configuration: PNConfiguration.testing(origin: origin.address),
            delegate: nil,
            eventSinks: [],
            serviceLane: lane,
            timings: .probing(every: 1_000)
        )
        let recorder = FourChannelRecorder(client: client, center: PNObservationCenter(client: client))
        client.connectWithSuccessBlock(recorder.connectSuccess, errorBlock: recorder.connectFailure)
        try await eventually("the connect block") { recorder.entries.contains { $0.label == "connect" } }
        return (client, recorder)
    }

    @Test func eachPublishIsAnnouncedAfterTheOutcomeOfTheOneBeforeOnAllFourChannels() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let lane = SocketTransport(maximumConnections: 4, label: "service")
        let (client, recorder) = try await Self.connected(to: origin, lane: lane)
        defer { recorder.stop() }
        let channel = PNChannel.channelWithName(LocalOriginClientTests.unique("chained"))
        let count = 30
        var keys: [String] = []
        for index in 0..<count {
            let message = client.sendMessage("m\(index)", toChannel: channel, withCompletionBlock: recorder.sendBlock)
            keys.append(FourChannelRecorder.key(message))
        }
        try await eventually("every send block", within: 30) {
            recorder.entries.count { $0.channel == .block && $0.label == "send:\(Self.sent)" } == count
        }
        let entries = recorder.entries
        for (kind, label) in Self.labels {
            let seen = entries.filter { $0.channel == kind && ($0.label == label.will || $0.label == label.did) }
                .map { "\($0.label == label.will ? "will" : "sent") \($0.key)" }
            #expect(seen == keys.flatMap { ["will \($0)", "sent \($0)"] }, "\(kind): not one publish at a time")
        }
        // On the wire, in call order, one at a time on one connection; all but the first written ahead.
        let wire = origin.requestLog.map(\.target).filter { $0.hasPrefix("/publish/") }
        #expect(wire.count == count)
        #expect(lane.writtenAheadCount > 0)
        client.disconnect()
    }

    @Test func aPublishThatFailsBeforeItsRequestReportsAfterTheOutcomeBeforeIt() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let lane = SocketTransport(maximumConnections: 4, label: "service")
        let (client, recorder) = try await Self.connected(to: origin, lane: lane)
        defer { recorder.stop() }
        let channel = PNChannel.channelWithName(LocalOriginClientTests.unique("chained-refused"))
        // The third is too long (110): its preflight fails while the second is on its way.
        let texts = ["a", "b", String(repeating: "x", count: ClientEngine.maximumMessageSize + 1), "d"]
        for text in texts {
            client.sendMessage(text, toChannel: channel, withCompletionBlock: recorder.sendBlock)
        }
        try await eventually("every send block", within: 30) {
            recorder.entries.count {
                $0.channel == .block && $0.label.hasPrefix("send:") && $0.label != "send:\(Self.sending)"
            }
                == texts.count
        }
        let delegate = recorder.entries.filter { $0.channel == .delegate && $0.label.contains("Send") }.map(\.label)
        #expect(
            delegate == [
                "willSendMessage", "didSendMessage", "willSendMessage", "didSendMessage", "messageSendDidFail",
                "willSendMessage", "didSendMessage",
            ]
        )
        client.disconnect()
    }
}
