import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// Hands out completion blocks that each count their own calls (and forward to a `FourChannelRecorder`), so a test
/// fails when one block fires twice, or never: `verify()` expects every block handed out to have completed exactly
/// once. A publish block may report Sending once before its one terminal state (docs/BEHAVIOR.md §4.5).
final class BlockLedger: @unchecked Sendable {
    // @unchecked: the mutable state is `calls`, a `Locked` box; `recorder` is a let.

    private struct Calls {
        var terminal = 0
        var sending = 0
    }

    private let recorder: FourChannelRecorder
    private let calls = Locked<[(id: String, calls: Calls)]>([])

    init(_ recorder: FourChannelRecorder) {
        self.recorder = recorder
    }

    private func register(_ id: String) {
        self.calls.withLock { $0.append((id, Calls())) }
    }

    private func called(_ id: String, sending: Bool = false) {
        self.calls.withLock { calls in
            guard let index = calls.firstIndex(where: { $0.id == id }) else { return }
            if sending {
                calls[index].calls.sending += 1
            } else {
                calls[index].calls.terminal += 1
            }
        }
    }

    /// How often block `id` reached a terminal state so far.
    func count(_ id: String) -> Int {
        self.calls.current.first { $0.id == id }?.calls.terminal ?? 0
    }

    /// Waits (up to `seconds`) until block `id` completed.
    func waitFor(_ id: String, within seconds: Double = 20) async throws {
        try await eventually("block \(id); seen: \(self.recorder.entries.map(\.description))", within: seconds) {
            self.count(id) > 0
        }
    }

    /// Every block handed out completed exactly once; publish blocks said Sending at most once.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        for (id, calls) in self.calls.current {
            #expect(
                calls.terminal == 1,
                "block \(id) completed \(calls.terminal) times",
                sourceLocation: sourceLocation
            )
            #expect(
                calls.sending <= 1,
                "block \(id) said Sending \(calls.sending) times",
                sourceLocation: sourceLocation
            )
        }
    }

    // MARK: - Blocks

    /// A connect's success and error blocks: together they complete once.
    func connect(_ id: String) -> (PNClientConnectionSuccessBlock, PNClientConnectionFailureBlock) {
        self.register(id)
        let success = self.recorder.connectSuccess
        let failure = self.recorder.connectFailure
        return (
            { origin in
                self.called(id)
                success(origin)
            },
            { error in
                self.called(id)
                failure(error)
            }
        )
    }

    func subscribe(_ id: String) -> PNClientChannelSubscriptionHandlerBlock {
        self.register(id)
        let inner = self.recorder.subscribeBlock
        return { state, channels, error in
            self.called(id)
            inner(state, channels, error)
        }
    }

    /// For unsubscribe, presence and push enable/disable; `label` is the recorder's block label.
    func channels(_ id: String, label: String) -> ([PNChannel], PNError?) -> Void {
        self.register(id)
        let inner = self.recorder.channelsBlock(label)
        return { channels, error in
            self.called(id)
            inner(channels, error)
        }
    }

    func send(_ id: String) -> PNClientMessageProcessingBlock {
        self.register(id)
        let inner = self.recorder.sendBlock
        return { state, data in
            self.called(id, sending: state == .PNMessageSending)
            inner(state, data)
        }
    }

    func time(_ id: String) -> PNClientTimeTokenReceivingCompleteBlock {
        self.register(id)
        let inner = self.recorder.timeBlock
        return { token, error in
            self.called(id)
            inner(token, error)
        }
    }

    func history(_ id: String) -> PNClientHistoryLoadHandlingBlock {
        self.register(id)
        let inner = self.recorder.historyBlock
        return { messages, channel, start, end, error in
            self.called(id)
            inner(messages, channel, start, end, error)
        }
    }

    func participants(_ id: String) -> PNClientParticipantsHandlingBlock {
        self.register(id)
        let inner = self.recorder.participantsBlock
        return { participants, channel, error in
            self.called(id)
            inner(participants, channel, error)
        }
    }

    func pushRemove(_ id: String) -> PNClientPushNotificationsRemoveHandlingBlock {
        self.register(id)
        let inner = self.recorder.pushRemoveBlock
        return { error in
            self.called(id)
            inner(error)
        }
    }

    func pushList(_ id: String) -> PNClientPushNotificationsEnabledChannelsHandlingBlock {
        self.register(id)
        let inner = self.recorder.pushListBlock
        return { channels, error in
            self.called(id)
            inner(channels, error)
        }
    }
}
