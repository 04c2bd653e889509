import Testing

@testable import PubNubLegacy

@Suite struct SubscribeLoopStateMachineTests {
    typealias Machine = SubscribeLoop.StateMachine
    typealias Request = Machine.Request

    /// The request of the last `.send` in `actions`.
    static func sent(_ actions: [Machine.Action]) -> Request? {
        for action in actions.reversed() {
            if case .send(let request) = action { return request }
        }
        return nil
    }

    /// A machine subscribed to `channels` and polling from cursor `token`.
    static func subscribed(_ channels: [String], token: UInt64) throws -> Machine {
        var machine = Machine()
        let handshake = try #require(
            Self.sent(machine.subscribe(op: 1, adding: channels, withPresenceEvent: true, keepTimeToken: true))
        )
        _ = machine.responseReceived(
            request: handshake.id,
            cursor: Cursor(timetoken: token, region: 1),
            messageCount: 0,
            messageCountThreshold: 0
        )
        return machine
    }

    @Test func firstSubscribeHandshakesThenPollsWithTheHandshakeToken() throws {
        var machine = Machine()
        let actions = machine.subscribe(op: 7, adding: ["a", "a-pnpres"], withPresenceEvent: true, keepTimeToken: true)
        let handshake = try #require(Self.sent(actions))
        #expect(actions == [.send(handshake)])
        #expect(handshake.channels == ["a", "a-pnpres"])
        #expect(handshake.cursor == nil)
        #expect(handshake.wait == .handshake)
        #expect(machine.channels == [])
        let next = machine.responseReceived(
            request: handshake.id,
            cursor: Cursor(timetoken: 100, region: 3),
            messageCount: 0,
            messageCountThreshold: 0
        )
        let poll = try #require(Self.sent(next))
        #expect(next == [.send(poll), .changeCompleted(op: 7)])
        #expect(poll.cursor == Cursor(timetoken: 100, region: 3))
        #expect(poll.wait == .idle)
        #expect(machine.channels == ["a", "a-pnpres"])
    }

    @Test func addingChannelsKeepsThePreviousTokenWhenAsked() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let actions = machine.subscribe(op: 2, adding: ["b"], withPresenceEvent: true, keepTimeToken: true)
        let handshake = try #require(Self.sent(actions))
        #expect(actions.first == .cancelInFlight)
        #expect(handshake.channels == ["a", "b"])
        #expect(handshake.cursor == nil)
        let next = machine.responseReceived(
            request: handshake.id,
            cursor: Cursor(timetoken: 500, region: 1),
            messageCount: 0,
            messageCountThreshold: 0
        )
        #expect(Self.sent(next)?.cursor == Cursor(timetoken: 100, region: 1))
    }

    @Test func addingChannelsWithoutKeepUsesTheHandshakeToken() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let handshake = try #require(
            Self.sent(machine.subscribe(op: 2, adding: ["b"], withPresenceEvent: true, keepTimeToken: false))
        )
        let next = machine.responseReceived(
            request: handshake.id,
            cursor: Cursor(timetoken: 500, region: 2),
            messageCount: 0,
            messageCountThreshold: 0
        )
        #expect(Self.sent(next)?.cursor == Cursor(timetoken: 500, region: 2))
    }

    @Test func addingWithoutPresenceEventSkipsTheHandshake() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let actions = machine.subscribe(op: 3, adding: ["b"], withPresenceEvent: false, keepTimeToken: true)
        let poll = try #require(Self.sent(actions))
        #expect(actions == [.cancelInFlight, .send(poll), .changeCompleted(op: 3)])
        #expect(poll.channels == ["a", "b"])
        #expect(poll.cursor == Cursor(timetoken: 100, region: 1))
    }

    @Test func subscribingToSubscribedChannelsCompletesWithoutTraffic() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let before = machine.requestInFlight
        let result1 = machine.subscribe(op: 4, adding: ["a"], withPresenceEvent: true, keepTimeToken: true)
        #expect(result1 == [.changeCompleted(op: 4)])
        #expect(machine.requestInFlight == before)
    }

    @Test func handshakeTimeoutFailsTheChangeAndResumesTheOldList() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let handshake = try #require(
            Self.sent(machine.subscribe(op: 5, adding: ["b"], withPresenceEvent: true, keepTimeToken: true))
        )
        let actions = machine.requestFailed(request: handshake.id, .timeout)
        let resumed = try #require(Self.sent(actions))
        #expect(actions == [.changeFailed(op: 5, .timeout), .send(resumed)])
        #expect(resumed.channels == ["a"])
        #expect(resumed.cursor == Cursor(timetoken: 100, region: 1))
        #expect(machine.channels == ["a"])
    }

    @Test func firstHandshakeTimeoutLeavesNothingSubscribed() throws {
        var machine = Machine()
        let handshake = try #require(
            Self.sent(machine.subscribe(op: 1, adding: ["a"], withPresenceEvent: true, keepTimeToken: true))
        )
        let result2 = machine.requestFailed(request: handshake.id, .timeout)
        #expect(result2 == [.changeFailed(op: 1, .timeout)])
        #expect(machine.channels == [])
        #expect(machine.requestInFlight == nil)
    }

    @Test func accessDeniedOnHandshakeStopsWithoutRetry() throws {
        var machine = Machine()
        let handshake = try #require(
            Self.sent(machine.subscribe(op: 1, adding: ["a"], withPresenceEvent: true, keepTimeToken: true))
        )
        let denied = SubscribeFailure.response(.accessDenied(status: 403, message: "Forbidden", channels: ["a"]))
        let result3 = machine.requestFailed(request: handshake.id, denied)
        #expect(result3 == [.changeFailed(op: 1, denied)])
        #expect(machine.requestInFlight == nil)
    }

    @Test func accessDeniedOnTheLongPollKeepsTheListAndCursor() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        let denied = SubscribeFailure.response(.accessDenied(status: 403, message: nil, channels: ["a"]))
        let result4 = machine.requestFailed(request: poll, denied)
        #expect(
            result4 == [
                .loopFailed(channels: ["a"], denied), .scheduleIdleRestart,
            ]
        )
        #expect(machine.channels == ["a"])
        #expect(machine.cursor?.timetoken == 100)
        let added = try #require(
            Self.sent(machine.subscribe(op: 9, adding: ["b"], withPresenceEvent: true, keepTimeToken: true))
        )
        let next = machine.responseReceived(
            request: added.id,
            cursor: Cursor(timetoken: 900, region: 1),
            messageCount: 0,
            messageCountThreshold: 0
        )
        #expect(Self.sent(next)?.cursor?.timetoken == 100)
        #expect(Self.sent(next)?.channels == ["a", "b"])
    }

    @Test func messagesAreDeliveredBeforeTheNextPollAndCountedAgainstTheThreshold() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        let below = machine.responseReceived(
            request: poll,
            cursor: Cursor(timetoken: 200, region: 1),
            messageCount: 99,
            messageCountThreshold: 100
        )
        #expect(below.first == .deliverEvents)
        let next = try #require(machine.requestInFlight)
        let at = machine.responseReceived(
            request: next,
            cursor: Cursor(timetoken: 300, region: 1),
            messageCount: 100,
            messageCountThreshold: 100
        )
        #expect(Array(at.prefix(2)) == [.messageCountExceeded(count: 100), .deliverEvents])
        #expect(Self.sent(at)?.cursor?.timetoken == 300)
    }

    @Test func staleAnswersAreIgnored() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        _ = machine.subscribe(op: 2, adding: ["b"], withPresenceEvent: true, keepTimeToken: true)
        let result5 = machine.responseReceived(
            request: poll,
            cursor: Cursor(timetoken: 999, region: 1),
            messageCount: 1,
            messageCountThreshold: 0
        )
        #expect(result5 == [])
        let result6 = machine.requestFailed(request: poll, .timeout)
        #expect(result6 == [])
    }

    @Test func malformedAnswersAreRetriedTwiceThenTheLoopFails() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        for _ in 1...2 {
            let poll = try #require(machine.requestInFlight)
            let retry = try #require(Self.sent(machine.requestFailed(request: poll, .response(.malformedJSON))))
            #expect(retry.cursor?.timetoken == 100)
        }
        let poll = try #require(machine.requestInFlight)
        let result7 = machine.requestFailed(request: poll, .response(.malformedJSON))
        #expect(
            result7 == [
                .loopFailed(channels: ["a"], .response(.malformedJSON)), .startRecovery,
            ]
        )
    }

    @Test func unexpectedStatusStartsRecoveryAndTheRestoreContinuesFromTheCursor() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        let failure = SubscribeFailure.response(.unexpectedStatus(502))
        let result8 = machine.requestFailed(request: poll, failure)
        #expect(result8 == [.loopFailed(channels: ["a"], failure), .startRecovery])
        let restore = try #require(Self.sent(machine.restore(catchUp: true)))
        #expect(restore.cursor?.timetoken == 100)
        #expect(restore.wait == .settle)
        let next = machine.responseReceived(
            request: restore.id,
            cursor: Cursor(timetoken: 150, region: 1),
            messageCount: 2,
            messageCountThreshold: 0
        )
        let poll2 = try #require(Self.sent(next))
        #expect(next == [.deliverEvents, .send(poll2), .restored(channels: ["a"])])
    }

    @Test func aServerErrorPayloadOnTheLongPollStartsRecoveryButAClientErrorPayloadWaits() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        let gateway = SubscribeFailure.response(.serverMessage("Bad Gateway", status: 502))
        #expect(
            machine.requestFailed(request: poll, gateway) == [.loopFailed(channels: ["a"], gateway), .startRecovery]
        )
        #expect(Self.sent(machine.restore(catchUp: true))?.cursor?.timetoken == 100)
        var other = try Self.subscribed(["a"], token: 100)
        let otherPoll = try #require(other.requestInFlight)
        let invalid = SubscribeFailure.response(.serverMessage("Invalid Subscribe Key", status: 400))
        #expect(
            other.requestFailed(request: otherPoll, invalid) == [
                .loopFailed(channels: ["a"], invalid), .scheduleIdleRestart,
            ]
        )
    }

    @Test func aQuietCatchUpRestoreSettlesIntoTheLongPoll() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        _ = machine.connectionLost()
        #expect(machine.phase == .suspended)
        let restore = try #require(Self.sent(machine.restore(catchUp: true)))
        let result9 = machine.restoreSettled(request: restore.id)
        #expect(result9 == [.restored(channels: ["a"])])
        #expect(machine.phase == .polling(request: restore.id))
        let result10 = machine.restoreSettled(request: restore.id)
        #expect(result10 == [])
    }

    @Test func restoreWithoutCatchUpHandshakes() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        _ = machine.connectionLost()
        let restore = try #require(Self.sent(machine.restore(catchUp: false)))
        #expect(restore.cursor == nil)
        #expect(restore.wait == .handshake)
    }

    @Test func connectionLossFailsAPendingChangeAndKeepsTheOldList() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        _ = machine.subscribe(op: 3, adding: ["b"], withPresenceEvent: true, keepTimeToken: true)
        let result11 = machine.connectionLost()
        #expect(result11 == [.cancelInFlight, .changeFailed(op: 3, .connectionLost)])
        #expect(machine.channels == ["a"])
        #expect(machine.phase == .suspended)
    }

    @Test func unsubscribingASubsetContinuesWithTheKeptCursor() throws {
        var machine = try Self.subscribed(["a", "a-pnpres", "b"], token: 100)
        let result = machine.unsubscribe(removing: ["a", "a-pnpres"])
        #expect(result.removed == ["a", "a-pnpres"])
        let poll = try #require(Self.sent(result.actions))
        #expect(result.actions == [.cancelInFlight, .send(poll)])
        #expect(poll.channels == ["b"])
        #expect(poll.cursor?.timetoken == 100)
    }

    @Test func unsubscribingTheLastChannelStopsTheLoop() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let result = machine.unsubscribe(removing: ["a"])
        #expect(result.actions == [.cancelInFlight])
        #expect(machine.phase == .idle)
        #expect(machine.cursor == nil)
    }

    @Test func unsubscribingUnknownChannelsChangesNothing() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let before = machine
        let result = machine.unsubscribe(removing: ["z"])
        #expect(result.removed.isEmpty && result.actions.isEmpty)
        #expect(machine == before)
    }

    @Test func unsubscribingWhileSuspendedOnlyShrinksTheRestoreList() throws {
        var machine = try Self.subscribed(["a", "b"], token: 100)
        _ = machine.connectionLost()
        let result = machine.unsubscribe(removing: ["a"])
        #expect(result.actions.isEmpty)
        #expect(Self.sent(machine.restore(catchUp: true))?.channels == ["b"])
    }

    @Test func softResetContinuesFromTheSavedCursor() throws {
        var machine = try Self.subscribed(["a", "a-pnpres"], token: 100)
        let saved = machine.cursor
        _ = machine.unsubscribe(removing: ["a", "a-pnpres"])
        let handshake = try #require(
            Self.sent(
                machine.subscribe(
                    op: 4,
                    adding: ["a", "a-pnpres"],
                    withPresenceEvent: true,
                    keepTimeToken: true,
                    continuingFrom: saved
                )
            )
        )
        #expect(handshake.cursor == nil)
        let next = machine.responseReceived(
            request: handshake.id,
            cursor: Cursor(timetoken: 700, region: 1),
            messageCount: 0,
            messageCountThreshold: 0
        )
        #expect(Self.sent(next)?.cursor?.timetoken == 100)
    }

    @Test func parkedPollTimeoutIsReissuedSilently() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        let actions = machine.requestFailed(request: poll, .transport(.timedOut))
        let again = try #require(Self.sent(actions))
        #expect(actions == [.send(again)])
        #expect(again.cursor?.timetoken == 100)
    }

    @Test func transportFailuresCheckTheConnectionAndGiveUpAfterThreeRetries() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let failure = SubscribeFailure.transport(.network(code: -1005, description: "lost"))
        for _ in 1...3 {
            let poll = try #require(machine.requestInFlight)
            let result12 = machine.requestFailed(request: poll, failure)
            #expect(result12 == [.checkConnection])
            #expect(Self.sent(machine.connectionChecked())?.cursor?.timetoken == 100)
        }
        let poll = try #require(machine.requestInFlight)
        let result13 = machine.requestFailed(request: poll, failure)
        #expect(result13 == [.checkConnection])
        let result14 = machine.connectionChecked()
        #expect(result14 == [.loopFailed(channels: ["a"], .connectionLost), .startRecovery])
    }

    @Test func idleTimerReissuesWithOrWithoutCatchUp() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        #expect(Self.sent(machine.idleTimerFired(catchUp: true))?.cursor?.timetoken == 100)
        #expect(Self.sent(machine.idleTimerFired(catchUp: false))?.cursor == nil)
    }

    @Test func aLongPollPastItsDeadlineIsReissuedFromTheKeptCursor() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        let poll = try #require(machine.requestInFlight)
        let actions = machine.deadlinePassed(request: poll, catchUp: true)
        let again = try #require(Self.sent(actions))
        #expect(actions == [.cancelInFlight, .send(again)])
        #expect(again.cursor?.timetoken == 100)
        #expect(again.wait == .idle)
        // A deadline of a request no longer in flight, and of a handshake (its own 10 s timer), does nothing.
        #expect(machine.deadlinePassed(request: poll, catchUp: true).isEmpty)
        let handshake = try #require(
            Self.sent(machine.subscribe(op: 3, adding: ["b"], withPresenceEvent: true, keepTimeToken: true))
        )
        #expect(machine.deadlinePassed(request: handshake.id, catchUp: true).isEmpty)
        // Without catch-up the stalled poll is replaced by a handshake from 0 (docs/BEHAVIOR.md §3.3).
        var plain = try Self.subscribed(["a"], token: 100)
        let stalled = try #require(plain.requestInFlight)
        let fresh = try #require(Self.sent(plain.deadlinePassed(request: stalled, catchUp: false)))
        #expect(fresh.cursor == nil)
        #expect(fresh.wait == .handshake)
    }

    @Test func removeAllFailsAPendingChange() throws {
        var machine = try Self.subscribed(["a"], token: 100)
        _ = machine.subscribe(op: 6, adding: ["b"], withPresenceEvent: true, keepTimeToken: true)
        let result = machine.removeAll()
        #expect(result.removed == ["a"])
        #expect(result.actions == [.cancelInFlight, .changeFailed(op: 6, .connectionLost)])
        #expect(machine.phase == .idle)
        #expect(machine.channels.isEmpty)
    }
}
