import Dispatch
import PlatformSupport
import Testing

/// `FreePages` finds glibc's `malloc_trim` where there is one. What it gives back is a figure of `LegacyDemo bench`
/// (`rss_end`, `batch_100k_rss_growth`), not something a test can assert.
@Suite struct FreePagesTests {
    @Test func theAllocatorCallIsFoundWhereGlibcHasIt() {
        #if canImport(Glibc)
        #expect(FreePages.returnNow())
        #else
        #expect(!FreePages.returnNow())
        #endif
    }

    @Test func manyRequestsAtOnceAreSafeFromAnyThread() {
        DispatchQueue.concurrentPerform(iterations: 64) { _ in FreePages.returnSoon() }
        FreePages.returnNow()
    }
}
