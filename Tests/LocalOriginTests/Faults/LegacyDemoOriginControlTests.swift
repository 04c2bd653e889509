import Foundation
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The built `LegacyDemo` binary in origin mode, driven the way scripts drive it: `--fault` at start, then fault
// commands on standard input (`--control-stdin`), each acknowledged by one stdout line. The test command builds the
// binary before the tests run; it is looked up next to the test bundle, then in the package's `.build/debug`.

/// A running `LegacyDemo origin` with pipes on stdin and stdout.
private final class DemoProcess: @unchecked Sendable {
    // @unchecked: `output` is an `HTTPLocked` box; the process and pipes are only used by the test's thread, except
    // the stdout handle, which only the reader thread reads.
    let process = Process()
    private let input = Pipe()
    private let stdout = Pipe()
    private let output = HTTPLocked((text: "", ended: false))

    init(_ arguments: [String]) throws {
        self.process.executableURL = try DemoProcess.binary()
        self.process.arguments = arguments
        self.process.standardInput = self.input
        self.process.standardOutput = self.stdout
        self.process.standardError = FileHandle.nullDevice
        try self.process.run()
        let handle = self.stdout.fileHandleForReading
        let output = self.output
        Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.withLock { $0.text += String(decoding: data, as: UTF8.self) }
            }
            output.withLock { $0.ended = true }
        }.start()
    }

    /// Ends the process if the test did not, and waits for it (bounded).
    func finish() {
        try? self.input.fileHandleForWriting.close()
        if !waitUntil(within: .seconds(10), { !self.process.isRunning }) {
            self.process.terminate()
            _ = waitUntil(within: .seconds(10)) { !self.process.isRunning }
        }
    }

    var lines: [String] {
        self.output.withLock { $0.text }.split(separator: "\n").map(String.init)
    }

    /// Sends `command` and returns the next `ok`/`error` line it answers.
    func command(_ command: String) throws -> String {
        let before = self.lines.filter(Self.isAnswer).count
        self.input.fileHandleForWriting.write(Data((command + "\n").utf8))
        guard waitUntil({ self.lines.filter(Self.isAnswer).count > before }) else {
            throw HTTPTestError("no answer to \(command); output so far: \(self.lines)")
        }
        return self.lines.filter(Self.isAnswer)[before]
    }

    /// Closes stdin (end of input) and waits for the output to end.
    func endInput() throws {
        try self.input.fileHandleForWriting.close()
        guard waitUntil({ self.output.withLock { $0.ended } }), waitUntil({ !self.process.isRunning }) else {
            throw HTTPTestError("the origin did not stop at end of input")
        }
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

@Suite struct LegacyDemoOriginControlTests {
    @Test func faultsFromTheCommandLineAndFromStdinReachClients() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--control-stdin", "--fault", "503 time count=1"])
        defer { demo.finish() }
        #expect(waitUntil { !demo.lines.isEmpty })
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
        #expect(demo.process.terminationStatus == 0)
        #expect(demo.lines.last == "stopped on end of input")
    }

    @Test func aBadFaultOnTheCommandLineIsAUsageError() throws {
        let demo = try DemoProcess(["origin", "--port", "0", "--fault", "503 count=0"])
        defer { demo.finish() }
        #expect(waitUntil { !demo.process.isRunning })
        #expect(demo.process.terminationStatus == 2)
        #expect(demo.lines.isEmpty)
    }
}
