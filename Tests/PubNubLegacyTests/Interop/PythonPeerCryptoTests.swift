import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

/// Encrypted messages between this client and the official PubNub Python SDK (`Tests/Interop/peer.py`, pinned in
/// Tests/Interop/requirements.txt) through an in-process LocalOrigin, in both directions and in every scheme the
/// two have in common (issue 5, docs/CRYPTO.md §1, §3, §4). The peer runs from the package's `.venv-interop`; without
/// it these tests fail and say to run Scripts/test.sh.
@Suite(.serialized) struct PythonPeerCryptoTests {
    static let cipherKey = "enigma"

    /// What this client sends for a payload's JSON text: the decoded value, except the empty string, which the
    /// 3.4 API refuses as "no content" and which therefore goes as its JSON text (sent as it is).
    static func outgoing(_ json: String) -> Any {
        let value = CryptoPayloads.value(json)
        if let string = value as? String, string.isEmpty {
            return json
        }
        return value
    }

    /// Expects `received` to be the values of `sent`, one by one.
    static func expectValues(_ received: [Any?], equal sent: [String], _ what: String) {
        #expect(received.count == sent.count, "\(what): \(received.count) values for \(sent.count) sent")
        for (index, json) in sent.enumerated() where index < received.count {
            let expected = CryptoPayloads.canonical(CryptoPayloads.value(json))
            let got = CryptoPayloads.canonical(received[index])
            #expect(got == expected, "\(what) #\(index): \(got.prefix(200)) instead of \(expected.prefix(200))")
        }
    }

    /// The history of `channel` through `client`, as delivered to the completion block.
    static func history(
        of channel: PNChannel,
        through client: PubNub,
        _ recorder: EventRecorder
    ) async throws
        -> [PNMessage]
    {
        client.requestHistoryForChannel(channel, from: nil, to: nil, limit: 100) { messages, _, _, _, error in
            recorder.block("history", (messages ?? [], error))
        }
        let entry = try await recorder.next(.block, "history", within: 10)
        let (messages, error) = try #require(entry.value as? ([PNMessage], PNError?))
        #expect(error == nil)
        return messages
    }

    @Test(arguments: [PythonPeer.Mode.fixed, .random, .module], [false, true])
    func pythonPublishesAndThisClientReadsThePlaintexts(
        mode: PythonPeer.Mode,
        readerUsesRandomIV: Bool
    )
        async throws
    {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder) {
            $0.cipherKey = Self.cipherKey
            // A random-IV payload has no marker, so the reader tries the other legacy IV layout when its own fails;
            // PNED payloads are recognised by their header. Either setting must read every scheme.
            $0.useRandomInitializationVector = readerUsesRandomIV
        }
        defer { client.disconnect() }
        let name = LocalOriginClientTests.unique("from-python-\(mode)")
        let channel = PNChannel.channelWithName(name)
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")

        let payloads = CryptoPayloads.all(channel: name, mode: mode)
        let peer = try PythonPeer(
            "publish",
            origin: origin.address,
            channel: name,
            key: Self.cipherKey,
            mode: mode,
            input: CryptoPayloads.jsonArray(payloads)
        )
        defer { peer.stop() }
        try await peer.next("DONE")
        #expect(try await peer.exitStatus() == 0)

        try await recorder.waitForCount(payloads.count, .delegate, "didReceiveMessage", within: 10)
        let received = recorder.all(.delegate, "didReceiveMessage").map { $0.message?.message }
        Self.expectValues(received, equal: payloads, "subscribe (\(mode))")
        let stored = try await Self.history(of: channel, through: client, recorder)
        Self.expectValues(stored.map(\.message), equal: payloads, "history (\(mode))")
        #expect(recorder.all(.delegate, "error").isEmpty)

        // The origin stored ciphertexts, in the scheme asked for: a reader without the key sees base64 strings.
        let plain = EventRecorder()
        let keyless = try await LocalOriginClientTests.connected(to: origin, recorder: plain)
        defer { keyless.disconnect() }
        let raw = try await Self.history(of: channel, through: keyless, plain).map { $0.message as? String }
        #expect(raw.count == payloads.count)
        for text in raw {
            let bytes = try #require(
                text.flatMap { Data(base64Encoded: $0) },
                "not base64: \(String(describing: text))"
            )
            #expect(bytes.starts(with: Array("PNED".utf8)) == (mode == .module))
            #expect((bytes.count - CryptoPayloads.overhead(mode)) % 16 == 0)
        }
    }

    @Test(arguments: [(CipherMode.standard, PythonPeer.Mode.fixed), (.randomIV, .random)])
    func thisClientPublishesAndPythonReadsThePlaintexts(mode: CipherMode, peerMode: PythonPeer.Mode) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder) {
            $0.cipherKey = Self.cipherKey
            $0.useRandomInitializationVector = mode == .randomIV
        }
        defer { client.disconnect() }
        let name = LocalOriginClientTests.unique("to-python-\(peerMode)")
        let channel = PNChannel.channelWithName(name)
        let payloads = CryptoPayloads.all(channel: name, mode: peerMode)

        let peer = try PythonPeer(
            "read",
            origin: origin.address,
            channel: name,
            key: Self.cipherKey,
            mode: peerMode,
            extra: ["--count", String(payloads.count), "--timeout", "40"]
        )
        defer { peer.stop() }
        try await peer.next("READY")
        for (index, json) in payloads.enumerated() {
            client.sendMessage(Self.outgoing(json), toChannel: channel) { state, value in
                if state != .PNMessageSending { recorder.block("publish.\(index)", (state, value)) }
            }
            let outcome = try await recorder.next(.block, "publish.\(index)")
            let (state, value) = try #require(outcome.value as? (PNMessageState, Any?))
            #expect(state == .PNMessageSent, "publish #\(index): \(String(describing: value))")
        }
        // One character more than the computed largest payload no longer fits.
        let tooBig = "\"" + CryptoPayloads.bigString(payloads.last!.utf8.count - 1) + "\""
        client.sendMessage(tooBig, toChannel: channel) { state, value in
            if state != .PNMessageSending { recorder.block("publish.tooBig", (state, value)) }
        }
        let refused = try await recorder.next(.block, "publish.tooBig")
        let (refusedState, refusal) = try #require(refused.value as? (PNMessageState, Any?))
        #expect(refusedState == .PNMessageSendingError)
        #expect((refusal as? PNError)?.code == kPNTooLongMessageError)

        var received: [Any?] = []
        for _ in payloads {
            let line = try await peer.next("MESSAGE")
            let event = try #require(CryptoPayloads.value(line) as? [String: Any])
            #expect(event["error"] as? Bool == false, "the SDK reported a decryption error")
            received.append(event["message"])
        }
        Self.expectValues(received, equal: payloads, "Python subscribe (\(peerMode))")
        let history = try #require(CryptoPayloads.value(try await peer.next("HISTORY")) as? [Any])
        Self.expectValues(history, equal: payloads, "Python history (\(peerMode))")
        try await peer.next("DONE")
        #expect(try await peer.exitStatus() == 0)
    }
}
