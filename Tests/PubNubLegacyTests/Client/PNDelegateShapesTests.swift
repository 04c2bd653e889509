import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

/// The delegate shapes 3.x apps declared besides 3.4's header (issue 13, item 8) are called, once per event, and a
/// delegate written with the canonical shapes still hears each event exactly once.
@Suite struct PNDelegateShapesTests {
    /// Records which shape of which callback was called.
    final class Calls: @unchecked Sendable {
        // @unchecked: `names` is a `Locked` box.
        let names = Locked<[String]>([])
        func add(_ name: String) { self.names.withLock { $0.append(name) } }
        var all: [String] { self.names.current }
    }

    /// The shapes of the 3.4.2 demo apps: `NSError` for failures, `NSDate` for the history page, `NSNumber` answers.
    final class NSErrorShapes: PNDelegate {
        let calls = Calls()
        func pubnubClient(_ client: PubNub, error: NSError) { self.calls.add("error") }
        func pubnubClient(_ client: PubNub, didDisconnectFromOrigin origin: String, withError error: NSError) {
            self.calls.add("didDisconnectWithError")
        }
        func pubnubClient(_ client: PubNub, willDisconnectWithError error: NSError) { self.calls.add("willDisconnect") }
        func pubnubClient(_ client: PubNub, connectionDidFailWithError error: NSError) {
            self.calls.add("connectionDidFail")
        }
        func pubnubClient(_ client: PubNub, subscriptionDidFailWithError error: NSError) {
            self.calls.add("subscriptionDidFail \(error.code)")
        }
        func pubnubClient(_ client: PubNub, unsubscriptionDidFailWithError error: NSError) {
            self.calls.add("unsubscriptionDidFail")
        }
        func pubnubClient(_ client: PubNub, presenceObservationEnablingDidFailWithError error: NSError) {
            self.calls.add("presenceEnablingDidFail")
        }
        func pubnubClient(_ client: PubNub, presenceObservationDisablingDidFailWithError error: NSError) {
            self.calls.add("presenceDisablingDidFail")
        }
        func pubnubClient(_ client: PubNub, pushNotificationEnableDidFailWithError error: NSError) {
            self.calls.add("pushEnableDidFail")
        }
        func pubnubClient(_ client: PubNub, pushNotificationDisableDidFailWithError error: NSError) {
            self.calls.add("pushDisableDidFail")
        }
        func pubnubClient(_ client: PubNub, pushNotificationsRemoveFromChannelsDidFailWithError error: NSError) {
            self.calls.add("pushRemoveDidFail")
        }
        func pubnubClient(_ client: PubNub, pushNotificationEnabledChannelsReceiveDidFailWithError error: NSError) {
            self.calls.add("pushListDidFail")
        }
        func pubnubClient(_ client: PubNub, timeTokenReceiveDidFailWithError error: NSError) {
            self.calls.add("timeDidFail")
        }
        func pubnubClient(_ client: PubNub, didFailMessageSend message: PNMessage?, withError error: NSError) {
            self.calls.add("messageSendDidFail \(message == nil ? "nil" : "message")")
        }
        func pubnubClient(
            _ client: PubNub,
            didReceiveMessageHistory messages: [PNMessage],
            forChannel channel: PNChannel,
            startingFrom startDate: Date?,
            to endDate: Date?
        ) {
            self.calls.add("history \(startDate.map { "\($0.timeIntervalSince1970)" } ?? "nil")")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailHistoryDownloadForChannel channel: PNChannel?,
            withError error: NSError
        ) {
            self.calls.add("historyDidFail")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailParticipantsListDownloadForChannel channel: PNChannel?,
            withError error: NSError
        ) {
            self.calls.add("participantsDidFail")
        }
    }

    /// Non-optional arguments where 3.4 had no nullability, and `NSNumber` (not `NSNumber?`) answers.
    final class NonOptionalShapes: PNDelegate {
        let calls = Calls()
        func pubnubClient(_ client: PubNub, didFailMessageSend message: PNMessage, withError error: PNError) {
            self.calls.add("messageSendDidFail")
        }
        func pubnubClient(_ client: PubNub, didFailMessageSend message: PNMessage, withError error: NSError) {
            self.calls.add("messageSendDidFail NSError")
        }
        func pubnubClient(
            _ client: PubNub,
            didReceiveMessageHistory messages: [PNMessage],
            forChannel channel: PNChannel,
            startingFrom startDate: PNDate,
            to endDate: PNDate
        ) {
            self.calls.add("history PNDate")
        }
        func pubnubClient(
            _ client: PubNub,
            didReceiveMessageHistory messages: [PNMessage],
            forChannel channel: PNChannel,
            startingFrom startDate: Date,
            to endDate: Date
        ) {
            self.calls.add("history Date")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailHistoryDownloadForChannel channel: PNChannel,
            withError error: PNError
        ) {
            self.calls.add("historyDidFail")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailHistoryDownloadForChannel channel: PNChannel,
            withError error: NSError
        ) {
            self.calls.add("historyDidFail NSError")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailParticipantsListDownloadForChannel channel: PNChannel,
            withError error: PNError
        ) {
            self.calls.add("participantsDidFail")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailParticipantsListDownloadForChannel channel: PNChannel,
            withError error: NSError
        ) {
            self.calls.add("participantsDidFail NSError")
        }
        func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber { NSNumber(value: false) }
        func shouldResubscribeOnConnectionRestore() -> NSNumber { NSNumber(value: true) }
        func shouldRestoreSubscriptionFromLastTimeToken() -> NSNumber { NSNumber(value: false) }
    }

    /// The canonical shapes only, each once.
    final class CanonicalShapes: PNDelegate {
        let calls = Calls()
        func pubnubClient(_ client: PubNub, subscriptionDidFailWithError error: PNError) {
            self.calls.add("subscriptionDidFail")
        }
        func pubnubClient(_ client: PubNub, didFailMessageSend message: PNMessage?, withError error: PNError) {
            self.calls.add("messageSendDidFail")
        }
        func pubnubClient(
            _ client: PubNub,
            didReceiveMessageHistory messages: [PNMessage],
            forChannel channel: PNChannel,
            startingFrom startDate: PNDate?,
            to endDate: PNDate?
        ) {
            self.calls.add("history")
        }
        func pubnubClient(
            _ client: PubNub,
            didFailHistoryDownloadForChannel channel: PNChannel?,
            withError error: PNError
        ) {
            self.calls.add("historyDidFail")
        }
        func shouldResubscribeOnConnectionRestore() -> NSNumber? { NSNumber(value: false) }
    }

    static let channel = PNChannel.channelWithName("delegate-shapes")
    static let message = PNMessage(message: "m", channel: channel, receiveDate: nil, timeToken: nil)
    static let page = PNMessagesHistory(
        startDate: PNDate(timeToken: 17_000_000_000_000_000),
        endDate: PNDate(timeToken: 17_000_000_010_000_000),
        channel: channel,
        messages: [message]
    )
    static let emptyPage = PNMessagesHistory(startDate: nil, endDate: nil, channel: channel, messages: [])

    /// One event of every failure kind, plus history pages with and without dates.
    static var events: [ClientEvent] {
        let error = { PNError(code: kPNRequestExecutionFailedByTimeoutError) }
        return [
            .error(error()), .didDisconnectWithError(origin: "o", error()), .willDisconnectWithError(error()),
            .connectionDidFail(error()), .subscriptionDidFail(error()), .unsubscriptionDidFail(error()),
            .presenceObservationEnablingDidFail(error()), .presenceObservationDisablingDidFail(error()),
            .pushNotificationEnableDidFail(error()), .pushNotificationDisableDidFail(error()),
            .pushNotificationRemoveDidFail(error()), .pushNotificationEnabledChannelsDidFail(error()),
            .timeTokenReceiveDidFail(error()), .messageSendDidFail(message, error()), .messageSendDidFail(nil, error()),
            .didReceiveMessageHistory(page), .didReceiveMessageHistory(emptyPage),
            .historyDownloadDidFail(channel, error()), .historyDownloadDidFail(nil, error()),
            .participantsListDownloadDidFail(channel, error()), .participantsListDownloadDidFail(nil, error()),
        ]
    }

    @Test func nsErrorAndDateShapesAreCalledOncePerEvent() {
        let client = PubNub()
        let delegate = NSErrorShapes()
        for event in Self.events {
            event.send(to: delegate, from: client)
        }
        #expect(
            delegate.calls.all == [
                "error", "didDisconnectWithError", "willDisconnect", "connectionDidFail", "subscriptionDidFail 106",
                "unsubscriptionDidFail", "presenceEnablingDidFail", "presenceDisablingDidFail", "pushEnableDidFail",
                "pushDisableDidFail", "pushRemoveDidFail", "pushListDidFail", "timeDidFail",
                "messageSendDidFail message", "messageSendDidFail nil", "history 1700000000.0", "history nil",
                "historyDidFail", "historyDidFail", "participantsDidFail", "participantsDidFail",
            ]
        )
    }

    @Test func nonOptionalShapesAreCalledWhenTheValueExists() {
        let client = PubNub()
        let delegate = NonOptionalShapes()
        for event in Self.events {
            event.send(to: delegate, from: client)
        }
        #expect(
            delegate.calls.all == [
                "messageSendDidFail", "messageSendDidFail NSError", "history PNDate", "history Date",
                "historyDidFail", "historyDidFail NSError", "participantsDidFail", "participantsDidFail NSError",
            ]
        )
    }

    @Test func canonicalShapesAreCalledExactlyOnce() {
        let client = PubNub()
        let delegate = CanonicalShapes()
        for event in Self.events {
            event.send(to: delegate, from: client)
        }
        #expect(
            delegate.calls.all == [
                "subscriptionDidFail", "messageSendDidFail", "messageSendDidFail", "history", "history",
                "historyDidFail", "historyDidFail",
            ]
        )
    }

    @Test func eitherShapeOfTheQueriesIsHeard() {
        let client = PubNub()
        #expect(DelegateAnswers.reconnect(NonOptionalShapes(), client) == false)
        #expect(DelegateAnswers.resubscribe(NonOptionalShapes()) == true)
        #expect(DelegateAnswers.catchUp(NonOptionalShapes()) == false)
        #expect(DelegateAnswers.resubscribe(CanonicalShapes()) == false)
        // Neither shape implemented: no answer, the configuration decides.
        #expect(DelegateAnswers.reconnect(NSErrorShapes(), client) == nil)
        #expect(DelegateAnswers.resubscribe(NSErrorShapes()) == nil)
        #expect(DelegateAnswers.catchUp(nil) == nil)
    }
}
