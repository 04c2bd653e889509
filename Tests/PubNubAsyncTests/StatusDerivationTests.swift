import Foundation
import Testing

@testable import PubNubAsync
@testable import PubNubLegacy

/// The mapping of 3.4 events to 4.x status categories (MIGRATION.md "Modernising a ported app").
@Suite struct StatusDerivationTests {
    private let channels = [PNChannel.channelWithName("status-a"), PNChannel.channelWithName("status-b")]

    private func categories(_ events: [ClientEvent], subscribed: [PNChannel] = []) -> [[PNStatusCategory]] {
        var derivation = StatusDerivation()
        return events.map { event in derivation.statuses(for: event) { subscribed }.map(\.category) }
    }

    @Test func aFirstConnectIsConnectedAndAUserDisconnectIsDisconnected() {
        #expect(
            categories([.didConnect(origin: "o"), .didDisconnect(origin: "o")]) == [[.connected], [.disconnected]]
        )
    }

    @Test func aNetworkLossIsAnUnexpectedDisconnectAndItsEndOneReconnected() {
        let loss = PNError(code: kPNClientConnectionClosedOnInternetFailureError)
        var derivation = StatusDerivation()
        let lost = derivation.statuses(for: .willDisconnectWithError(loss)) { self.channels }
        #expect(lost.map(\.category) == [.unexpectedDisconnect])
        #expect(lost.first?.affectedChannels == self.channels)
        #expect(lost.first?.error === loss)
        #expect(derivation.statuses(for: .didDisconnectWithError(origin: "o", loss)) { self.channels }.isEmpty)
        #expect(derivation.statuses(for: .willConnect(origin: "o")) { self.channels }.isEmpty)
        let back = derivation.statuses(for: .didConnect(origin: "o")) { self.channels }
        #expect(back.map(\.category) == [.reconnected])
        #expect(back.first?.affectedChannels == self.channels)
        // The restore that follows belongs to the same reconnection.
        #expect(derivation.statuses(for: .willRestoreSubscription(self.channels)) { self.channels }.isEmpty)
        #expect(derivation.statuses(for: .didRestoreSubscription(self.channels)) { self.channels }.isEmpty)
        // A later restore (forced reconnect, loop recovery) is a reconnection of its own.
        #expect(
            derivation.statuses(for: .didRestoreSubscription(self.channels)) { self.channels }.map(\.category)
                == [.reconnected]
        )
    }

    @Test func aLossWithoutChannelsReconnectsAtTheConnectAndLeavesTheNextRestoreItsOwnStatus() {
        let loss = PNError(code: kPNClientConnectionClosedOnInternetFailureError)
        #expect(
            categories([.willDisconnectWithError(loss), .didConnect(origin: "o"), .didRestoreSubscription([])])
                == [[.unexpectedDisconnect], [.reconnected], [.reconnected]]
        )
    }

    @Test func failuresTakeTheCategoryOfTheirError() {
        let denied = PNError(code: kPNAPIAccessForbiddenError, category: .accessDenied, associatedObject: self.channels)
        var derivation = StatusDerivation()
        let status = derivation.statuses(for: .subscriptionDidFail(denied)) { [] }
        #expect(status.map(\.category) == [.accessDenied])
        #expect(status.first?.affectedChannels == self.channels)
        #expect(
            categories([
                .connectionDidFail(PNError(code: kPNClientConnectionFailedOnInternetFailureError)),
                .connectionDidFail(PNError(code: kPNClientTriedConnectWhileConnectedError)),
                .subscriptionDidFail(PNError(code: kPNRequestExecutionFailedByTimeoutError)),
                .subscriptionDidFail(PNError(code: kPNResponseMalformedJSONError)),
                .connectionDidFail(PNError(code: kPNConnectionErrorOnSetup)),
                .error(PNError(code: kPNRequestMessageCountExceededError)),
                .error(PNError(code: kPNClientConfigurationError)),
            ]) == [
                [.networkIssues], [], [.timeout], [.malformedResponse], [.tlsConnectionFailed],
                [.messageCountExceeded], [.unknown],
            ]
        )
    }

    @Test func aDecryptionErrorNamesTheMessageChannel() {
        let message = PNMessage(
            message: "DECRYPTION_ERROR",
            channel: self.channels[0],
            receiveDate: nil,
            timeToken: nil
        )
        let error = PNError(
            code: kPNCryptoInputDataProcessingError,
            category: .decryptionError,
            associatedObject: message
        )
        var derivation = StatusDerivation()
        let status = derivation.statuses(for: .error(error)) { [] }
        #expect(status.map(\.category) == [.decryptionError])
        #expect(status.first?.affectedChannels == [self.channels[0]])
    }

    @Test func anUndecodableMessageIsAMalformedResponseOnItsChannel() {
        let message = PNMessage(message: "[\"\\ud800\"]", channel: self.channels[1], receiveDate: nil, timeToken: nil)
        let error = ClientEngine.undecodableMessageError(.notRepresentable, of: message)
        var derivation = StatusDerivation()
        let status = derivation.statuses(for: .error(error)) { [] }
        #expect(status.map(\.category) == [.malformedResponse])
        #expect(status.first?.affectedChannels == [self.channels[1]])
    }

    @Test func outcomesOfSingleCallsAreNotStatuses() {
        let error = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        let derived = categories([
            .didSubscribe(self.channels), .didUnsubscribe(self.channels), .didReceiveTimeToken(1),
            .messageSendDidFail(nil, error), .historyDownloadDidFail(nil, error),
        ])
        #expect(derived.allSatisfy { $0.isEmpty })
    }
}

/// The overflow accounting of the streams.
@Suite struct OverflowCounterTests {
    @Test func messageStreamsReportTheFirstDropAtOnceAndTheRestWhenTheConsumerCaughtUp() {
        var counter = OverflowCounter()
        #expect(counter.accepted() == nil)
        #expect(counter.dropped(reportsAtOnce: true) == 1)
        #expect(counter.dropped(reportsAtOnce: true) == nil)
        #expect(counter.dropped(reportsAtOnce: true) == nil)
        #expect(counter.accepted() == 2)
        #expect(counter.accepted() == nil)
        // One drop only: nothing left to report when it ends.
        #expect(counter.dropped(reportsAtOnce: true) == 1)
        #expect(counter.accepted() == nil)
    }

    @Test func statusStreamsReportTheWholeOverflowWhenItEnds() {
        var counter = OverflowCounter()
        for _ in 0..<5 { #expect(counter.dropped(reportsAtOnce: false) == nil) }
        #expect(counter.accepted() == 5)
    }

    @Test func aStatusStreamThatOverflowsReportsTheLossOnceItHasRoom() async throws {
        let hub = StreamHub()
        let stream = hub.statuses(bufferingNewest: 4)
        for index in 1...10 {
            hub.statusReceived(PNStatus(category: .unknown, droppedCount: index))
        }
        var iterator = stream.makeAsyncIterator()
        var kept: [Int] = []
        for _ in 0..<4 { kept.append(await iterator.next()?.droppedCount ?? -1) }
        #expect(kept == [7, 8, 9, 10])
        hub.statusReceived(PNStatus(category: .connected))
        #expect(await iterator.next()?.category == .connected)
        let report = await iterator.next()
        #expect(report?.category == .bufferOverflow)
        #expect(report?.droppedCount == 6)
        hub.finishAll()
        #expect(await iterator.next() == nil)
    }
}
