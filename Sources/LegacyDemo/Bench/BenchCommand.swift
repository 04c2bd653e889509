import Foundation
import LocalOrigin
import PubNubAsync
import PubNubLegacy

/// `LegacyDemo bench`: the client's speed and memory figures, one `BENCH <name> <value> <unit>` line each on stdout
/// (after a `#` header line); progress goes to stderr. Meant for release builds (`swift build -c release`);
/// Scripts/bench.sh runs it beside the official Python SDK and compares.
enum BenchCommand {
    static let usage = """
          LegacyDemo bench [--origin HOST:PORT [--publish-key K] [--subscribe-key K] [--secure [--ca-file PATH]]]
                           [--network-only] [--quick] [--storm SECONDS]
            Measures, on an embedded local origin or on --origin (plain HTTP, or TLS with --secure; keys default to
            demo):
              publish_throughput   acknowledged publishes/s, one client, one channel, calls made back to back
              publish_async_throughput  the same through PubNubAsync's publish(_:to:), calls started at once
              publish_sequential   acknowledged publishes/s, one at a time (the next call from the previous block)
              publish_async_sequential  the same through PubNubAsync, each publish awaited before the next
              publish_pipelined_throughput  the same from a client with publishPipelineDepth 32 (plain HTTP
                                   only: over TLS publishes are not pipelined)
              latency_p50/p99      sendMessage call -> subscriber's didReceiveMessage:, one message every 2 ms
              delivery_throughput  messages/s received while another client publishes back to back;
                                   delivery_lost counts the ones that never arrived
              delivery_pipelined_throughput/lost  the same with the pipelined publisher
              request_new_p50/p99  ms for GET /time/0 on a new connection (TCP connect, TLS handshake, request)
              request_kept_p50/p99 ms for the same request on a kept-alive connection
              fanout_per_event     µs to deliver one event to delegate, observer, notification and block
              crypto_*_1KiB        µs to encrypt / decrypt a 1 KiB message (cipher key, 3.4 standard scheme)
              batch_100k_delivery  messages/s of one 100,000-message subscribe answer through delegate, observer
                                   and notification; batch_100k_peak_rss its peak resident memory (KiB), and
                                   batch_100k_rss_growth the resident memory a second after it minus before it
              json_encode_*        µs to encode a 1 KiB string / a small dictionary as a message's JSON text;
                                   *_foundation: JSONSerialization on the same value
              rss_start/rss_end    resident memory at start and end
              rss_end_trimmed      at the end, after the allocator returned its free pages (glibc)
            --storm SECONDS runs only the storm instead: 16 threads call one client's time and publish as fast as
            they can for SECONDS (plain HTTP); storm_calls, storm_rss_start/peak/after (KiB), how the calls ended
            (storm_answered, storm_timed_out, storm_other_errors, storm_missing) and storm_drain_s (seconds from
            the end of the storm until the last block ran).
            --ca-file trusts the CA certificates in PATH for TLS instead of the system's. --network-only skips the
            fan-out, crypto, batch and JSON workloads, which do not use the given origin. --quick runs a few
            seconds per workload. Exit
            status 0; 1 when a workload fails or loses messages (the figures measured so far are printed); 2 for
            bad flags.
        """

    /// A figure's line: `BENCH name value unit`.
    static func bench(_ name: String, _ value: Double, _ unit: String, decimals: Int = 2) {
        say("BENCH \(name) \(String(format: "%.\(decimals)f", value)) \(unit)")
    }

    /// Progress: the resident memory after a workload, so growth can be traced to the workload that caused it.
    private static func showResidentMemory() {
        complain("bench: resident memory now \(BenchMemory.residentKiB().map { "\($0) KiB" } ?? "unknown")")
    }

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let settings = try BenchSettings(arguments)
        let counts = settings.counts
        let rssStart = BenchMemory.residentKiB()

        var embedded: LocalOrigin?
        defer { embedded?.stop() }
        let address: String
        if let origin = settings.origin {
            address = origin
        } else {
            do {
                let origin = try LocalOrigin.start()
                embedded = origin
                address = origin.address
            } catch {
                complain("LegacyDemo bench: cannot start the embedded origin: \(error)")
                return 1
            }
        }
        #if DEBUG
        let build = "debug build: figures are not representative"
        #else
        let build = "release build"
        #endif
        say(
            "# LegacyDemo bench on \(embedded == nil ? "" : "embedded origin ")\(address)"
                + "\(settings.secure ? " over TLS" : ""), \(settings.quick ? "quick" : "full") run, \(build)"
        )
        if let seconds = settings.storm {
            return try Self.storm(settings, address: address, seconds: seconds)
        }
        let total = settings.networkOnly ? 7 : 11

        let network = BenchWorkloads(
            address: address,
            publishKey: settings.publishKey,
            subscribeKey: settings.subscribeKey,
            secure: settings.secure,
            caFile: settings.caFile
        )
        defer { network.stop() }
        complain("bench: connecting three clients to \(address)")
        try network.start()

        complain("bench: 1/\(total) publish throughput, \(counts.publishes) messages back to back")
        let throughput = try network.publishThroughput(count: counts.publishes)
        Self.bench("publish_throughput", throughput, "msg/s", decimals: 0)
        // The same publishes through the PubNubAsync overlay, on the same client (MIGRATION.md §11).
        let overlay = PubNubClient(wrapping: network.publisherClient)
        let channel = network.throughputChannelName
        let allowance = 15 + Double(counts.publishes) * 0.02
        complain("bench: 1/\(total) publish through PubNubAsync, \(counts.publishes) messages started at once")
        let asyncThroughput = try BenchAsyncPublish.concurrentThroughput(
            overlay,
            channel: channel,
            count: counts.publishes,
            timeout: allowance
        )
        Self.bench("publish_async_throughput", asyncThroughput, "msg/s", decimals: 0)
        complain(
            "bench: 1/\(total) publish one at a time, \(counts.publishes) messages each through 3.4 and PubNubAsync"
        )
        let sequential = try BenchAsyncPublish.sequential34(
            network.publisherClient,
            channel: channel,
            count: counts.publishes,
            timeout: allowance
        )
        Self.bench("publish_sequential", sequential, "msg/s", decimals: 0)
        let asyncSequential = try BenchAsyncPublish.sequentialAsync(
            overlay,
            channel: channel,
            count: counts.publishes,
            timeout: allowance
        )
        Self.bench("publish_async_sequential", asyncSequential, "msg/s", decimals: 0)
        Self.showResidentMemory()

        complain(
            "bench: 2/\(total) pipelined publish throughput, \(counts.publishes) messages back to back, pipeline depth"
                + " \(BenchWorkloads.pipelineDepth)\(settings.secure ? " (ignored over TLS)" : "")"
        )
        let pipelinedThroughput = try network.publishThroughput(count: counts.publishes, pipelined: true)
        Self.bench("publish_pipelined_throughput", pipelinedThroughput, "msg/s", decimals: 0)
        Self.showResidentMemory()

        complain(
            "bench: 3/\(total) latency, \(counts.latencyMessages) messages, one every \(counts.latencyInterval * 1000) ms"
        )
        let latency = try network.latency(count: counts.latencyMessages, interval: counts.latencyInterval)
        if latency.slipped > 0 {
            complain("bench: \(latency.slipped) latency messages went out late (previous publish not yet answered)")
        }
        Self.bench("latency_p50", latency.p50, "ms")
        Self.bench("latency_p99", latency.p99, "ms")
        Self.showResidentMemory()

        complain("bench: 4/\(total) delivery throughput, \(counts.deliveryMessages) messages")
        let delivery = try network.delivery(count: counts.deliveryMessages)
        Self.reportDelivery(delivery, prefix: "delivery")

        complain("bench: 5/\(total) delivery throughput, pipelined publisher, \(counts.deliveryMessages) messages")
        let pipelinedDelivery = try network.delivery(count: counts.deliveryMessages, pipelined: true)
        Self.reportDelivery(pipelinedDelivery, prefix: "delivery_pipelined")

        complain(
            "bench: 6/\(total) request cost, \(counts.requestCostRequests) requests on new connections, as many"
                + " on one kept-alive connection"
        )
        let cost = try Self.requestCost(address: address, settings: settings)
        Self.bench("request_new_p50", percentile(0.5, of: cost.newConnection), "ms", decimals: 3)
        Self.bench("request_new_p99", percentile(0.99, of: cost.newConnection), "ms", decimals: 3)
        Self.bench("request_kept_p50", percentile(0.5, of: cost.keptAlive), "ms", decimals: 3)
        Self.bench("request_kept_p99", percentile(0.99, of: cost.keptAlive), "ms", decimals: 3)
        Self.showResidentMemory()

        if !settings.networkOnly {
            complain("bench: 7/\(total) fan-out, \(counts.fanOutRounds) rounds of \(counts.fanOutEvents) events")
            let fanOut = try BenchFanOut.measure(events: counts.fanOutEvents, rounds: counts.fanOutRounds)
            Self.bench("fanout_per_event", fanOut.withListeners, "us", decimals: 3)
            Self.bench("fanout_bare_per_event", fanOut.bare, "us", decimals: 3)
            Self.bench("fanout_listeners_per_event", fanOut.listeners, "us", decimals: 3)
            Self.showResidentMemory()

            complain("bench: 8/\(total) crypto, 1 KiB message")
            let crypto = try BenchCrypto.measure(rounds: counts.cryptoRounds, roundSeconds: counts.cryptoRoundSeconds)
            Self.bench("crypto_encrypt_1KiB", crypto.encrypt, "us", decimals: 3)
            Self.bench("crypto_decrypt_1KiB", crypto.decrypt, "us", decimals: 3)
            Self.showResidentMemory()

            complain("bench: 9/\(total) one subscribe answer of \(counts.batchMessages) messages")
            let batch = try BenchBatch.measure(count: counts.batchMessages)
            complain(
                "bench: batch: resident memory \(batch.startKiB) KiB before, \(batch.peakKiB) KiB at the peak,"
                    + " \(batch.afterKiB) KiB a second after"
            )
            Self.bench("batch_100k_delivery", batch.rate, "msg/s", decimals: 0)
            Self.bench("batch_100k_peak_rss", Double(batch.peakKiB), "KiB", decimals: 0)
            Self.bench("batch_100k_rss_growth", Double(batch.afterKiB - batch.startKiB), "KiB", decimals: 0)
            Self.showResidentMemory()

            complain("bench: 10/\(total) JSON encoding, 1 KiB string and small dictionary")
            let json = try BenchJSON.measure(rounds: counts.jsonRounds, roundSeconds: counts.jsonRoundSeconds)
            Self.bench("json_encode_1KiB", json.string, "us", decimals: 3)
            Self.bench("json_encode_1KiB_foundation", json.stringFoundation, "us", decimals: 3)
            Self.bench("json_encode_dict", json.dictionary, "us", decimals: 3)
            Self.bench("json_encode_dict_foundation", json.dictionaryFoundation, "us", decimals: 3)
            Self.showResidentMemory()
        }

        complain("bench: \(total)/\(total) resident memory")
        guard let start = rssStart, let end = BenchMemory.residentKiB() else {
            throw BenchError("resident memory: cannot be read on this system")
        }
        Self.bench("rss_start", Double(start), "KiB", decimals: 0)
        Self.bench("rss_end", Double(end), "KiB", decimals: 0)
        if BenchMemory.returnFreePages(), let trimmed = BenchMemory.residentKiB() {
            Self.bench("rss_end_trimmed", Double(trimmed), "KiB", decimals: 0)
        }

        let lost = delivery.lost + pipelinedDelivery.lost
        if lost > 0 {
            complain("LegacyDemo bench: \(lost) of \(2 * counts.deliveryMessages) delivery messages were lost")
            return 1
        }
        return 0
    }

    /// The rows of one delivery workload: `<prefix>_throughput`, `<prefix>_lost`.
    private static func reportDelivery(
        _ delivery: (rate: Double, lost: Int, duplicated: Int, published: Double, received: Double),
        prefix: String
    ) {
        complain(
            "bench: \(prefix): last publish acknowledged after \(String(format: "%.2f", delivery.published)) s,"
                + " last message received after \(String(format: "%.2f", delivery.received)) s"
        )
        if delivery.duplicated > 0 { complain("bench: \(delivery.duplicated) messages arrived twice") }
        Self.bench("\(prefix)_throughput", delivery.rate, "msg/s", decimals: 0)
        Self.bench("\(prefix)_lost", Double(delivery.lost), "msg", decimals: 0)
        Self.showResidentMemory()
    }

    /// Workload 6 through the package's probe of its own transport (`RequestCostProbe`): the public API cannot tell a
    /// request that opened its connection from one that reused it.
    private static func requestCost(
        address: String,
        settings: BenchSettings
    ) throws -> (newConnection: [Double], keptAlive: [Double]) {
        do {
            return try RequestCostProbe.measure(
                origin: address,
                secure: settings.secure,
                anchorCertificatesFile: settings.caFile,
                count: settings.counts.requestCostRequests
            )
        } catch {
            throw BenchError("request cost: \(error)")
        }
    }

    /// `--storm SECONDS`: prints the storm's figures; status 1 when a call's block never ran.
    private static func storm(_ settings: BenchSettings, address: String, seconds: Double) throws -> Int32 {
        complain("bench: storm, \(BenchStorm.threads) threads calling time and publish unpaced for \(seconds) s")
        let figures = try BenchStorm.run(
            address: address,
            publishKey: settings.publishKey,
            subscribeKey: settings.subscribeKey,
            seconds: seconds
        )
        Self.bench("storm_calls", Double(figures.calls), "calls", decimals: 0)
        Self.bench("storm_calls_per_s", Double(figures.calls) / max(figures.seconds, 1e-9), "calls/s", decimals: 0)
        Self.bench("storm_rss_start", Double(figures.startKiB), "KiB", decimals: 0)
        Self.bench("storm_rss_peak", Double(figures.peakKiB), "KiB", decimals: 0)
        Self.bench("storm_rss_after", Double(figures.afterKiB), "KiB", decimals: 0)
        Self.bench("storm_answered", Double(figures.answered), "calls", decimals: 0)
        Self.bench("storm_timed_out", Double(figures.timedOut), "calls", decimals: 0)
        Self.bench("storm_other_errors", Double(figures.otherErrors), "calls", decimals: 0)
        Self.bench("storm_missing", Double(figures.missing), "calls", decimals: 0)
        Self.bench("storm_drain_s", figures.drainSeconds, "s")
        return figures.missing == 0 ? 0 : 1
    }
}
