import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// Issue 31: a client that stops — released by the app, or torn down by `resetClient` — still completes every call it
/// accepted, exactly once, through the call's block alone, with 105 (docs/DESIGN.md §4): the operation running (its
/// request cancelled), the ones waiting behind it in call order, and calls made afterwards. Before, their blocks
/// never ran, and an `async` caller waiting on one waited forever.
@Suite struct ClientEngineLifetimeTests {
    static let notReady = kPNRequestExecutionFailedClientNotReadyError

    /// Makes `count` calls of six kinds, call `n`'s final block recorded as block entry "call n" with its error.
    static func makeCalls(on client: PubNub, numbered numbers: Range<Int>, recorder: EventRecorder) {
        for number in numbers {
            let name = "call \(number)"
            let channel = PNChannel.channelWithName("lifetime-\(number % 4)")
            switch number % 6 {
            case 0:
                client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block(name, error) }
            case 1:
                client.sendMessage("m\(number)", toChannel: channel) { state, value in
                    if state != .PNMessageSending { recorder.block(name, value as? PNError) }
                }
            case 2:
                client.requestHistoryForChannel(channel, from: nil, to: nil, limit: 1, reverseHistory: false) {
                    _,
                    _,
                    _,
                    _,
                    error in recorder.block(name, error)
                }
            case 3:
                client.requestParticipantsListForChannel(channel) { _, _, error in recorder.block(name, error) }
            case 4:
                client.subscribeOnChannels([channel]) { _, _, error in recorder.block(name, error) }
            default:
                client.enablePresenceObservationForChannels([channel]) { _, error in recorder.block(name, error) }
            }
        }
    }

    /// Waits for the blocks named `names`, then checks each ran exactly once, in that order, with 105.
    static func expectEachBlockOnceWith105(_ names: [String], in recorder: EventRecorder) async throws {
        try await eventually("\(names.count) blocks", within: 20) {
            Set(recorder.entries.filter { $0.source == .block }.map(\.name)).isSuperset(of: names)
        }
        // Anything run twice would have been run by now, behind a mark that went through the delivery queue last.
        let blocks = recorder.entries.filter { $0.source == .block && names.contains($0.name) }
        #expect(blocks.map(\.name) == names, "each once, in call order")
        let codes = blocks.map { $0.error?.code }
        #expect(codes.allSatisfy { $0 == Self.notReady }, "\(codes)")
    }

    /// A connected client whose history requests the origin never answers: one history call holds the queue.
    static func clientHoldingTheQueue(_ recorder: EventRecorder) async throws -> (PubNub, FakeTransport) {
        let transport = FakeTransport.origin { $0.url.path.hasPrefix("/v2/history/") ? .hold : nil }
        // Calls wait here until the test ends them: their timeouts (from the call) must not, on a loaded machine.
        let client = try await PubNubTests.connected(recorder, transport: transport, timings: .quietProbe) {
            $0.nonSubscriptionRequestTimeout = 600
        }
        client.requestFullHistoryForChannel(PNChannel.channelWithName("held")) { _, _, _, _, error in
            recorder.block("held", error)
        }
        try await transport.waitForRequest(containing: "/v2/history/")
        return (client, transport)
    }

    @Test func aReleasedClientCompletesEveryCallItAcceptedOnceThroughItsBlock() async throws {
        let recorder = EventRecorder()
        let watch: WeakClient
        do {
            let (client, _) = try await Self.clientHoldingTheQueue(recorder)
            Self.makeCalls(on: client, numbered: 0..<50, recorder: recorder)
            watch = WeakClient(client)
        }
        // The facade's hand-over to the client's queue holds the client until the calls are queued.
        try await eventually("the client to be released", within: 20) { watch.isReleased }
        let delegateBefore = recorder.entries.filter { $0.source != .block }.count
        try await Self.expectEachBlockOnceWith105(["held"] + (0..<50).map { "call \($0)" }, in: recorder)
        // No listener hears of a released client (there is no client object to hand them).
        #expect(recorder.entries.filter { $0.source != .block }.count == delegateBefore)
    }

    @Test func aStoppedClientAnswersTheCallsInFlightAndEveryLaterCallThroughTheirBlocks() async throws {
        let recorder = EventRecorder()
        let (client, transport) = try await Self.clientHoldingTheQueue(recorder)
        Self.makeCalls(on: client, numbered: 0..<12, recorder: recorder)
        let listenersBefore = recorder.entries.filter { $0.source != .block }.count
        // What `resetClient()` does to the shared client it replaces.
        client.engine.shutdown()
        Self.makeCalls(on: client, numbered: 12..<24, recorder: recorder)
        try await Self.expectEachBlockOnceWith105(["held"] + (0..<24).map { "call \($0)" }, in: recorder)
        // As 3.4's `resetClient`: no delegate, observer or notification; and nothing more was sent.
        #expect(recorder.entries.filter { $0.source != .block }.count == listenersBefore)
        #expect(transport.targets.filter { $0.hasPrefix("/v2/history/") }.count == 1)
        #expect(!client.isConnected())
    }

    @Test func aCallFindingTheQueueFullFailsAtOnceWith202OnEveryChannel() async throws {
        let recorder = EventRecorder()
        let (client, transport) = try await Self.clientHoldingTheQueue(recorder)
        // Every waiting call has a block: none may be dropped or refused but the one past the bound.
        let waiting = PubNub.maximumWaitingCalls
        for number in 0..<waiting {
            client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("waiting \(number)", error) }
        }
        let delegateBefore = recorder.all(.delegate, "timeTokenReceiveDidFail").count
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("one too many", error) }
        let refused = try await recorder.next(.block, "one too many", within: 20)
        #expect(refused.error?.code == kPNRequestQueueFullError)
        #expect(refused.error?.localizedDescription == "PubNub client has too many requests waiting")
        // Announced like any failure of the call: the delegate and the sink heard it before the block.
        let failures = recorder.all(.delegate, "timeTokenReceiveDidFail").dropFirst(delegateBefore)
        #expect(failures.map { $0.error?.code } == [kPNRequestQueueFullError])
        #expect(recorder.entries.filter { $0.source == .block && $0.name.hasPrefix("waiting ") }.isEmpty)
        #expect(transport.targets.filter { $0.hasPrefix("/time/") }.count == 1, "only the connect's")
        // The waiting calls are still there: stopping the client completes each once.
        client.engine.shutdown()
        try await Self.expectEachBlockOnceWith105((0..<waiting).map { "waiting \($0)" }, in: recorder)
    }

    @Test func aConnectInProgressWhenTheClientStopsGets105() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin { $0.url.path.hasPrefix("/time/") ? .hold : nil }
        let client = PubNub.testing(
            configuration: .testing(origin: "fake.origin:1"),
            recorder: recorder,
            transport: transport,
            // The attempt must still be running when the client stops, however slow the machine.
            timings: EngineTimings.quietProbe.connectAttempts(timingOutAfter: 3_600)
        )
        client.connectWithSuccessBlock(
            { recorder.block("connect", $0) },
            errorBlock: { recorder.block("connect", $0) }
        )
        try await transport.waitForRequest(containing: "/time/0")
        client.disconnect()  // waits behind the connect, and has no block: it adds nothing when refused
        client.engine.shutdown()
        try await Self.expectEachBlockOnceWith105(["connect"], in: recorder)
    }
}

/// A weak reference the test polls to see its client go away.
private final class WeakClient: Sendable {
    private let reference: Locked<Reference>

    private struct Reference {
        weak var client: PubNub?
    }

    init(_ client: PubNub) {
        self.reference = Locked(Reference(client: client))
    }

    var isReleased: Bool { self.reference.withLock { $0.client == nil } }
}
