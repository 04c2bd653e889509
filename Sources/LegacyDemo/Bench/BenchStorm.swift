import Dispatch
import Foundation
import PlatformSupport
import PubNubLegacy

/// `LegacyDemo bench --storm SECONDS`: the facade under calls no app paces (issue 31, item 7). Sixteen threads call
/// one connected client as fast as they can — a time request and a publish in turn — for SECONDS; then the storm
/// stops and the client works through what it accepted. Measures how many calls were made, the resident memory at
/// the start, at its peak and once every block ran, how the calls ended (answered, 106, other errors, never), and
/// how long the client took to complete them after the storm. Only the facade's public API is used, so the same
/// file measures any version of the package.
enum BenchStorm {
    static let threads = 16

    struct Figures {
        var calls = 0
        var seconds = 0.0
        var startKiB = 0
        var peakKiB = 0
        var afterKiB = 0
        var answered = 0
        var timedOut = 0
        var otherErrors = 0
        var missing = 0
        var drainSeconds = 0.0
    }

    /// How the calls ended; written only on the storm client's delivery queue, read after it drained.
    private final class Outcomes: @unchecked Sendable {
        // @unchecked: every `var` is written only on `queue` (the client's delivery queue, serial) and read through
        // `queue.sync`.
        let queue = DispatchQueue(label: "LegacyDemo.bench.storm.delivery")
        var answered = 0
        var timedOut = 0
        var otherErrors = 0
        var completed: Int { self.answered + self.timedOut + self.otherErrors }

        func record(_ error: PNError?) {
            switch error?.code {
            case nil: self.answered += 1
            case kPNRequestExecutionFailedByTimeoutError?: self.timedOut += 1
            default: self.otherErrors += 1
            }
        }
    }

    static func run(address: String, publishKey: String, subscribeKey: String, seconds: Double) throws -> Figures {
        let outcomes = Outcomes()
        let configuration = PNConfiguration(
            origin: address,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = outcomes.queue
        let client = PubNub(configuration: configuration)
        let connected = Latch()
        client.connectWithSuccessBlock({ _ in connected.open() }, errorBlock: { _ in connected.open() })
        guard connected.wait(timeout: 20), client.isConnected() else { throw BenchError("storm: cannot connect") }

        var figures = Figures()
        figures.startKiB = BenchMemory.residentKiB() ?? 0
        let peak = Locked(figures.startKiB)
        let sampling = Locked(true)
        let sampled = Latch()
        Thread.detachNewThread {
            while sampling.current {
                let now = BenchMemory.residentKiB() ?? 0
                peak.withLock { $0 = max($0, now) }
                Thread.sleep(forTimeInterval: 0.1)
            }
            sampled.open()
        }

        let calls = Locked(0)
        let done = (0..<Self.threads).map { _ in Latch() }
        let channel = PNChannel.channelWithName("storm")
        let started = DispatchTime.now().uptimeNanoseconds
        let end = started + UInt64(seconds * 1e9)
        for latch in done {
            Thread.detachNewThread {
                var made = 0
                while made % 256 != 0 || DispatchTime.now().uptimeNanoseconds < end {
                    if made % 2 == 0 {
                        client.requestServerTimeTokenWithCompletionBlock { _, error in outcomes.record(error) }
                    } else {
                        client.sendMessage("storm", toChannel: channel) { state, value in
                            if state != .PNMessageSending { outcomes.record(value as? PNError) }
                        }
                    }
                    made += 1
                }
                calls.withLock { $0 += made }
                latch.open()
            }
        }
        done.forEach { $0.wait() }
        let stormEnd = DispatchTime.now().uptimeNanoseconds
        figures.calls = calls.current
        figures.seconds = Double(stormEnd - started) / 1e9

        // Every call completes within its timeout after the storm (or, before the timeout counted from the call,
        // once the client worked through the queue): allow that, and a minute more.
        let limit = Double(stormEnd) / 1e9 + configuration.nonSubscriptionRequestTimeout + 60 + seconds
        var completed = 0
        while completed < figures.calls && Double(DispatchTime.now().uptimeNanoseconds) / 1e9 < limit {
            Thread.sleep(forTimeInterval: 0.05)
            completed = outcomes.queue.sync { outcomes.completed }
        }
        figures.drainSeconds = Double(DispatchTime.now().uptimeNanoseconds - stormEnd) / 1e9
        outcomes.queue.sync {
            figures.answered = outcomes.answered
            figures.timedOut = outcomes.timedOut
            figures.otherErrors = outcomes.otherErrors
        }
        figures.missing = figures.calls - figures.answered - figures.timedOut - figures.otherErrors
        sampling.set(false)
        sampled.wait()
        figures.peakKiB = peak.current
        figures.afterKiB = BenchMemory.residentKiB() ?? 0
        client.disconnect()
        return figures
    }
}
