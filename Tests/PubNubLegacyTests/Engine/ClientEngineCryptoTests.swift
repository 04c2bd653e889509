import Foundation
import Testing

@testable import PubNubLegacy

/// The cipher key on the publish and receive paths (docs/BEHAVIOR.md §3.10, S-45, S-65).
@Suite struct ClientEngineCryptoTests {
    @Test func publishedTextIsEncryptedOnceAndDecryptsBackOnReceive() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport) { $0.cipherKey = "enigma" }
        let name = ClientEngineSubscriptionTests.unique("c")
        let channel = PNChannel.channelWithName(name)
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        let message = try #require(client.sendMessage(["text": "hello"], toChannel: channel))
        try await recorder.next(.delegate, "didSendMessage")
        client.sendMessage(message) { state, _ in
            if state == .PNMessageSent { recorder.block("resent") }
        }
        try await recorder.next(.block, "resent")
        let publishes = transport.requests.filter { $0.url.path.hasPrefix("/publish/") }
        #expect(publishes.count == 2)
        let wire = try #require(publishes.first?.url.lastPathComponent)
        #expect(wire.hasPrefix("\"") && wire.hasSuffix("\""))
        #expect(!wire.contains("hello"))
        #expect(publishes[0].url.absoluteString == publishes[1].url.absoluteString)
        let envelopes = [
            ClientEngineSubscriptionTests.envelope(name, wire, token: "17000000000000701"),
            ClientEngineSubscriptionTests.envelope(name, "{\"plain\":true}", token: "17000000000000702"),
            ClientEngineSubscriptionTests.envelope(name, "\"bm90IGNpcGhlcnRleHQ=\"", token: "17000000000000703"),
        ]
        try await transport.answerWhenHeld(
            containing: "tt=\(ClientEngineSubscriptionTests.handshakeToken)",
            body: ClientEngineSubscriptionTests.answer(token: "17000000000000800", envelopes)
        )
        try await recorder.waitForCount(3, .delegate, "didReceiveMessage")
        let received = recorder.all(.delegate, "didReceiveMessage").compactMap(\.message)
        #expect((received[0].message as? [String: Any])?["text"] as? String == "hello")
        #expect(received[1].message as? String == "DECRYPTION_ERROR")
        #expect(received[2].message as? String == "DECRYPTION_ERROR")
        #expect(recorder.all(.delegate, "subscriptionDidFail").isEmpty)
    }

    @Test func resendingANumberSendsTheSameBytes() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { request in request.url.path.hasPrefix("/publish/") ? .hold : nil }
        let client = try await PubNubTests.connected(recorder, transport: transport) {
            $0.nonSubscriptionRequestTimeout = 0.2
        }
        let message = try #require(client.sendMessage(5, toChannel: PNChannel.channelWithName("n")))
        try await recorder.next(.delegate, "messageSendDidFail")
        client.sendMessage(message) { state, value in recorder.block("resend.\(state.rawValue)", value) }
        let sending = try await recorder.next(.block, "resend.0")
        #expect(sending.message === message)
        try await recorder.next(.block, "resend.2")
        let publishes = transport.targets.filter { $0.hasPrefix("/publish/") }
        #expect(publishes.count == 2)
        #expect(publishes.allSatisfy { $0.contains("/0/n/0/5?") })
    }
}
