// Process-wide state that more than one test target touches: the shared client (`PubNub.sharedInstance()` and the
// static API), `PNObservationCenter.defaultCenter()`, the logger's switches and sink, and the compile-time defaults
// of `PNDefaultConfiguration.h` (`kPNOriginHost`, …). Every test target is linked into one test process and suites
// run in parallel, so a suite that changes that state, or asserts on it, holds this trait's lock while it runs.

import Testing

/// A FIFO lock for async code: `acquire` suspends until every earlier holder released it.
actor AsyncLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !self.held {
            self.held = true
            return
        }
        await withCheckedContinuation { self.waiters.append($0) }
    }

    func release() {
        if self.waiters.isEmpty {
            self.held = false
        } else {
            self.waiters.removeFirst().resume()
        }
    }

    /// Runs `body` while holding the lock, releasing it however `body` ends.
    nonisolated func holding(_ body: @Sendable () async throws -> Void) async throws {
        await self.acquire()
        do {
            try await body()
        } catch {
            await self.release()
            throw error
        }
        await self.release()
    }
}

/// Runs a whole suite (or one test) while holding the process-wide lock of the shared state, so suites that touch
/// the shared client, the default observation center, the logger or the configuration defaults never overlap.
/// Apply it as `@Suite(.serialized, .sharedProcessState)`.
public struct SharedProcessState: SuiteTrait, TestTrait, TestScoping {
    private static let lock = AsyncLock()

    /// Holds the lock while `function` (the suite or the test) runs.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.lock.holding(function)
    }
}

extension Trait where Self == SharedProcessState {
    /// The trait of every suite that touches process-wide state (see `SharedProcessState`).
    public static var sharedProcessState: Self { SharedProcessState() }
}
