import Foundation
import PubNubLegacy

/// What one connected, subscribed client costs while nothing happens: the process's resident memory (all of it, and
/// the anonymous part — what the process itself allocated, without the pages of the shared libraries it maps) and
/// its threads, read after it has been idle for a while, and its context switches per second meanwhile. Run in a
/// process that holds nothing else (`LegacyDemo bench` starts one, `BenchChild`; so does `LegacyDemo cost idle`).
enum BenchIdle {
    struct Figures {
        var residentKiB: Int
        var anonymousKiB: Int
        var threads: Int
        var switchesPerSecond: Double
    }

    /// Connects one client to `address`, subscribes it to one channel, leaves it idle for `seconds` and reads the
    /// figures; nil where /proc/self/status cannot be read.
    static func measure(
        address: String,
        publishKey: String = "demo",
        subscribeKey: String = "demo",
        secure: Bool = false,
        caFile: String? = nil,
        seconds: Double
    ) throws -> Figures? {
        let client = BenchClient(
            name: "idle",
            address: address,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secure: secure,
            caFile: caFile
        )
        try client.connect(timeout: 15)
        defer { client.disconnect(timeout: 5) }
        try client.subscribe([PNChannel.channelWithName("bench-idle")], timeout: 15)
        let before = ProcessUsage.now()
        Thread.sleep(forTimeInterval: seconds)  // the workload is doing nothing
        let usage = ProcessUsage.now().since(before)
        let status = ProcessUsage.statusFields()  // one reading, before anything else touches memory
        guard let resident = status["VmRSS:"], let anonymous = status["RssAnon:"], let threads = status["Threads:"]
        else { return nil }
        return Figures(
            residentKiB: resident,
            anonymousKiB: anonymous,
            threads: threads,
            switchesPerSecond: Double(usage.switches) / max(seconds, 1e-9)
        )
    }
}
