import Foundation
import Testing

@testable import PubNubLegacy

@Suite struct FourChannelRecorderTests {
    /// Two payloads are "the same" only when they are one object: an error freed after its delivery and a new error
    /// that the allocator puts at its address get different keys (a failed CI run counted a publish's timeout error
    /// and the subscribe's timeout error made after it as one payload, by address).
    @Test func aNewObjectAtAFreedObjectsAddressGetsANewKey() {
        var first: PNError? = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        let firstKey = FourChannelRecorder.key(first)
        let freedAddress = ObjectIdentifier(first!)
        #expect(FourChannelRecorder.key(first) == firstKey, "one object, one key")
        first = nil
        // The allocator hands the freed block to the next object of its size (within a few allocations); the later
        // objects are kept so that each try gets a new block.
        var kept: [PNError] = []
        var reused: PNError?
        for _ in 0..<10_000 {
            let next = PNError(code: kPNRequestExecutionFailedByTimeoutError)
            if ObjectIdentifier(next) == freedAddress {
                reused = next
                break
            }
            kept.append(next)
        }
        guard let reused else {
            Issue.record("the allocator never reused the freed address in \(kept.count) allocations")
            return
        }
        #expect(FourChannelRecorder.key(reused) != firstKey)
        #expect(FourChannelRecorder.key(reused) == FourChannelRecorder.key(reused))
    }
}
