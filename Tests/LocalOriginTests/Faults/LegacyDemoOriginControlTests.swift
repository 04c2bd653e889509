import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// The built `LegacyDemo` binary in origin mode, driven the way scripts drive it: `--fault` at start, then fault
// commands on standard input (`--control-stdin`), each acknowledged by one stdout line. The test command builds the
// binary before the tests run; it is looked up next to the test bundle, then in the package's `.build/debug`.

/// A running `LegacyDemo origin` with pipes on stdin and stdout.
private final class DemoProcess: @unchecked Sendable {
    // @unchecked: `output` and `errors` are `Locked` boxes; the process and the stdin pipe are only used by the
    // test's thread; each output handle is read by its own reader thread only.
    let process = SpawnedProcess()
    private let input = Pipe()
    private let stdout = Pipe()
    private let stderr = Pipe()
    private let output = Locked((text: "", ended: false))
    private let errors = Locked((text: "", ended: false))

    init(_ arguments: [String]) throws {
        self.process.executableURL = try DemoProcess.binary()
        self.process.arguments = arguments
        self.process.standardInput = self.input
        self.process.standardOutput = self.stdout
        self.process.standardError = self.stderr
        try self.process.run()
        DemoProcess.read(self.stdout.fileHandleForReading, into: self.output)
        DemoProcess.read(self.stderr.fileHandleForReading, into: self.errors)
    }

    /// Appends everything `handle` yields to `box` on a thread that ends at end of file (when the process exits).
    private static func read(_ handle: FileHandle, into box: Locked<(text: String, ended: Bool)>) {
        Thread {
            while true {
                let data = handle.nextChunk()
                if data.isEmpty { break }
                box.withLock { $0.text += String(decoding: data, as: UTF8.self) }
            }
            box.withLock { $0.ended = true }
        }.start()
    }

    /// True once both stdout and stderr reached their end (the process exited and everything was read).
    var outputEnded: Bool {
        self.output.withLock { $0.ended } && self.errors.withLock { $0.ended }
    }

    /// What the process wrote to stderr so far.
    var errorText: String {
        self.errors.withLock { $0.text }
    }

    /// Ends the process if the test did not, and waits for it (bounded).
    func finish() {
        try? self.input.fileHandleForWriting.close()
        if (try? eventuallyBlocking("the origin to exit", { !self.process.isRunning })) == nil {
            self.process.terminate()
            try? eventuallyBlocking("the origin to exit after SIGTERM") { !self.process.isRunning }
        }
    }

    var lines: [String] {
        self.output.withLock { $0.text }.split(separator: "\n").map(String.init)
    }

    /// Writes `text` to the process's stdin as is.
    func write(_ text: String) {
        self.input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Sends `command` and returns the next `ok`/`error` line it answers.
    func command(_ command: String) throws -> String {
        let before = self.lines.filter(Self.isAnswer).count
        self.input.fileHandleForWriting.write(Data((command + "\n").utf8))
        do {
            try eventuallyBlocking("an answer to \(command)") { self.lines.filter(Self.isAnswer).count > before }
        } catch {
            throw HTTPTestError("\(error); stdout so far: \(self.lines); stderr: \(self.errorText)")
        }
        return self.lines.filter(Self.isAnswer)[before]
    }

    /// Closes stdin (end of input) and waits for the output to end.
    func endInput() throws {
        try self.input.fileHandleForWriting.close()
        try eventuallyBlocking("the origin's output to end at end of input") { self.outputEnded }
        try eventuallyBlocking("the origin to exit at end of input") { !self.process.isRunning }
    }

    private static func isAnswer(_ line: String) -> Bool {
        line.hasPrefix("ok") || line.hasPrefix("error")
    }

    /// `LegacyDemo` next to the test bundle (whatever the build directory), else in `.build/debug` of the package.
    static func binary() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL {
            candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("LegacyDemo"))
            candidates.append(
                bundle.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("LegacyDemo")
            )
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/LegacyDemo"))
        guard let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) }) else {
            throw HTTPTestError(
                "LegacyDemo is not built; run `swift build` first (looked at \(candidates.map(\.path)))"
            )
        }
        return found
    }
}

@Suite(.holdsAThread) struct LegacyDemoOriginControlTests {
    @Test func faultsFromTheCommandLineAndFromStdinReachClients() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--control-stdin", "--fault", "503 time count=1"])
        defer { demo.finish() }
        try eventuallyBlocking("!demo.lines.isEmpty") { !demo.lines.isEmpty }
        let first = try #require(demo.lines.first)
        #expect(first.hasPrefix("listening on 127.0.0.1:"))
        let port = try #require(UInt16(first.dropFirst("listening on 127.0.0.1:".count)))
        let client = try HTTPTestClient(port: port)

        // --fault at start: the first time request gets 503, the next is answered.
        #expect(try client.get("/time/0").status == 503)
        #expect(try client.get("/time/0").status == 200)

        // A fault from stdin, scoped to subscribe.
        #expect(try demo.command("fault 403 subscribe") == "ok fault 2 403 subscribe")
        #expect(try client.get("/subscribe/sub/c/0/0").status == 403)
        let cursorText = try client.get("/time/0").bodyText.dropFirst().dropLast()
        #expect(try client.get("/publish/pub/sub/0/c/0/%22before%22").status == 200)

        // Refusal, kept across a restart that keeps the store.
        #expect(try demo.command("fault refuse-drop") == "ok fault 3 refuse-drop")
        try client.expectEndOfStream()
        #expect(connectError(port: port) == ECONNREFUSED)
        #expect(try demo.command("restart keep") == "ok restarted 127.0.0.1:\(port) keep")
        #expect(connectError(port: port) == ECONNREFUSED)
        #expect(try demo.command("clear") == "ok cleared")

        // The message published before the restart is caught up from the old cursor.
        let fresh = try HTTPTestClient(port: port)
        let answer = try subscribeAnswer(try fresh.get("/subscribe/sub/c/0/\(cursorText)"))
        #expect(answer.messages == ["before"])

        #expect(try demo.command("fault teapot").hasPrefix("error"))
        try demo.endInput()
        #expect(demo.process.terminationStatus == 0, "stderr: \(demo.errorText)")
        #expect(demo.lines.last == "stopped on end of input")
        #expect(demo.errorText.isEmpty)  // also no sanitizer report when the binary is built with one
    }

    @Test func verboseLogShowsThatCredentialsWereSentButNotTheCredentials() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--verbose", "--control-stdin"])
        defer { demo.finish() }
        try eventuallyBlocking("!demo.lines.isEmpty") { !demo.lines.isEmpty }
        let first = try #require(demo.lines.first)
        let port = try #require(UInt16(first.dropFirst("listening on 127.0.0.1:".count)))
        let client = try HTTPTestClient(port: port)
        let auth = "auth-key-0123456789abcdef"
        let signature = "v2.jMPRI00wQ3Q6P0s1WpxvBhl-Hsu3n_LbDAYeR65-H-8"
        #expect(try client.get("/time/0?uuid=u&auth=\(auth)&signature=\(signature)&timestamp=1").status == 200)
        #expect(try client.get("/v1/push/sub-key/sub/devices/AB01?uuid=u?auth=\(auth)").status != 0)
        try eventuallyBlocking("demo.lines.count >= 3") { demo.lines.count >= 3 }
        let log = demo.lines.dropFirst().joined(separator: "\n")
        #expect(!log.contains(auth) && !log.contains(signature), "\(log)")
        #expect(log.contains("200 GET /time/0?uuid=u&auth=set(…cdef)&signature=set(…-H-8)&timestamp=1"), "\(log)")
        #expect(log.contains("?uuid=u?auth=set(…cdef)"), "\(log)")
    }

    @Test func quitStopsTheOrigin() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--control-stdin"])
        defer { demo.finish() }
        try eventuallyBlocking("demo.lines.first?.hasPrefix(\"listening on \") == true") {
            demo.lines.first?.hasPrefix("listening on ") == true
        }
        demo.write("  # a comment and a blank line, both ignored\n\n  quit  \n")
        try eventuallyBlocking("!demo.process.isRunning && demo.outputEnded") {
            !demo.process.isRunning && demo.outputEnded
        }
        #expect(demo.process.terminationStatus == 0)
        #expect(demo.lines == [demo.lines[0], "ok quitting", "stopped on quit"])
    }

    @Test func aSecretKeyNeedsThePublishKeyItSignsWith() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--secret-key", "sec-c-1"])
        defer { demo.finish() }
        try eventuallyBlocking("!demo.process.isRunning && demo.outputEnded") {
            !demo.process.isRunning && demo.outputEnded
        }
        #expect(demo.process.terminationStatus == 2)
        #expect(demo.lines.isEmpty)
        #expect(demo.errorText.contains("--secret-key needs --publish-key"))
    }

    @Test func aBadFaultOnTheCommandLineIsAUsageError() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--fault", "503 count=0"])
        defer { demo.finish() }
        try eventuallyBlocking("!demo.process.isRunning && demo.outputEnded") {
            !demo.process.isRunning && demo.outputEnded
        }
        #expect(demo.process.terminationStatus == 2)
        #expect(demo.lines.isEmpty)
        #expect(demo.errorText.contains("--fault 503 count=0: invalid fault: count must be at least 1"))
    }
}
