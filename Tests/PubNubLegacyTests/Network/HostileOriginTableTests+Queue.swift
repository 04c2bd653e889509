import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

// Issue 31: the table's calls when the origin stalls the call before them. The origin never answers a subscribe
// handshake (held for the handshake's 8 s timeout); a request called right behind it waits for its turn, and its own
// timeout — 3 s, counted from the call (docs/BEHAVIOR.md §1.2) — ends it with 106 on all four channels before the
// handshake fails, without it ever being sent. 3.4 started the timer at the request's turn, so the caller waited for
// the handshake's timeout first, and then got the origin's answer.

extension HostileOriginTableTests {
    static let queuedCalls: [Call] = [.time, .history, .hereNow, .publish]

    @Test(arguments: HostileOriginTableTests.queuedCalls)
    func aCallQueuedBehindAStalledCallTimesOutFromItsCall(call: Call) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        configuration.nonSubscriptionRequestTimeout = Self.timeout
        configuration.subscriptionRequestTimeout = Self.timeout + 5
        let client = PubNub(configuration: configuration, delegate: nil, eventSinks: [], timings: .quietProbe)
        let four = FourChannelRecorder(client: client, center: PNObservationCenter(client: client))
        defer { four.stop() }
        client.connectWithSuccessBlock(four.connectSuccess, errorBlock: four.connectFailure)
        try await Self.waitForBlock("connect", in: four, from: 0, within: 10)

        try origin.inject(.neverAnswer, on: .operation(.subscribe))
        let channel = PNChannel.channelWithName(LocalOriginClientTests.unique("stalled"))
        let start = four.entries.count
        let sentBefore = origin.requestLog.count
        // Called together: the call's 3 s and the handshake's 8 s run on the client's one timer queue, so the call's
        // deadline comes first however loaded the machine is.
        client.subscribeOnChannels([channel], withCompletionHandlingBlock: four.subscribeBlock)
        Self.make(call, on: channel, client: client, four: four)
        try await eventually("the origin to hold the handshake") { origin.faultCounters.unanswered >= 1 }
        let block = try await Self.waitForBlock(call.blockLabel, in: four, from: start, within: 25)
        let sent = origin.requestLog.dropFirst(sentBefore).map(\.target)
        #expect(block.key.hasPrefix("error(\(kPNRequestExecutionFailedByTimeoutError))#"), "\(block.key)")
        // Before the handshake failed: the call's block comes before the subscribe's.
        let notSubscribed = PNSubscriptionProcessState.PNSubscriptionProcessNotSubscribedState.rawValue
        let subscribe = try await Self.waitForBlock("subscribe:\(notSubscribed)", in: four, from: 0, within: 25)
        #expect(subscribe.key.hasPrefix("error(\(kPNRequestExecutionFailedByTimeoutError))#"), "\(subscribe.key)")
        let order = four.entries.filter { $0.channel == .block }.map(\.label)
        let callIndex = order.firstIndex(of: block.label)
        let subscribeIndex = order.firstIndex(of: subscribe.label)
        #expect(callIndex != nil && subscribeIndex != nil && callIndex! < subscribeIndex!, "\(order)")
        // The same error on the delegate, the observer and the notification, once each; no will-send for a publish
        // that never started.
        _ = try await four.waitForEntries(4, from: start, within: 5)
        let sameKey = four.entries.dropFirst(start).filter { $0.key == block.key }
        #expect(sameKey.map(\.channel).sorted() == [.delegate, .observer, .notification, .block], "\(sameKey)")
        // Never sent. (A time request cannot be told from the reachability probe a failed handshake may start.)
        if call != .time {
            #expect(!sent.contains { call.matches($0) }, "\(sent)")
        }

        // With the stalled call over, the same call works.
        try origin.clearFaults()
        let next = four.entries.count
        Self.make(call, on: channel, client: client, four: four)
        let again = try await Self.waitForBlock(call.blockLabel, in: four, from: next, within: 15)
        #expect(!again.key.hasPrefix("error("), "the next call got \(again.key)")
        client.disconnect()
    }
}
