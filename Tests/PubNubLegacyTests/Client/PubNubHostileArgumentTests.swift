import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// Issue 14: every public call given hostile arguments — huge strings, control characters, strings bridged from
/// `NSString` with lone UTF-16 surrogates, NaN and infinite numbers, cyclic and deep containers, oversized keys and
/// identifiers, a 1 MB cipher key. A refused call reports one `PNError` on every channel the call has (the same
/// instance, once each), sends nothing (the `LocalOrigin` it talks to counts no request), and the next call works;
/// an accepted one reaches the origin as it should. `PubNubBadInputTests` holds the first table of this kind (empty,
/// `,` and `/` names on two channels); this one adds the hostile values and checks all four channels. Rows run one at
/// a time: each starts an origin and a client, and 89 of them at once would load the machine for the other suites.
@Suite(.serialized) struct PubNubHostileArgumentTests {
    typealias Channel = FourChannelRecorder.Channel

    /// What a row must produce.
    enum Expectation: Sendable {
        /// The call fails with `code` on exactly `channels`, and nothing reaches the origin.
        case refused(code: Int, on: Set<Channel>)
        /// The call succeeds: the block entry labelled `block` carries no error, and the origin receives a request
        /// whose target contains `sends` and not `never`.
        case succeeds(block: String, sends: String, never: String?)
        /// Nothing to do: the call completes at once without an error on all four channels, and sends nothing.
        case completesLocally
    }

    struct Row: Sendable, CustomStringConvertible {
        let description: String
        let expectation: Expectation
        let call: Call
    }

    /// A row's call: the connected client, its recorder, and a copy of the configuration it was given (changing
    /// the copy changes nothing until it is handed back with `setConfiguration`).
    typealias Call = @Sendable (PubNub, FourChannelRecorder, PNConfiguration) -> Void

    static let allFour: Set<Channel> = [.delegate, .observer, .notification, .block]
    /// The generic error event: `pubnubClient(_:error:)` and `kPNClientErrorNotification`.
    static let errorEvent: Set<Channel> = [.delegate, .notification]
    static let token = Data([0xAB, 0xCD])
    static let tenMegabytes = 10_000_000

    // MARK: - Channel names

    /// Names every channel operation must refuse with 111 (`PNChannel.validationError()`).
    static let hostileNames: [(String, String)] = [
        ("tab", "tab\there"), ("NUL", "nul\u{0}x"), ("DEL", "del\u{7F}"), ("CR LF", "a\r\nHost: x"),
        ("2,049 chars", String(repeating: "c", count: PNChannel.maximumNameLength + 1)),
    ]

    /// Every public call that takes channels, with the block the recorder labels.
    static let channelOperations: [(String, @Sendable (PubNub, FourChannelRecorder, PNChannel) -> Void)] = [
        (
            "subscribe",
            { client, four, channel in
                client.subscribeOnChannels([channel], withCompletionHandlingBlock: four.subscribeBlock)
            }
        ),
        (
            "unsubscribe",
            { client, four, channel in
                client.unsubscribeFromChannels(
                    [channel],
                    withCompletionHandlingBlock: four.channelsBlock("unsubscribe")
                )
            }
        ),
        (
            "presence on",
            { client, four, channel in
                client.enablePresenceObservationForChannels(
                    [channel],
                    withCompletionHandlingBlock: four.channelsBlock("presenceOn")
                )
            }
        ),
        (
            "presence off",
            { client, four, channel in
                client.disablePresenceObservationForChannels(
                    [channel],
                    withCompletionHandlingBlock: four.channelsBlock("presenceOff")
                )
            }
        ),
        (
            "history",
            { client, four, channel in
                client.requestFullHistoryForChannel(channel, withCompletionBlock: four.historyBlock)
            }
        ),
        (
            "here-now",
            { client, four, channel in
                client.requestParticipantsListForChannel(channel, withCompletionBlock: four.participantsBlock)
            }
        ),
        (
            "publish",
            { client, four, channel in client.sendMessage("x", toChannel: channel, withCompletionBlock: four.sendBlock)
            }
        ),
        (
            "push on",
            { client, four, channel in
                client.enablePushNotificationsOnChannels(
                    [channel],
                    withDevicePushToken: token,
                    andCompletionHandlingBlock: four.channelsBlock("pushOn")
                )
            }
        ),
        (
            "push off",
            { client, four, channel in
                client.disablePushNotificationsOnChannels(
                    [channel],
                    withDevicePushToken: token,
                    andCompletionHandlingBlock: four.channelsBlock("pushOff")
                )
            }
        ),
    ]

    static var channelRows: [Row] {
        var rows: [Row] = []
        for (operation, call) in channelOperations {
            for (label, name) in hostileNames {
                rows.append(
                    Row(description: "\(operation): \(label) name", expectation: .refused(code: 111, on: allFour)) {
                        client,
                        four,
                        _ in call(client, four, PNChannel.channelWithName(name))
                    }
                )
            }
            // The two operations `PubNubBadInputTests` leaves out, with its names.
            if operation.hasPrefix("push") {
                for name in ["", "a,b", "a/b"] {
                    rows.append(
                        Row(description: "\(operation): '\(name)'", expectation: .refused(code: 111, on: allFour)) {
                            client,
                            four,
                            _ in call(client, four, PNChannel.channelWithName(name))
                        }
                    )
                }
            }
        }
        for operation in ["subscribe", "publish", "history"] {
            let call = channelOperations.first { $0.0 == operation }!.1
            rows.append(
                Row(description: "\(operation): 10 MB name", expectation: .refused(code: 111, on: allFour)) {
                    client,
                    four,
                    _ in call(client, four, PNChannel.channelWithName(String(repeating: "h", count: tenMegabytes)))
                }
            )
        }
        return rows
    }

    // MARK: - Messages

    static func publish(_ message: Any) -> Call {
        let box = UncheckedBox(message)
        return { client, four, _ in
            client.sendMessage(
                box.value,
                toChannel: PNChannel.channelWithName("fine"),
                withCompletionBlock: four.sendBlock
            )
        }
    }

    /// A string bridged from `NSString` UTF-16 `units`, as Objective-C code hands it over.
    static func utf16(_ units: [unichar]) -> NSString {
        NSString(characters: units, length: units.count)
    }

    /// What a lone UTF-16 surrogate in an `NSString` message gives. On Apple platforms the `NSString` keeps it and
    /// the publish is refused with 121 (`PNMessage.payloadError(_:)`). On Linux, corelibs Foundation stores every
    /// `NSString` as a Swift `String`, which replaces the surrogate with U+FFFD the moment the `NSString` is made: the
    /// client never sees it, and sends U+FFFD, valid UTF-8 that every peer reads.
    static var loneSurrogate: Expectation {
        #if canImport(Darwin)
        .refused(code: kPNMessageObjectError, on: allFour)
        #else
        .succeeds(block: "send:\(PNMessageState.PNMessageSent.rawValue)", sends: "%EF%BF%BD", never: nil)
        #endif
    }

    static var messageRows: [Row] {
        let cyclicArray = { () -> NSMutableArray in
            let array = NSMutableArray()
            array.add("a")
            array.add(array)
            return array
        }
        let cyclicDictionary = { () -> NSMutableDictionary in
            let dictionary = NSMutableDictionary()
            dictionary.setObject(dictionary, forKey: "self" as NSString)
            return dictionary
        }
        var deep: Any = "bottom"
        for _ in 0...PNMessage.maximumPayloadNesting { deep = [deep] }
        let cases: [(String, Int, Any)] = [
            ("10 MB string", 110, String(repeating: "m", count: tenMegabytes)),
            ("NaN", 121, Double.nan),
            ("NSNumber infinity", 121, NSNumber(value: Double.infinity)),
            ("-infinity in an array", 121, [1, -Double.infinity] as [Any]),
            ("cyclic NSMutableArray", 121, cyclicArray()),
            ("cyclic NSMutableDictionary", 121, cyclicDictionary()),
            ("cyclic array in an optional", 121, [Optional<Any>.some(cyclicArray())] as [Any?]),
            ("nesting past the limit", 121, deep),
            ("20,000 values", 110, [Int](repeating: 7, count: 20_000)),
            ("nil", 122, Optional<Any>.none as Any),
            ("integer dictionary keys", 121, [1: "a"] as [Int: String]),
        ]
        let refusals = cases.map { label, code, message in
            Row(
                description: "publish: \(label)",
                expectation: .refused(code: code, on: allFour),
                call: publish(message)
            )
        }
        let surrogates: [(String, Any)] = [
            ("lone high surrogate", utf16([0x61, 0xD800, 0x62])),
            ("lone low surrogate in an array", [1, utf16([0xDC00])] as [Any]),
            ("lone surrogate in a dictionary key", NSDictionary(object: 1, forKey: utf16([0xD83D]))),
        ]
        return refusals
            + surrogates.map { label, message in
                Row(description: "publish: \(label)", expectation: loneSurrogate, call: publish(message))
            }
    }

    /// A channel name with a lone surrogate, bridged from `NSString`. On Linux corelibs Foundation turns the
    /// surrogate into U+FFFD when the `NSString` is made (see `loneSurrogate`), so the name is valid and is sent
    /// percent-escaped. Apple platforms keep the surrogate in the `NSString`; what the name becomes there is not
    /// tested here, so the row is Linux-only.
    static var surrogateNameRows: [Row] {
        #if canImport(Darwin)
        []
        #else
        [
            Row(
                description: "subscribe: a name with a lone surrogate, bridged from NSString",
                expectation: .succeeds(
                    block: "subscribe:\(PNSubscriptionProcessState.PNSubscriptionProcessSubscribedState.rawValue)",
                    sends: "/v2/subscribe/sub-c-test/l%EF%BF%BDs/",
                    never: nil
                )
            ) { client, four, _ in
                client.subscribeOnChannels(
                    [PNChannel.channelWithName(utf16([0x6C, 0xDC00, 0x73]) as String)],
                    withCompletionHandlingBlock: four.subscribeBlock
                )
            }
        ]
        #endif
    }

    static let rows = channelRows + messageRows + settingRows + surrogateNameRows

    // MARK: - The test

    @Test(arguments: rows)
    func hostileArgumentsFailClearlyOrGoOutIntact(row: Row) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        let client = PubNub(configuration: configuration, delegate: nil, eventSinks: [])
        let four = FourChannelRecorder(client: client, center: PNObservationCenter(client: client))
        defer { four.stop() }
        client.connectWithSuccessBlock(four.connectSuccess, errorBlock: four.connectFailure)
        try await eventually("four.entries.contains { $0.channel == .block && $0.label == \"connect\" }", within: 20) {
            four.entries.contains { $0.channel == .block && $0.label == "connect" }
        }
        let start = four.entries.count
        let requestsBefore = origin.counters.requests
        let logBefore = origin.requestLog.count
        /// Only time requests reached the origin since the call (the follow-up, and any re-send of it on a pooled
        /// connection the origin had closed), and every request it received was answered and logged.
        func onlyTimeRequestsSent() -> Bool {
            let sent = origin.requestLog.dropFirst(logBefore)
            return sent.allSatisfy { $0.target.hasPrefix("/time/") }
                && origin.counters.requests - requestsBefore == sent.count
        }
        row.call(client, four, configuration.copied())
        switch row.expectation {
        case .refused(let code, let channels):
            try await eventually("error \(code) on \(channels)", within: 20) {
                Set(four.entries.dropFirst(start).filter { $0.key.hasPrefix("error(\(code))") }.map(\.channel))
                    == channels
            }
            // The next call works; by then every channel had time to report the bad one twice, had it done so.
            client.requestServerTimeTokenWithCompletionBlock(four.timeBlock)
            try await eventually("the next time block", within: 20) {
                four.entries.dropFirst(start).contains { $0.channel == .block && $0.label == "time" }
            }
            let window = Array(four.entries.dropFirst(start))
            let failures = window.filter { $0.key.hasPrefix("error(") }
            #expect(failures.map(\.channel).sorted() == channels.sorted(), "\(window)")
            #expect(Set(failures.map(\.key)).count == 1, "one PNError instance: \(failures)")
            let time = window.first { $0.channel == .block && $0.label == "time" }
            #expect(time?.key.hasPrefix("token:") == true, "the next call failed: \(window)")
            #expect(onlyTimeRequestsSent(), "\(origin.requestLog.dropFirst(logBefore).map { $0.target.prefix(80) })")
        case .completesLocally:
            try await eventually("four.entries.dropFirst(start).contains { $0.channel == .block }", within: 20) {
                four.entries.dropFirst(start).contains { $0.channel == .block }
            }
            client.requestServerTimeTokenWithCompletionBlock(four.timeBlock)
            try await eventually("the next time block", within: 20) {
                four.entries.dropFirst(start).contains { $0.channel == .block && $0.label == "time" }
            }
            let window = four.entries.dropFirst(start).filter { !$0.key.hasPrefix("token:") }
            #expect(window.map(\.channel).sorted() == Self.allFour.sorted(), "\(window)")
            #expect(Set(window.map(\.key)) == ["channels:"], "\(window)")
            #expect(onlyTimeRequestsSent(), "\(origin.requestLog.dropFirst(logBefore).map { $0.target.prefix(80) })")
        case .succeeds(let block, let sends, let never):
            try await eventually("the \(block) block", within: 20) {
                four.entries.dropFirst(start).contains { $0.channel == .block && $0.label == block }
            }
            let window = Array(four.entries.dropFirst(start))
            let entry = window.first { $0.channel == .block && $0.label == block }
            #expect(entry?.key.hasPrefix("error(") == false, "\(window)")
            #expect(!window.contains { $0.key.hasPrefix("error(") }, "\(window)")
            let targets = origin.requestLog.map(\.target)
            #expect(targets.contains { $0.contains(sends) }, "\(targets.map { $0.prefix(120) })")
            if let never {
                #expect(!targets.contains { $0.contains(never) }, "\(targets.map { $0.prefix(120) })")
            }
        }
    }

}

/// Carries a message value (which may be a mutable Foundation container) into a `@Sendable` row closure; each row
/// uses its value once, on one test's task.
private final class UncheckedBox: @unchecked Sendable {
    // @unchecked: `value` is a `let`, read by the one test that runs the row.
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}
