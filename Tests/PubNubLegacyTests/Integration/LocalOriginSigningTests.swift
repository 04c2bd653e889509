import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

/// A client with a secret key signs every request (`timestamp` + v2 `signature`), and a LocalOrigin started with
/// that secret key — the second implementation of the signing rules — accepts them all; with another secret key, or
/// none, the origin refuses the client with 403 and the client reports access denied. (The same origin accepting the
/// official Python SDK's signatures is `Tests/Interop/test_signed_requests.py`.)
@Suite struct LocalOriginSigningTests {
    static let secret = "sec-c-ZjY4MDE0ZTItNGM3YS00"

    static func origin() throws -> LocalOrigin {
        var configuration = LocalOrigin.Configuration()
        configuration.secretKey = Self.secret
        configuration.publishKeys = ["pub-c-test"]
        return try LocalOrigin.start(configuration)
    }

    static func configuration(_ origin: LocalOrigin, secretKey: String?) -> PNConfiguration {
        let configuration = PNConfiguration(
            origin: origin.address,
            publishKey: "pub-c-test",
            subscribeKey: "sub-c-test",
            secretKey: secretKey,
            cipherKey: nil
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = DispatchQueue(label: "signing-delivery")
        return configuration
    }

    @Test func everyRequestOfAClientWithTheSecretKeyIsSignedAndAccepted() async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: Self.configuration(origin, secretKey: Self.secret),
            delegate: recorder,
            eventSinks: [recorder]
        )
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        try await recorder.next(.block, "connect")
        let channel = PNChannel.channelWithName(
            LocalOriginClientTests.unique("signed ü+ch"),
            shouldObservePresence: true
        )
        client.subscribeOnChannel(channel) { state, _, error in recorder.block("subscribe", (state, error)) }
        try await recorder.next(.block, "subscribe")
        // A short message goes in the path (GET), a long one in the body (POST): both signed.
        let long = String(repeating: "long message ", count: 1_000)
        for message in ["short", long] {
            client.sendMessage(message, toChannel: channel) { state, value in
                if state != .PNMessageSending { recorder.block("publish", (state, value)) }
            }
            let (state, value) = try #require(
                try await recorder.next(.block, "publish").value as? (PNMessageState, Any?)
            )
            #expect(state == .PNMessageSent, "\(String(describing: value))")
        }
        try await recorder.waitForCount(2, .delegate, "didReceiveMessage", within: 10)
        client.requestFullHistoryForChannel(channel) { messages, _, _, _, error in
            recorder.block("history", (messages?.count ?? -1, error))
        }
        let history = try #require(try await recorder.next(.block, "history").value as? (Int, PNError?))
        #expect(history.0 == 2 && history.1 == nil)
        client.requestParticipantsListForChannel(channel) { uuids, _, error in
            recorder.block("hereNow", (uuids ?? [], error))
        }
        let hereNow = try #require(try await recorder.next(.block, "hereNow").value as? ([String], PNError?))
        #expect(hereNow.1 == nil && hereNow.0.count == 1)
        client.disconnect()
        try await recorder.next(.delegate, "didDisconnect")

        let log = origin.requestLog
        #expect(log.count >= 6)
        for entry in log {
            #expect(entry.target.contains("timestamp=") && entry.target.contains("&signature=v2."), "\(entry.target)")
            // 0: a long-poll whose connection closed before its answer (the disconnect).
            #expect(entry.status == 200 || entry.status == 0, "\(entry.status) \(entry.target)")
        }
        #expect(log.contains { $0.method == "POST" && $0.target.hasPrefix("/publish/") && $0.status == 200 })
    }

    @Test(arguments: ["sec-c-another-secret", nil] as [String?])
    func aClientWithAnotherSecretKeyOrNoneIsRefused(secretKey: String?) async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = PubNub(
            configuration: Self.configuration(origin, secretKey: secretKey),
            delegate: recorder,
            eventSinks: [recorder]
        )
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connectError", $0) }
        )
        // The connect's Time request is refused, so the connect fails (the engine reports an origin that answers 403
        // to it like one that cannot be reached: 102).
        try await recorder.next(.block, "connectError", within: 60)
        #expect(recorder.all(.block, "connect").isEmpty)
        let seen = origin.requestLog
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { $0.status == 403 }, "\(seen)")
        client.disconnect()
    }
}
