import Dispatch
import Foundation
import PlatformSupport
import PubNubAsync
import PubNubLegacy

/// The cost of a publish through the `PubNubAsync` overlay beside the same publish through the 3.4 API, on the same
/// client, origin and run (issue 18's closing figure):
/// - `publish_async_throughput`: `count` `PubNubClient.publish(_:to:)` calls started at once (a task group), the
///   shape of `publish_throughput`'s back-to-back 3.4 calls;
/// - `publish_sequential` / `publish_async_sequential`: one publish at a time — the next 3.4 call from the
///   previous call's block, or the next `await` after the previous one returned — so the per-call overhead of the
///   continuation, the task hop and the one-shot guard is not hidden behind the queue.
enum BenchAsyncPublish {
    /// Messages per second of `count` overlay publishes started at once on `client`.
    static func concurrentThroughput(
        _ client: PubNubClient,
        channel: String,
        count: Int,
        timeout: Double
    ) throws
        -> Double
    {
        try self.blocking(timeout: timeout, what: "async publish throughput") {
            let started = nowNanos()
            try await withThrowingTaskGroup(of: UInt64.self) { group in
                for number in 0..<count {
                    group.addTask { try await client.publish(["n": number], to: channel) }
                }
                for try await token in group where token == 0 {
                    throw BenchError("async publish throughput: a publish was answered without a time token")
                }
            }
            return Double(count) / Self.seconds(since: started)
        }
    }

    /// Messages per second of `count` overlay publishes on `client`, each awaited before the next.
    static func sequentialAsync(_ client: PubNubClient, channel: String, count: Int, timeout: Double) throws -> Double {
        try self.blocking(timeout: timeout, what: "async sequential publish") {
            let started = nowNanos()
            for number in 0..<count {
                try await client.publish(["n": number], to: channel)
            }
            return Double(count) / Self.seconds(since: started)
        }
    }

    /// Messages per second of `count` 3.4 publishes on `client`, each made from the block of the one before.
    static func sequential34(_ client: PubNub, channel: String, count: Int, timeout: Double) throws -> Double {
        let done = BenchCounter()
        let started = nowNanos()
        let channelObject = PNChannel.channelWithName(channel)
        // Runs on the delivery queue: each block starts the next publish.
        @Sendable func publish(_ number: Int) {
            guard number < count else {
                done.record(0)
                return
            }
            client.sendMessage(["n": number], toChannel: channelObject) { state, value in
                switch state {
                case .PNMessageSending: return
                case .PNMessageSent: publish(number + 1)
                case .PNMessageSendingError: done.fail("sequential publish failed: \(value ?? "nil")")
                }
            }
        }
        publish(0)
        try done.wait(for: 1, until: deadline(in: timeout), what: "sequential publish")
        return Double(count) / Self.seconds(since: started)
    }

    /// Runs `body` on the concurrency pool and blocks this (non-async) thread until it ends or `timeout` passes.
    private static func blocking(
        timeout: Double,
        what: String,
        _ body: @escaping @Sendable () async throws -> Double
    ) throws -> Double {
        let result = BenchResult()
        let task = Task {
            do {
                result.set(.success(try await body()))
            } catch {
                result.set(.failure(error))
            }
        }
        guard let outcome = result.wait(until: deadline(in: timeout)) else {
            task.cancel()
            throw BenchError("\(what): not done within \(Int(timeout)) s")
        }
        return try outcome.get()
    }

    private static func seconds(since start: UInt64) -> Double {
        max(Double(nowNanos() &- start) / 1e9, 1e-9)
    }
}

/// One result handed from a task to a waiting thread.
private final class BenchResult: Sendable {
    private let value = Monitor<Result<Double, any Error>?>(nil)

    func set(_ value: Result<Double, any Error>) {
        self.value.withLock {
            $0 = value
            self.value.broadcast()
        }
    }

    func wait(until deadline: DispatchTime) -> Result<Double, any Error>? {
        let seconds = Double(deadline.uptimeNanoseconds &- DispatchTime.now().uptimeNanoseconds) / 1e9
        let limit = Date(timeIntervalSinceNow: max(seconds, 0))
        return self.value.wait { value, wake in
            value == nil && wake != .timedOut ? .waitUntil(limit) : .done(value)
        }
    }
}
