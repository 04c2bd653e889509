import Foundation
import LocalOrigin
import TestSupport
import Testing

@testable import PubNubLegacy

// Issue 20, item 3: a long-poll answered one byte at a time. The transport's idle timeout restarts on every byte,
// so only the long-poll's overall deadline (`subscribeMaximumIdleTime` after it was sent) can end it.

extension HostileOriginTests {
    @Test func aLongPollDrippedAByteAtATimeEndsAtItsDeadlineAndTheLoopCatchesUp() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let dripped = Locked<[UInt64]>([])
        // In front of the origin: the first long-poll after the handshake gets a head that never ends, one byte
        // every 0.2 s (well inside the idle timeout); every other request goes to the origin.
        let proxy = try RawHTTPServer(upstream: origin.address) { request in
            if let cursor = RawHTTPServer.subscribeCursor(request), cursor != 0,
                dripped.withLock({ list -> Bool in
                    list.append(cursor)
                    return list.count == 1
                })
            {
                return .drip("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Stall: 1\r\n", count: 200), every: 0.2)
            }
            return .forward
        }
        defer { proxy.stop() }
        let configuration = PNConfiguration.testing(origin: "127.0.0.1:\(proxy.port)")
        configuration.subscribeMaximumIdleTime = 2
        let recorder = EventRecorder()
        let client = PubNub(configuration: configuration, delegate: recorder, eventSinks: [recorder])
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 10)
        let name = Client.unique("drip")
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe", within: 10)
        try await eventually("the dripped long-poll") { !dripped.current.isEmpty }

        // Published while the long-poll drips: delivered once the deadline has replaced it.
        #expect(try await Self.publishRaw(#""during the stall""#, on: name, to: origin.address) == 200)
        let received = try await recorder.next(.delegate, "didReceiveMessage", within: 20)
        #expect(received.message?.message as? String == "during the stall")
        // The replacement continued from the cursor the stalled poll carried (no handshake, nothing lost), and the
        // stall was not reported as a subscription failure.
        let cursors = dripped.current
        #expect(cursors.count >= 2)
        #expect(cursors.dropFirst().first == cursors.first)
        #expect(recorder.all(.delegate, "subscriptionDidFail").isEmpty)
        client.disconnect()
    }
}
