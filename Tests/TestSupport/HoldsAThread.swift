// Swift Testing runs a synchronous test on a thread of Swift concurrency's shared pool, which has one thread per
// core (two on the machines CI uses). A test that blocks for seconds — a soak or a bench in a child process, a server
// waiting out its timeouts — holds its thread that long, and when two do at once, every asynchronous test in the
// process stops making progress and its deadlines pass while it cannot run. Such tests take this trait: at most one
// of them runs at a time, so one pool thread is always left for everything else.

import Testing

/// Runs each test of a suite (or one test) while holding the process-wide lock of the tests that block their thread
/// for seconds, so at most one of them runs at a time. Apply it as `@Suite(.holdsAThread)` (with `.serialized` or
/// not: the lock already runs one test at a time).
public struct HoldsAThread: SuiteTrait, TestTrait, TestScoping {
    private static let lock = AsyncLock()

    /// True: applied to a suite, the trait scopes each of its tests.
    public var isRecursive: Bool { true }

    /// Holds the lock while `function` (one test, or one case of a parameterized test) runs; a suite itself only
    /// passes through, so its tests can take the lock one by one.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        try await Self.lock.holding(function)
    }
}

extension Trait where Self == HoldsAThread {
    /// The trait of the tests that block their thread for seconds (see `HoldsAThread`).
    public static var holdsAThread: Self { HoldsAThread() }
}
