import Foundation
import TestSupport
import Testing

/// `LegacyDemo bench` as Scripts/bench.sh and users run it: the built binary, its `BENCH` lines and exit status.
/// No figure is judged for speed (docs/DESIGN.md §10); the tests check that every workload ran and reported a sane
/// value.
@Suite(.serialized, .holdsAThread)
struct BenchCommandTests {
    /// Every figure with its unit, in the order the command prints them.
    private static let figures: [(name: String, unit: String)] = Self.everywhere + Self.glibcOnly
    #if canImport(Glibc)
    /// The resident set after `malloc_trim`, printed where glibc has it.
    private static let glibcOnly: [(name: String, unit: String)] = [("rss_end_trimmed", "KiB")]
    #else
    private static let glibcOnly: [(name: String, unit: String)] = []
    #endif
    #if os(Linux)
    /// The idle client's figures, read from /proc/self/status.
    private static let procOnly: [(name: String, unit: String)] = [
        ("idle_client_rss", "KiB"), ("idle_client_anonymous_rss", "KiB"), ("idle_client_threads", "threads"),
    ]
    #else
    private static let procOnly: [(name: String, unit: String)] = []
    #endif
    private static let everywhere: [(name: String, unit: String)] =
        [
            ("publish_throughput", "msg/s"), ("publish_async_throughput", "msg/s"), ("publish_sequential", "msg/s"),
            ("publish_async_sequential", "msg/s"), ("publish_pipelined_throughput", "msg/s"), ("latency_p50", "ms"),
            ("latency_p99", "ms"), ("delivery_throughput", "msg/s"), ("delivery_lost", "msg"),
            ("delivery_pipelined_throughput", "msg/s"), ("delivery_pipelined_lost", "msg"), ("request_new_p50", "ms"),
            ("request_new_p99", "ms"),
            ("request_kept_p50", "ms"), ("request_kept_p99", "ms"), ("fanout_per_event", "us"),
            ("fanout_bare_per_event", "us"), ("fanout_listeners_per_event", "us"), ("crypto_encrypt_1KiB", "us"),
            ("crypto_decrypt_1KiB", "us"), ("batch_100k_delivery", "msg/s"), ("batch_100k_peak_rss", "KiB"),
            ("batch_100k_rss_growth", "KiB"), ("json_encode_1KiB", "us"), ("json_encode_1KiB_foundation", "us"),
            ("json_encode_dict", "us"), ("json_encode_dict_foundation", "us"), ("rss_start", "KiB"), ("rss_end", "KiB"),
            ("publish_switches", "switches"),
        ] + Self.procOnly

    /// Runs the demo to its end (stopping it at the deadline) and returns it with its exit status.
    private func runToEnd(_ arguments: [String], timeout: Double = 120) throws -> (DemoProcess, Int32?) {
        let demo = try DemoProcess(arguments)
        let status = demo.waitForExit(timeout: timeout)
        demo.stop()
        return (demo, status)
    }

    /// The `BENCH` lines of `output` by name, as (value, unit); records an issue for any other stdout line that is
    /// not a `#` comment, or a malformed `BENCH` line.
    private func figures(in output: String) -> [String: (value: Double, unit: String)] {
        var found: [String: (Double, String)] = [:]
        for line in output.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 4, fields[0] == "BENCH", let value = Double(fields[2]), value.isFinite else {
                Issue.record("not a well-formed BENCH line: \(line)")
                continue
            }
            #expect(found[String(fields[1])] == nil, "\(fields[1]) printed twice")
            found[String(fields[1])] = (value, String(fields[3]))
        }
        return found
    }

    @Test func quickRunOnTheEmbeddedOriginPrintsEveryFigure() throws {
        let (demo, status) = try self.runToEnd(["bench", "--quick"])
        #expect(status == 0, "stdout: \(demo.output)\nstderr: \(demo.errors)")
        #expect(demo.output.hasPrefix("# LegacyDemo bench on embedded origin 127.0.0.1:"))
        let found = self.figures(in: demo.output)
        #expect(found.count == Self.figures.count, "\(found.keys.sorted())")
        for (name, unit) in Self.figures {
            let figure = try #require(found[name], "missing BENCH \(name); stdout: \(demo.output)")
            #expect(figure.unit == unit, "\(name)")
            // A difference of two timings, and memory given back: the two figures that may be negative.
            let signed = ["fanout_listeners_per_event", "batch_100k_rss_growth"].contains(name)
            #expect(figure.value >= 0 || signed, "\(name) = \(figure.value)")
        }
        #expect(found["delivery_lost"]?.value == 0)
        #expect(found["delivery_pipelined_lost"]?.value == 0)
        for name in [
            "publish_throughput", "publish_async_throughput", "publish_sequential", "publish_async_sequential",
            "publish_pipelined_throughput", "delivery_throughput", "delivery_pipelined_throughput",
            "fanout_per_event", "crypto_encrypt_1KiB", "batch_100k_delivery", "batch_100k_peak_rss",
            "json_encode_1KiB", "json_encode_1KiB_foundation", "json_encode_dict", "json_encode_dict_foundation",
            "publish_switches",
        ] + Self.procOnly.map(\.name) {
            #expect((found[name]?.value ?? 0) > 0, "\(name)")
        }
        #expect((found["latency_p50"]?.value ?? 0) <= (found["latency_p99"]?.value ?? 0))
        for kind in ["new", "kept"] {
            #expect((found["request_\(kind)_p50"]?.value ?? 0) > 0)
            #expect((found["request_\(kind)_p50"]?.value ?? 0) <= (found["request_\(kind)_p99"]?.value ?? 0))
        }
        #expect((found["rss_start"]?.value ?? 0) > 0)
        // Progress goes to stderr, one line per workload, never to stdout.
        for step in 1...12 { #expect(demo.errors.contains("bench: \(step)/12 ")) }
    }

    @Test func givenOriginIsUsedWithItsKeys() throws {
        let origin = try DemoProcess(["origin", "--port", "0", "--publish-key", "pub-k", "--subscribe-key", "sub-k"])
        defer { origin.stop() }
        let address = try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        let (demo, status) = try self.runToEnd([
            "bench", "--origin", String(address), "--publish-key", "pub-k", "--subscribe-key", "sub-k", "--messages",
            "40",
        ])
        #expect(status == 0, "stderr: \(demo.errors)")
        #expect(demo.output.hasPrefix("# LegacyDemo bench on \(address), "))
        let found = self.figures(in: demo.output)
        #expect(Set(found.keys) == Set(Self.figures.map(\.name)))
        #expect(found["delivery_lost"]?.value == 0)
        #expect(found["delivery_pipelined_lost"]?.value == 0)
    }

    @Test func overTLSTheNetworkWorkloadsRunThroughATerminatorWithATestCA() throws {
        let origin = try DemoProcess(["origin", "--port", "0"])
        defer { origin.stop() }
        let listening = try #require(origin.waitForLine(containing: "listening on 127.0.0.1:"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tls-\(UUID().uuidString)")
        let terminator = try DemoProcess(
            [
                "python3", "-u", DemoProcess.packageRoot.appendingPathComponent("Scripts/tls_terminator.py").path,
                "serve", "--upstream", String(listening.split(separator: ":").last ?? ""), "--test-ca", folder.path,
                "--cleanup", folder.path,
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env")
        )
        defer { terminator.stop() }
        let port = try #require(terminator.waitForLine(containing: "listening ")).dropFirst("listening ".count)
        let ca = try #require(terminator.waitForLine(containing: "ca ")).dropFirst("ca ".count)
        let (demo, status) = try self.runToEnd([
            "bench", "--origin", "127.0.0.1:\(port)", "--secure", "--ca-file", String(ca), "--network-only",
            "--messages", "30",
        ])
        #expect(status == 0, "stdout: \(demo.output)\nstderr: \(demo.errors)")
        #expect(demo.output.hasPrefix("# LegacyDemo bench on 127.0.0.1:\(port) over TLS, "))
        let found = self.figures(in: demo.output)
        let offline = ["fanout", "crypto", "batch", "json"]
        let network = Self.figures.map(\.name).filter { name in !offline.contains { name.hasPrefix($0) } }
        #expect(Set(found.keys) == Set(network))
        #expect(found["delivery_lost"]?.value == 0)
        for step in 1...8 { #expect(demo.errors.contains("bench: \(step)/8 ")) }
        // Every connection the clients and the probe made was TLS.
        #expect(terminator.output.contains("\ntls\n"))
        #expect(!terminator.output.contains("plain") && !terminator.output.contains("tls-rejected"))
    }

    @Test func failingPublishesEndTheRunWithAClearErrorAndStatusOne() throws {
        let origin = try DemoProcess(["origin", "--port", "0", "--fault", "500 publish"])
        defer { origin.stop() }
        let address = try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        let (demo, status) = try self.runToEnd(["bench", "--origin", String(address), "--messages", "20"], timeout: 60)
        #expect(status == 1, "stdout: \(demo.output)\nstderr: \(demo.errors)")
        #expect(demo.errors.contains("LegacyDemo: publish throughput: publish failed:"), "stderr: \(demo.errors)")
        #expect(!demo.output.contains("BENCH publish_throughput"))
    }

    /// The workloads the bench runs in child processes print their own figures, and only those.
    @Test(arguments: [
        ("fan-out", ["fanout_per_event", "fanout_bare_per_event", "fanout_listeners_per_event"]),
        ("batch", ["batch_100k_delivery", "batch_100k_peak_rss", "batch_100k_rss_growth"]),
    ])
    func oneWorkloadAlonePrintsOnlyItsFigures(workload: String, names: [String]) throws {
        let (demo, status) = try self.runToEnd(["bench", "--workload", workload, "--messages", "5"])
        #expect(status == 0, "stdout: \(demo.output)\nstderr: \(demo.errors)")
        #expect(self.figures(in: demo.output).keys.sorted() == names.sorted(), "stdout: \(demo.output)")
    }

    @Test(arguments: [
        (["bench", "--fast"], "unknown flag --fast"),
        (["bench", "--publish-key", "k"], "--publish-key needs --origin"),
        (["bench", "--origin", "http://127.0.0.1:1"], "--origin takes HOST:PORT"),
        (["bench", "--messages", "0"], "--messages must be a whole number"),
        (["bench", "--origin"], "--origin needs a value"),
        (["bench", "--secure"], "--secure needs --origin"),
        (["bench", "--origin", "127.0.0.1:1", "--ca-file", "x.pem"], "--ca-file needs --secure"),
        (["bench", "--workload", "crypto"], "--workload takes fan-out, batch or idle"),
    ])
    func badFlagsGiveTheUsageAndExitTwo(arguments: [String], message: String) throws {
        let (demo, status) = try self.runToEnd(arguments, timeout: 30)
        #expect(status == 2)
        #expect(demo.errors.contains(message), "stderr: \(demo.errors)")
        #expect(demo.errors.contains("usage:"))
        #expect(demo.errors.contains("LegacyDemo bench [--origin HOST:PORT"))
        #expect(demo.output.isEmpty)
    }
}
