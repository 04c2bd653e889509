import Dispatch
import Testing

@testable import PNObservation

@Suite struct LockedTests {
    @Test func concurrentUpdatesAreNotLost() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
            counter.withLock { $0 += 1 }
        }
        #expect(counter.current == 1_000)
    }

    @Test func withLockReturnsTheResultOfItsBody() {
        let box = Locked([1, 2])
        let count = box.withLock { value -> Int in
            value.append(3)
            return value.count
        }
        #expect(count == 3)
        #expect(box.current == [1, 2, 3])
    }
}
