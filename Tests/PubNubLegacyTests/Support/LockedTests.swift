import Foundation
import PlatformSupport
import Testing

@testable import PubNubLegacy

@Suite struct LockedTests {
    @Test func concurrentUpdatesAreNotLost() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
            counter.withLock { $0 += 1 }
        }
        #expect(counter.current == 1_000)
    }

    @Test func setReplacesAndWithLockReturnsTheResult() {
        let box = Locked([1, 2])
        box.set([3])
        let count = box.withLock { value -> Int in
            value.append(4)
            return value.count
        }
        #expect(count == 2)
        #expect(box.current == [3, 4])
    }
}
