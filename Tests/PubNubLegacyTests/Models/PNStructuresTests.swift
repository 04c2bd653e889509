import Foundation
import Testing

@testable import PubNubLegacy

/// Raw values of docs/API-3.4.md §2.6.1, and the block types' shapes of docs/API-3.4.md §2.6.2.
@Suite struct PNStructuresTests {
    @Test func enumsHaveTheThreeFourRawValues() {
        #expect(PNMessageState.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(PNMessageState.PNMessageSent.rawValue == 1)
        #expect(PNSocketStreamState.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(PNSocketStreamState.PNSocketStreamError.rawValue == 4)
        #expect(PNPresenceEventType.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(PNPresenceEventType.PNPresenceEventTimeout.rawValue == 2)
        #expect(PNOperationResultEvent.PNOperationResultUnknown.rawValue == 0)
        #expect(
            PNOperationResultEvent.PNOperationResultLeave.rawValue == PNPresenceEventType.PNPresenceEventLeave.rawValue
        )
        #expect(PNSubscriptionProcessState.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(PNSubscriptionProcessState.PNSubscriptionProcessRestoredState.rawValue == 3)
    }

    @Test func unqualifiedCaseNamesAreTheCases() {
        #expect(PNMessageSending == .PNMessageSending)
        #expect(PNMessageSent == .PNMessageSent)
        #expect(PNMessageSendingError == .PNMessageSendingError)
        #expect(PNSocketStreamNotConfigured == .PNSocketStreamNotConfigured)
        #expect(PNSocketStreamReady == .PNSocketStreamReady)
        #expect(PNSocketStreamConnecting == .PNSocketStreamConnecting)
        #expect(PNSocketStreamConnected == .PNSocketStreamConnected)
        #expect(PNSocketStreamError == .PNSocketStreamError)
        #expect(PNPresenceEventJoin == .PNPresenceEventJoin)
        #expect(PNPresenceEventLeave == .PNPresenceEventLeave)
        #expect(PNPresenceEventTimeout == .PNPresenceEventTimeout)
        #expect(PNOperationResultUnknown == .PNOperationResultUnknown)
        #expect(PNOperationResultLeave == .PNOperationResultLeave)
        #expect(PNSubscriptionProcessNotSubscribedState == .PNSubscriptionProcessNotSubscribedState)
        #expect(PNSubscriptionProcessSubscribedState == .PNSubscriptionProcessSubscribedState)
        #expect(PNSubscriptionProcessWillRestoreState == .PNSubscriptionProcessWillRestoreState)
        #expect(PNSubscriptionProcessRestoredState == .PNSubscriptionProcessRestoredState)
    }

    /// Ported 3.x blocks capture and mutate their own state; plain (non-`@Sendable`) closures allow it.
    @Test func blocksArePlainClosuresThatMayMutateCapturedState() {
        var calls: [String] = []
        let connected: PNClientConnectionSuccessBlock = { calls.append("connected \($0)") }
        let failed: PNClientConnectionFailureBlock = { calls.append("failed \($0?.code ?? 0)") }
        let state: PNClientConnectionStateChangeBlock = { origin, connected, _ in calls.append("\(origin) \(connected)")
        }
        let subscribed: PNClientChannelSubscriptionHandlerBlock = { state, channels, _ in
            calls.append("sub \(state.rawValue) \(channels.count)")
        }
        let unsubscribed: PNClientChannelUnsubscriptionHandlerBlock = { channels, _ in
            calls.append("unsub \(channels.count)")
        }
        let time: PNClientTimeTokenReceivingCompleteBlock = { token, _ in
            calls.append("time \(token?.uint64Value ?? 0)")
        }
        let processing: PNClientMessageProcessingBlock = { state, _ in calls.append("msg \(state.rawValue)") }
        let received: PNClientMessageHandlingBlock = { _ in calls.append("received") }
        let history: PNClientHistoryLoadHandlingBlock = { messages, _, _, _, _ in
            calls.append("history \(messages?.count ?? -1)")
        }
        let participants: PNClientParticipantsHandlingBlock = { uuids, _, _ in calls.append("here \(uuids ?? [])") }
        let presence: PNClientPresenceEventHandlingBlock = { calls.append("presence \($0.occupancy)") }
        let presenceOn: PNClientPresenceEnableHandlingBlock = { channels, _ in calls.append("pon \(channels.count)") }
        let presenceOff: PNClientPresenceDisableHandlingBlock = { channels, _ in calls.append("poff \(channels.count)")
        }
        let pushRemoved: PNClientPushNotificationsRemoveHandlingBlock = { _ in calls.append("premove") }
        let pushOn: PNClientPushNotificationsEnableHandlingBlock = { channels, _ in
            calls.append("push on \(channels.count)")
        }
        let pushOff: PNClientPushNotificationsDisableHandlingBlock = { channels, _ in
            calls.append("push off \(channels.count)")
        }
        let pushList: PNClientPushNotificationsEnabledChannelsHandlingBlock = { channels, _ in
            calls.append("push list \(channels?.count ?? -1)")
        }

        let channel = PNChannel(name: "c")
        connected("o")
        failed(PNError(code: 102))
        state("o", true, nil)
        subscribed(.PNSubscriptionProcessSubscribedState, [channel], nil)
        unsubscribed([channel], nil)
        time(NSNumber(value: UInt64(17_000_000_000_000_000)), nil)
        processing(.PNMessageSendingError, PNError(code: 122))
        received(PNMessage(message: "m", channel: channel, receiveDate: nil, timeToken: nil))
        history(nil, channel, nil, nil, PNError(code: 105))
        participants(["u"], channel, nil)
        presence(PNPresenceEvent(response: ["occupancy": 4]))
        presenceOn([channel], nil)
        presenceOff([], nil)
        pushRemoved(nil)
        pushOn([channel], nil)
        pushOff([channel], nil)
        pushList(nil, PNError(code: 124))
        #expect(
            calls == [
                "connected o", "failed 102", "o true", "sub 1 1", "unsub 1", "time 17000000000000000", "msg 2",
                "received", "history -1", "here [\"u\"]", "presence 4", "pon 1", "poff 0", "premove", "push on 1",
                "push off 1", "push list -1",
            ]
        )
    }
}
