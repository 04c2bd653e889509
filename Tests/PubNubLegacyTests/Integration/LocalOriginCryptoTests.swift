import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

/// Undecryptable payloads and cipher key changes end to end through an in-process LocalOrigin (docs/BEHAVIOR.md §3.10,
/// S-45, S-59, issue 5).
@Suite struct LocalOriginCryptoTests {
    typealias Client = LocalOriginClientTests

    /// The wire text (a JSON string of base64) of `json` encrypted with `key` in the 3.4 standard.
    static func wire(_ json: String, key: String) -> String {
        try! MessageCryptor(cipherKey: key, mode: .standard).encrypt(messageJSONText: json).get()
    }

    /// Publishes each JSON text as it is (a client without a cipher key sends JSON text verbatim), in order.
    static func inject(
        _ texts: [String],
        on channel: PNChannel,
        through client: PubNub,
        _ log: EventRecorder
    )
        async throws
    {
        for (index, text) in texts.enumerated() {
            client.sendMessage(text, toChannel: channel) { state, _ in
                if state != .PNMessageSending { log.block("inject.\(index)", state) }
            }
            let outcome = try await log.next(.block, "inject.\(index)")
            #expect(outcome.value as? PNMessageState == .PNMessageSent)
        }
    }

    /// The three broken payloads of the issue, then a good one, all meant for key `enigma`.
    static func brokenThenGood() throws -> (broken: [String], good: String) {
        let wrongKey = Self.wire(#""a secret for someone else""#, key: "not enigma")
        // Flipping a bit of the next-to-last block flips the same bit of the last plaintext block's final byte:
        // the padding length no longer matches the bytes before it.
        let original = Self.wire(#"{"text":"tampered with","n":123456789}"#, key: "enigma")
        var bytes = try #require(Data(base64Encoded: String(original.dropFirst().dropLast())))
        #expect(bytes.count >= 32)
        bytes[bytes.count - 17] ^= 0x01
        let tampered = "\"" + bytes.base64EncodedString() + "\""
        let good = Self.wire(#""still running""#, key: "enigma")
        let truncated = String(good.dropLast(4)) + "\""  // three base64 characters gone: not base64 any more
        return ([wrongKey, tampered, truncated], good)
    }

    /// Checks that the decryption-failure reports are one per broken message, each right after it, with code 119,
    /// category `decryptionError` and the message as associated object.
    static func expectReports(after messages: [PNMessage], in recorder: EventRecorder) {
        let errors = recorder.all(.delegate, "error").compactMap(\.error)
        #expect(errors.count == messages.count)
        for (error, message) in zip(errors, messages) {
            #expect(error.code == kPNCryptoInputDataProcessingError)
            #expect(error.category == .decryptionError)
            #expect((error.associatedObject as? PNMessage) === message)
        }
    }

    @Test func undecryptablePayloadsArriveAsDecryptionErrorAndTheLoopKeepsRunning() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let reader = try await Client.connected(to: origin, recorder: recorder) { $0.cipherKey = "enigma" }
        defer { reader.disconnect() }
        let injectorLog = EventRecorder()
        let injector = try await Client.connected(to: origin, recorder: injectorLog)
        defer { injector.disconnect() }
        let channel = PNChannel.channelWithName(Client.unique("broken"))
        reader.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")

        let (broken, good) = try Self.brokenThenGood()
        try await Self.inject(broken + [good], on: channel, through: injector, injectorLog)
        try await recorder.waitForCount(4, .delegate, "didReceiveMessage")
        try await recorder.waitForCount(3, .delegate, "error")
        let received = recorder.all(.delegate, "didReceiveMessage").compactMap(\.message)
        #expect(received.prefix(3).map { $0.message as? String } == Array(repeating: "DECRYPTION_ERROR", count: 3))
        #expect(received.last?.message as? String == "still running")
        Self.expectReports(after: Array(received.prefix(3)), in: recorder)
        // Each report follows its message, before the next message.
        let order = recorder.names(.delegate).filter { $0 == "didReceiveMessage" || $0 == "error" }
        #expect(
            order.prefix(7) == [
                "didReceiveMessage", "error", "didReceiveMessage", "error", "didReceiveMessage", "error",
                "didReceiveMessage",
            ]
        )
        #expect(recorder.all(.delegate, "subscriptionDidFail").isEmpty)

        // History decrypts the same way and reports the same failures.
        let historyLog = EventRecorder()
        let historian = try await Client.connected(to: origin, recorder: historyLog) { $0.cipherKey = "enigma" }
        defer { historian.disconnect() }
        historian.requestHistoryForChannel(channel, from: nil, to: nil, limit: 10) { messages, _, _, _, error in
            historyLog.block("history", (messages ?? [], error))
        }
        let entry = try await historyLog.next(.block, "history")
        let (messages, error) = try #require(entry.value as? ([PNMessage], PNError?))
        #expect(error == nil)
        #expect(
            messages.map { $0.message as? String } == [
                "DECRYPTION_ERROR", "DECRYPTION_ERROR", "DECRYPTION_ERROR", "still running",
            ]
        )
        try await historyLog.waitForCount(3, .delegate, "error")
        Self.expectReports(after: Array(messages.prefix(3)), in: historyLog)
    }

    @Test func aCipherKeyChangeAppliesToTheNextMessageAndClearingItStopsEncryption() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await Client.connected(to: origin, recorder: recorder) { $0.cipherKey = "first key" }
        defer { client.disconnect() }
        let name = Client.unique("rekey")
        let channel = PNChannel.channelWithName(name)
        let configuration = PNConfiguration.testing(origin: origin.address)
        for (index, (key, text)) in [("first key", "one"), ("second key", "two"), ("", "three")].enumerated() {
            if index > 0 {
                configuration.cipherKey = key
                client.setConfiguration(configuration)
            }
            client.sendMessage(text, toChannel: channel) { state, _ in
                if state != .PNMessageSending { recorder.block("publish.\(index)", state) }
            }
            let outcome = try await recorder.next(.block, "publish.\(index)")
            #expect(outcome.value as? PNMessageState == .PNMessageSent)
        }
        #expect(recorder.all(.delegate, "willConnect").count == 1)

        // On the wire: two ciphertexts, then the plain JSON string.
        let publishes = origin.requestLog.map(\.target).filter { $0.hasPrefix("/publish/") }
        #expect(publishes.count == 3)
        let segments = publishes.map { String($0.split(separator: "?")[0].split(separator: "/").last ?? "") }
        #expect(segments.last == "%22three%22")
        #expect(!segments[0].contains("one") && !segments[1].contains("two"))

        // As stored: each ciphertext opens with its own key only.
        let plainLog = EventRecorder()
        let keyless = try await Client.connected(to: origin, recorder: plainLog)
        defer { keyless.disconnect() }
        keyless.requestHistoryForChannel(channel, from: nil, to: nil, limit: 10) { messages, _, _, _, _ in
            plainLog.block("history", messages ?? [])
        }
        let stored = try #require(try await plainLog.next(.block, "history").value as? [PNMessage])
        #expect(stored.count == 3)
        let texts = stored.map { $0.message as? String ?? "" }
        #expect(texts.last == "three")
        let first = MessageCryptor(cipherKey: "first key", mode: .standard)
        let second = MessageCryptor(cipherKey: "second key", mode: .standard)
        #expect(try first.decrypt(wireValue: texts[0]).get() as? String == "one")
        #expect(try second.decrypt(wireValue: texts[1]).get() as? String == "two")
        #expect((try? first.decrypt(wireValue: texts[1]).get()) == nil)
        #expect((try? second.decrypt(wireValue: texts[0]).get()) == nil)
    }
}
