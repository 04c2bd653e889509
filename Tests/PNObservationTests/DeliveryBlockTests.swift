import Dispatch
import Testing

@testable import PNObservation

@Suite struct DeliveryBlockTests {
    @Test func carriesANonSendableClosureToTheQueueThatCallsIt() throws {
        // The closure mutates state it captured, as ported 3.x blocks do; only the box lets it cross to the queue.
        final class Counter {
            var value = 0
        }
        let counter = Counter()
        let box = DeliveryBlock(block: { (step: Int) in counter.value += step })
        let delivery = DispatchQueue(label: "DeliveryBlockTests.delivery")
        let done = DispatchSemaphore(value: 0)
        delivery.async {
            box.block(2)
            box.block(3)
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 30) == .success)
        #expect(counter.value == 5)
    }
}
