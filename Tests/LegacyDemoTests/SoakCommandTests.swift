import Foundation
import TestSupport
import Testing

/// `LegacyDemo soak` as users and scripts run it: the built binary, its output and its exit status.
@Suite(.serialized, .holdsAThread)
struct SoakCommandTests {
    private static let resultKeys = [
        "sent", "failed", "received", "matched", "lost", "duplicated", "corrupted", "unconfirmed", "p50_ms", "p99_ms",
    ]

    /// Runs a soak to its end and returns it, stopped.
    private func runToEnd(_ arguments: [String]) throws -> (process: DemoProcess, status: Int32?) {
        let demo = try DemoProcess(arguments)
        let status = demo.waitForExit(timeout: 60)
        demo.stop()
        return (demo, status)
    }

    /// Starts `LegacyDemo origin` on a kernel-chosen port with `flags`; returns it (the caller stops it) and the
    /// address it listens on.
    private func startOrigin(_ flags: [String] = []) throws -> (process: DemoProcess, address: String) {
        let origin = try DemoProcess(["origin", "--port", "0"] + flags)
        do {
            let line = try #require(origin.waitForLine(containing: "listening on "), "stderr: \(origin.errors)")
            return (origin, String(line.dropFirst("listening on ".count)))
        } catch {
            origin.stop()
            throw error
        }
    }

    /// A soak against the origin at `address` with the demo keys over plain HTTP, and `flags`.
    private static func soakArguments(against address: String, _ flags: [String]) -> [String] {
        ["soak", "--origin", address, "--publish-key", "demo", "--subscribe-key", "demo", "--insecure"] + flags
    }

    /// The RESULT line has every field, in order, and shows a clean run with traffic.
    private func expectCleanResult(_ demo: DemoProcess, _ status: Int32?) throws {
        let last = try #require(demo.output.split(separator: "\n").last, "no output; stderr: \(demo.errors)")
        #expect(last.split(separator: " ").dropFirst().map { String($0.split(separator: "=")[0]) } == Self.resultKeys)
        let result = try #require(demo.result, "last line is not a RESULT line: \(last)")
        #expect(result["lost"] == 0)
        #expect(result["duplicated"] == 0)
        #expect(result["corrupted"] == 0)
        #expect((result["sent"] ?? 0) > 0)
        #expect(result["matched"] == result["sent"])
        #expect(status == 0, "stdout: \(demo.output)\nstderr: \(demo.errors)")
    }

    @Test func shortSoakOnTheEmbeddedOriginPasses() throws {
        let (demo, status) = try self.runToEnd(["soak", "--idle", "0.05", "--duration", "3"])
        try self.expectCleanResult(demo, status)
        #expect(demo.output.contains("embedded origin listening on 127.0.0.1:"))
        let rss = try #require(demo.output.split(separator: "\n").first { $0.hasPrefix("RSS: start ") })
        #expect(rss.contains("KiB, end "))
    }

    /// Output to a pipe (a CI log): one progress line per interval, so the log shows the run is alive and how it
    /// goes — and on a pipe nothing but plain lines.
    @Test func aLogGetsOneProgressLinePerInterval() throws {
        let (demo, status) = try self.runToEnd(["soak", "--idle", "0.05", "--duration", "3", "--progress-every", "0.5"])
        try self.expectCleanResult(demo, status)
        let lines = demo.output.split(separator: "\n").map(String.init)
        let progress = lines.filter { $0.contains(" progress ") }
        // About six in 3 s; a loaded machine may delay a timer, never add one.
        #expect((3...7).contains(progress.count), "\(progress)")
        let pattern =
            #/^\d\d:\d\d:\d\d\.\d{3} progress (\d+) s: connected, sent (\d+), received (\d+), in flight \d+, lost 0, failed 0, duplicated 0, corrupted 0, latency p50 [\d.]+ ms p99 [\d.]+ ms, RSS [\d.]+ MiB$/#
        var sent: [Int] = []
        for line in progress {
            let match = try #require(line.wholeMatch(of: pattern), "\(line)")
            sent.append(Int(match.output.2) ?? -1)
        }
        #expect(sent == sent.sorted() && (sent.last ?? 0) > (sent.first ?? 0), "the counts move: \(sent)")
        // The progress lines come before the report, and the report is the end of the output.
        let report = try #require(lines.firstIndex(of: "--- soak report ---"))
        #expect(lines.lastIndex { $0.contains(" progress ") }.map { $0 < report } == true)
        #expect(!demo.output.contains("\u{1B}"))
    }

    @Test func noArgumentsRunsTheSoakOnThreeRandomChannels() throws {
        let demo = try DemoProcess([])
        defer { demo.stop() }
        let channels = try #require(demo.waitForLine(containing: "channels: "), "stderr: \(demo.errors)")
        #expect(channels.split(separator: " ").dropFirst(2).count == 3, "\(channels)")
        #expect(demo.waitForLine(containing: "subscribed on ") != nil)
        // A soak stopped before any publish was acknowledged fails on no evidence; wait for the first one.
        #expect(demo.waitForLine(containing: "first publish acknowledged") != nil)
        demo.interrupt()
        #expect(demo.waitForExit(timeout: 30) == 0, "stdout: \(demo.output)")
        let result = try #require(demo.result, "no RESULT line: \(demo.output)")
        #expect(result["lost"] == 0 && result["duplicated"] == 0 && result["corrupted"] == 0)
        #expect(demo.output.contains("idle 10.0 s"))
    }

    @Test func channelNamesLoseTheirWhiteSpace() throws {
        let (demo, status) = try self.runToEnd(["soak", "--channels", " a , b c ", "--idle", "0.05", "--duration", "2"])
        try self.expectCleanResult(demo, status)
        #expect(demo.output.contains("subscribed on a, bc\n"))
        // Two channels: every round publishes one message to each.
        #expect(Int(demo.result?["sent"] ?? 1) % 2 == 0)
    }

    @Test func sigintMidRunStopsWithTheReport() throws {
        let demo = try DemoProcess(["soak", "--idle", "0.05", "--show-all-logs"])
        defer { demo.stop() }
        #expect(demo.waitForLine(containing: " received #") != nil, "no message arrived: \(demo.errors)")
        demo.interrupt()
        let status = demo.waitForExit(timeout: 30)
        try self.expectCleanResult(demo, status)
        #expect(demo.output.contains("stopped on SIGINT"))
        #expect(demo.output.contains("unsubscribe: done"))
    }

    @Test func cipherKeySoakPassesAndPublishesCiphertext() throws {
        let (origin, address) = try self.startOrigin(["--verbose"])
        defer { origin.stop() }
        let (demo, status) = try self.runToEnd(
            Self.soakArguments(against: address, ["--cipher-key", "enigma", "--idle", "0.05", "--duration", "2"])
        )
        try self.expectCleanResult(demo, status)
        origin.stop()
        let publishes = origin.output.split(separator: "\n").filter { $0.contains("/publish/") }
        #expect(!publishes.isEmpty)
        // In clear the payload's quoted keys are on the request line (`%22seq%22`); encrypted, the payload is one
        // quoted Base64 string, in which no quote can occur.
        #expect(!publishes.contains { $0.contains("%22seq%22") || $0.contains("%22body%22") })
    }

    /// Messages that arrive seconds late are late, not lost: the end waits while messages keep arriving. Every
    /// subscribe answer here is held 2 s, so the last messages arrive up to about 4 s after their publish, later
    /// than the 3 s a fixed wait gave them.
    @Test func lateMessagesAtTheEndAreWaitedFor() throws {
        let (origin, address) = try self.startOrigin(["--fault", "delay=2 subscribe"])
        defer { origin.stop() }
        let (demo, status) = try self.runToEnd(
            Self.soakArguments(against: address, ["--idle", "0.05", "--duration", "5"])
        )
        try self.expectCleanResult(demo, status)
        // The delay did stretch delivery past the old fixed wait.
        #expect((demo.result?["p99_ms"] ?? 0) > 3_000, "stdout: \(demo.output)")
    }

    @Test func soakAgainstASeparateOriginProcess() throws {
        let (origin, address) = try self.startOrigin(["--verbose"])
        defer { origin.stop() }
        let (demo, status) = try self.runToEnd(
            Self.soakArguments(against: address, ["--idle", "0.05", "--duration", "2"])
        )
        try self.expectCleanResult(demo, status)
        #expect(!demo.output.contains("embedded origin"))
        origin.stop()
        let publishes = origin.output.split(separator: "\n").filter { $0.contains("/publish/demo/demo/") }
        #expect(publishes.count == Int(demo.result?["sent"] ?? -1))
        #expect(publishes.allSatisfy { $0.contains("%22seq%22") })
    }

    @Test func stopWhileTheOriginIsGoneStillReports() throws {
        let (origin, address) = try self.startOrigin()
        defer { origin.stop() }
        let demo = try DemoProcess(Self.soakArguments(against: address, ["--idle", "0.05", "--show-all-logs"]))
        defer { demo.stop() }
        #expect(demo.waitForLine(containing: " received #") != nil, "no message arrived: \(demo.errors)")
        origin.stop()
        #expect(demo.waitForLine(containing: " failed: ") != nil, "the soak never noticed the origin was gone")
        demo.interrupt()
        // A hang guard, not a speed check: the leave is abandoned after 10 s at the latest.
        let status = demo.waitForExit(timeout: 30)
        #expect(status == 0 || status == 1, "stdout: \(demo.output)")
        #expect(demo.result != nil, "no RESULT line: \(demo.output)")
        #expect(demo.output.contains("stopped on SIGINT"))
        // Whether the client has already processed the loss when the stop begins is a race (the unsubscribe is
        // then reported with or without "(offline: …)"); either way it completes and the report follows.
        #expect(demo.output.contains("unsubscribe: done"), "stdout: \(demo.output)")
    }

    // MARK: - TLS, and soaks without evidence

    /// A `LegacyDemo origin` and `Scripts/tls_terminator.py` in front of it with a test CA it makes; both stopped by
    /// `stop()`.
    private struct TLSOrigin {
        let origin: DemoProcess
        let terminator: DemoProcess
        /// `127.0.0.1:PORT` of the terminator.
        let address: String
        /// The test CA's certificate.
        let caFile: String

        static func start() throws -> TLSOrigin {
            let origin = try DemoProcess(["origin", "--port", "0"])
            guard let listening = origin.waitForLine(containing: "listening on 127.0.0.1:") else {
                origin.stop()
                throw DemoProcessError.missingBinary("origin did not start: \(origin.errors)")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("soak-tls-\(UUID().uuidString)")
            let script = DemoProcess.packageRoot.appendingPathComponent("Scripts/tls_terminator.py")
            let terminator = try DemoProcess(
                [
                    "python3", "-u", script.path, "serve", "--upstream",
                    String(listening.split(separator: ":").last ?? ""),
                    "--test-ca", folder.path, "--cleanup", folder.path, "--quiet",
                ],
                executable: URL(fileURLWithPath: "/usr/bin/env")
            )
            guard let port = terminator.waitForLine(containing: "listening "),
                let ca = terminator.waitForLine(containing: "ca ")
            else {
                terminator.stop()
                origin.stop()
                throw DemoProcessError.missingBinary("terminator did not start: \(terminator.errors)")
            }
            return TLSOrigin(
                origin: origin,
                terminator: terminator,
                address: "127.0.0.1:\(port.dropFirst("listening ".count))",
                caFile: String(ca.dropFirst("ca ".count))
            )
        }

        func stop() {
            self.terminator.stop()
            self.origin.stop()
        }
    }

    @Test func aTLSSoakThroughATerminatorWithATestCAPasses() throws {
        let tls = try TLSOrigin.start()
        defer { tls.stop() }
        let (demo, status) = try self.runToEnd([
            "soak", "--origin", tls.address, "--publish-key", "demo", "--subscribe-key", "demo", "--secure",
            "--ca-file", tls.caFile, "--idle", "0.05", "--duration", "3",
        ])
        try self.expectCleanResult(demo, status)
        #expect(demo.output.contains("connecting to \(tls.address) (TLS)"))
        #expect(demo.output.contains("connected to \(tls.address)"))
    }

    @Test func aTLSSoakTrustsTheCAThatSSLCertFileNames() throws {
        let tls = try TLSOrigin.start()
        defer { tls.stop() }
        let demo = try DemoProcess(
            [
                "soak", "--origin", tls.address, "--publish-key", "demo", "--subscribe-key", "demo", "--idle", "0.05",
                "--duration", "2",
            ],
            environment: ["SSL_CERT_FILE": tls.caFile]
        )
        let status = demo.waitForExit(timeout: 60)
        demo.stop()
        try self.expectCleanResult(demo, status)
    }

    @Test func aSoakThatNeverConnectsFailsWithTheTLSError() throws {
        // TLS to a terminator whose CA the soak does not trust: the handshake is refused, nothing is ever sent.
        let tls = try TLSOrigin.start()
        defer { tls.stop() }
        let (demo, status) = try self.runToEnd([
            "soak", "--origin", tls.address, "--publish-key", "demo", "--subscribe-key", "demo", "--secure",
            "--idle", "0.05", "--duration", "2",
        ])
        #expect(status == 1, "stdout: \(demo.output)")
        let result = try #require(demo.result, "no RESULT line: \(demo.output)")
        #expect(result["sent"] == 0 && result["lost"] == 0)
        let verdict = try #require(demo.output.split(separator: "\n").dropLast().last)
        #expect(
            verdict.hasPrefix("FAIL: never connected to the origin (-1202 The certificate of 127.0.0.1"),
            "\(verdict)"
        )
        #expect(!demo.output.contains("\nPASS\n"))
    }

    @Test func aSoakWhosePublishesAreNeverAcknowledgedFails() throws {
        // A plain origin that accepts only another publish key: connected and subscribed, every publish refused.
        let (origin, address) = try self.startOrigin(["--publish-key", "only-this-key"])
        defer { origin.stop() }
        let (demo, status) = try self.runToEnd(
            Self.soakArguments(against: address, ["--idle", "0.05", "--duration", "2"])
        )
        #expect(status == 1, "stdout: \(demo.output)")
        let result = try #require(demo.result, "no RESULT line: \(demo.output)")
        #expect(result["sent"] == 0)
        #expect((result["failed"] ?? 0) > 0)
        let verdict = try #require(demo.output.split(separator: "\n").dropLast().last)
        #expect(verdict == "FAIL: the origin acknowledged no publish (sent=0)")
    }

    @Test(arguments: [
        (["soak", "--bogus"], "unknown flag --bogus"),
        (["soak", "--ca-file", "ca.pem"], "--ca-file needs --origin"),
        (
            [
                "soak", "--origin", "127.0.0.1:1", "--publish-key", "p", "--subscribe-key", "s", "--insecure",
                "--ca-file", "x",
            ],
            "--ca-file is for TLS: it excludes --insecure"
        ),
        (
            [
                "soak", "--origin", "127.0.0.1:1", "--publish-key", "p", "--subscribe-key", "s", "--ca-file",
                "no/such.pem",
            ],
            "--ca-file no/such.pem is not a readable file"
        ),
        (["soak", "--idle", "soon"], "--idle must be a number"),
        (["soak", "--duration", "-1"], "--duration must be a number"),
        // Issue 31: a far duration crashed the soak when it started waiting for its end.
        (["soak", "--duration", "1e10"], "--duration must be a number of seconds from 0 to 31536000 (a year)"),
        (["soak", "--duration", "inf"], "--duration must be a number of seconds from 0 to 31536000 (a year)"),
        (["soak", "--idle", "nan"], "--idle must be a number of seconds from 0 to 31536000 (a year)"),
        (["soak", "--background-every", "1e300"], "--background-every must be a number of seconds from 0"),
        (["soak", "--channels", " , ,"], "--channels needs at least one channel name"),
        (["soak", "--origin", "127.0.0.1:1"], "--origin needs --publish-key and --subscribe-key"),
        (["--idle", "1"], "unknown mode --idle"),
        (["soak", "--progress-every", "0"], "--progress-every must be more than 0 seconds"),
    ])
    func badFlagsGiveTheUsageAndExitTwo(arguments: [String], message: String) throws {
        let (demo, status) = try self.runToEnd(arguments)
        #expect(status == 2)
        #expect(demo.errors.contains(message), "stderr: \(demo.errors)")
        #expect(demo.errors.contains("usage:"))
        #expect(demo.errors.contains("LegacyDemo soak [--channels a,b,c]"))
        #expect(demo.output.isEmpty)
    }
}
