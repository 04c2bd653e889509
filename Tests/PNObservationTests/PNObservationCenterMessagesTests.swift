import Foundation
import PNObservation
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct PNObservationCenterMessagesTests {
    @Test func timeTokenObserversGetTheFullUnsignedTokenOrTheError() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let error = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        center.addTimeTokenReceivingObserver(observer) { token, receivedError in
            log.append("\(token.map { "\($0.uint64Value)" } ?? "nil") \(describe(receivedError))")
        }

        center.deliverTimeToken(NSNumber(value: UInt64.max), error: nil)
        center.deliverTimeToken(nil, error: error)
        center.removeTimeTokenReceivingObserver(observer)
        center.deliverTimeToken(NSNumber(value: 1), error: nil)
        #expect(log.calls == ["\(UInt64.max) nil", "nil 106"])
        withExtendedLifetime(observer) {}
    }

    @Test func messageProcessingObserversGetEveryStateWithTheMessageOrTheError() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let message = sampleMessage()
        let error = PNError(code: kPNTooLongMessageError, category: .unknown, associatedObject: message)
        center.addMessageProcessingObserver(observer) { state, data in
            let same = (data as AnyObject?) === message || (data as AnyObject?) === error
            log.append("\(state.rawValue) \(describe(data)) same=\(same)")
        }

        center.deliverMessageProcessing(state: .PNMessageSending, data: message)
        center.deliverMessageProcessing(state: .PNMessageSent, data: message)
        center.deliverMessageProcessing(state: .PNMessageSendingError, data: error)
        center.removeMessageProcessingObserver(observer)
        center.deliverMessageProcessing(state: .PNMessageSent, data: message)
        #expect(
            log.calls == [
                "0 message(\"hi\" on a) same=true",
                "1 message(\"hi\" on a) same=true",
                "2 110 same=true",
            ]
        )
        withExtendedLifetime(observer) {}
    }

    @Test func messageReceiveObserversGetTheSameMessageObjectInDeliveryOrder() {
        let center = PNObservationCenter()
        let observer = TestObserver()
        let messages = (0..<3).map { (index: Int) -> PNMessage in
            PNMessage(
                message: index,
                channel: PNChannel.channelWithName("a"),
                receiveDate: nil,
                timeToken: UInt64(index)
            )
        }
        let received = Locked<[PNMessage]>([])
        center.addMessageReceiveObserver(observer) { message in received.withLock { $0.append(message) } }

        for message in messages {
            center.deliverMessageReceive(message)
        }
        center.removeMessageReceiveObserver(observer)
        center.deliverMessageReceive(sampleMessage())
        let receivedSameObjectsInOrder = received.current.elementsEqual(messages) { $0 === $1 }
        #expect(received.current.count == 3)
        #expect(receivedSameObjectsInOrder)
        withExtendedLifetime(observer) {}
    }

    @Test func historyObserversGetThePageOrTheChannelWithTheError() {
        let center = PNObservationCenter()
        let log = CallLog()
        let observer = TestObserver()
        let channel = PNChannel.channelWithName("h")
        let messages = [sampleMessage()]
        let error = PNError(
            code: kPNRequestExecutionFailedByTimeoutError,
            category: .timeout,
            associatedObject: channel
        )
        center.addMessageHistoryProcessingObserver(observer) { received, receivedChannel, start, end, receivedError in
            let sameMessages = received.map { $0.elementsEqual(messages, by: ===) }
            let dates = "\(start?.timeTokenValue ?? 0)-\(end?.timeTokenValue ?? 0)"
            log.append(
                "\(sameMessages.map(String.init) ?? "nil") \(receivedChannel === channel) \(dates) "
                    + "\(describe(receivedError)) \(receivedError === error)"
            )
        }

        center.deliverMessageHistory(
            messages: messages,
            channel: channel,
            startDate: PNDate(timeToken: 1),
            endDate: PNDate(timeToken: 2),
            error: nil
        )
        center.deliverMessageHistory(messages: nil, channel: channel, startDate: nil, endDate: nil, error: error)
        center.removeMessageHistoryProcessingObserver(observer)
        center.deliverMessageHistory(messages: [], channel: channel, startDate: nil, endDate: nil, error: nil)
        #expect(log.calls == ["true true 1-2 nil false", "nil true 0-0 106 true"])
        withExtendedLifetime(observer) {}
    }
}
