import Foundation
import Testing

/// `LegacyDemo soak` as users and scripts run it: the built binary, its output and its exit status.
@Suite(.serialized)
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

    @Test func noArgumentsRunsTheSoakOnThreeRandomChannels() throws {
        let demo = try DemoProcess([])
        defer { demo.stop() }
        let channels = try #require(demo.waitForLine(containing: "channels: "), "stderr: \(demo.errors)")
        #expect(channels.split(separator: " ").dropFirst(2).count == 3, "\(channels)")
        #expect(demo.waitForLine(containing: "subscribed on ") != nil)
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
        let origin = try DemoProcess(["origin", "--port", "0", "--verbose"])
        defer { origin.stop() }
        let address = try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        let (demo, status) = try self.runToEnd([
            "soak", "--origin", String(address), "--publish-key", "demo", "--subscribe-key", "demo", "--insecure",
            "--cipher-key", "enigma", "--idle", "0.05", "--duration", "2",
        ])
        try self.expectCleanResult(demo, status)
        origin.stop()
        let publishes = origin.output.split(separator: "\n").filter { $0.contains("/publish/") }
        #expect(!publishes.isEmpty)
        // In clear the payload's quoted keys are on the request line (`%22seq%22`); encrypted, the payload is one
        // quoted Base64 string, in which no quote can occur.
        #expect(!publishes.contains { $0.contains("%22seq%22") || $0.contains("%22body%22") })
    }

    @Test func soakAgainstASeparateOriginProcess() throws {
        let origin = try DemoProcess(["origin", "--port", "0", "--verbose"])
        defer { origin.stop() }
        let address = try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        let (demo, status) = try self.runToEnd([
            "soak", "--origin", String(address), "--publish-key", "demo", "--subscribe-key", "demo", "--insecure",
            "--idle", "0.05", "--duration", "2",
        ])
        try self.expectCleanResult(demo, status)
        #expect(!demo.output.contains("embedded origin"))
        origin.stop()
        let publishes = origin.output.split(separator: "\n").filter { $0.contains("/publish/demo/demo/") }
        #expect(publishes.count == Int(demo.result?["sent"] ?? -1))
        #expect(publishes.allSatisfy { $0.contains("%22seq%22") })
    }

    @Test func stopWhileTheOriginIsGoneStillReports() throws {
        let origin = try DemoProcess(["origin", "--port", "0"])
        defer { origin.stop() }
        let address = try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        let demo = try DemoProcess([
            "soak", "--origin", String(address), "--publish-key", "demo", "--subscribe-key", "demo", "--insecure",
            "--idle", "0.05", "--show-all-logs",
        ])
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

    @Test(arguments: [
        (["soak", "--bogus"], "unknown flag --bogus"),
        (["soak", "--idle", "soon"], "--idle must be a number"),
        (["soak", "--duration", "-1"], "--duration must be a number"),
        (["soak", "--channels", " , ,"], "--channels needs at least one channel name"),
        (["soak", "--origin", "127.0.0.1:1"], "--origin needs --publish-key and --subscribe-key"),
        (["--idle", "1"], "unknown mode --idle"),
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
