// The other way out of the problem `HoldsAThread` describes: an async test hands a wait that blocks for seconds (a
// child process, a tool run) to a thread of its own and suspends, holding none of Swift concurrency's pool threads.

import Foundation

/// Runs `body`, which blocks its thread (waiting for a process, a tool, a server), on a new thread named `name`, and
/// returns what it returns or throws what it throws. The calling task suspends meanwhile, so it holds none of the
/// pool threads Swift concurrency runs every task on (one per core on Linux).
public func onOwnThread<T: Sendable>(
    _ name: String,
    _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = name
        thread.start()
    }
}
