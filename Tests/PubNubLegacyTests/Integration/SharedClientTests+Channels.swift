import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

// The default observation center and `NotificationCenter.default` with the shared client. Part of the serialized
// `SharedClientTests`, the only suite that touches the shared client and the default centers.

extension SharedClientTests {
    @Test func defaultCenterAndNotificationsFollowTheSharedClientAcrossResetClient() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        PubNub.resetClient()
        defer { PubNub.resetClient() }
        let center = PNObservationCenter.defaultCenter()
        #expect(PNObservationCenter.defaultCenter() === center)
        for round in 0..<2 {
            let client = PubNub.sharedInstance()
            let recorder = FourChannelRecorder(client: client, center: center)
            defer { recorder.stop() }
            // Installing the default center again must not deliver twice.
            center.observe(client)
            let harnessStart = recorder.entries.count
            PubNub.setupWithConfiguration(PNConfiguration.testing(origin: origin.address), andDelegate: recorder)
            PubNub.connectWithSuccessBlock(recorder.connectSuccess, errorBlock: recorder.connectFailure)
            try await Self.waitForCount(recorder, 6, from: harnessStart)
            PubNub.requestServerTimeTokenWithCompletionBlock(recorder.timeBlock)
            try await Self.waitForCount(recorder, 10, from: harnessStart)
            client.engine.flush()
            let labels = recorder.entries.dropFirst(harnessStart).map { "\($0.channel):\($0.label)" }
            #expect(
                labels == [
                    "D:willConnect", "N:PNClientWillConnectToOriginNotification",
                    "D:didConnect", "O:connection:up", "N:PNClientDidConnectToOriginNotification", "B:connect",
                    "D:didReceiveTimeToken", "O:time", "N:PNClientDidReceiveTimeTokenNotification", "B:time",
                ],
                "round \(round)"
            )
            // The disconnect's events reach this round's recorder before the reset: delivered late, the default
            // center (which outlives the reset) would hand its `connection:down` to the next round's recorder.
            let disconnectStart = recorder.entries.count
            PubNub.disconnect()
            try await eventually("the disconnect delivered") {
                recorder.entries.dropFirst(disconnectStart).contains {
                    "\($0.channel):\($0.label)" == "N:PNClientDidDisconnectFromOriginNotification"
                }
            }
            PubNub.resetClient()
        }
    }

    static func waitForCount(_ recorder: FourChannelRecorder, _ count: Int, from start: Int) async throws {
        try await eventually("\(count) entries; seen: \(recorder.entries.map(\.description))") {
            recorder.entries.count - start >= count
        }
    }
}
