// Waiting with a deadline: every test that waits for something another thread does (a request reaching the origin,
// a delegate callback, a counter of a fake) polls the observable condition through `eventually` instead of sleeping a
// fixed time, so it is right on a slow machine and names what it waited for when the deadline passes.

import Foundation

/// Thrown by `eventually` and `eventuallyBlocking` when their condition did not hold before the deadline; its
/// description (which Swift Testing records when a test throws it) names what was awaited and for how long.
public struct EventuallyTimeout: Error, CustomStringConvertible {
    /// The description of the awaited condition, as the caller wrote it.
    public let what: String
    /// How long the caller waited, in seconds.
    public let seconds: Double

    /// "timed out after N s waiting for <what>".
    public var description: String { "timed out after \(self.seconds) s waiting for \(self.what)" }
}

/// The pause between two evaluations of a condition: short against the deadlines, long enough not to spin.
private let pollInterval = 0.005

/// Evaluates `condition` every few milliseconds, on the caller's isolation (so a main-actor test may read main-actor
/// state), until it returns true; throws `EventuallyTimeout` naming `what` and `seconds` if it has not by then.
/// The condition is evaluated once more at the deadline, so a condition that holds then is not a timeout.
///
/// The default deadline is 30 s: in the parallel pass on a 2-core machine, hundreds of tests share Swift
/// concurrency's two cooperative threads, and in its first minute a test's own tasks (the calls it makes, the polls
/// of its condition) can wait longer than 10 s for one — the fresh-clone CI failed twice at 10 s that way, each time
/// while hundreds of other tests finished in the same second (a client's request that had not reached the origin
/// because the task making it had not run). A passing wait takes no longer; a failing one reports 20 s later.
public func eventually(
    _ what: @autoclosure () -> String,
    within seconds: Double = 30,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else {
            if try condition() { return }
            throw EventuallyTimeout(what: what(), seconds: seconds)
        }
        try await Task.sleep(nanoseconds: UInt64(pollInterval * 1e9))
    }
}

/// The blocking form of `eventually`, for synchronous tests and helpers: evaluates `condition` on the calling thread
/// every few milliseconds, sleeping that thread in between, until it returns true; throws `EventuallyTimeout`
/// naming `what` and `seconds` if it has not by then. Use the async form wherever the caller can suspend.
public func eventuallyBlocking(
    _ what: @autoclosure () -> String,
    within seconds: Double = 10,
    _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else {
            if try condition() { return }
            throw EventuallyTimeout(what: what(), seconds: seconds)
        }
        Thread.sleep(forTimeInterval: pollInterval)
    }
}
