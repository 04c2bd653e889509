import Foundation
import PlatformSupport
import TestSupport

/// One run of the built `LegacyDemo` binary with its stdout and stderr collected, for tests that drive the demo
/// the way users and scripts do.
///
/// Every wait takes a deadline; `stop()` terminates the process, waits for it (and kills it past the deadline), so a
/// test never leaves a process behind.
final class DemoProcess: @unchecked Sendable {
    // @unchecked: `process` is configured before `run()` and only signalled afterwards; what the reading threads
    // and the termination handler change lives in `collected`.
    private struct Collected {
        var stdout = Data()
        var stderr = Data()
        var openStreams = 2
        var status: Int32?
    }

    private let process = SpawnedProcess()
    private let collected = Monitor(Collected())

    /// The binary `swift build` / `swift test` puts at the package root's `.build/debug/LegacyDemo`.
    static var binary: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // LegacyDemoTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .appendingPathComponent(".build/debug/LegacyDemo")
    }

    /// The package root, for scripts the tests run.
    static var packageRoot: URL {
        Self.binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts `LegacyDemo arguments…` (or `executable arguments…`) with `environment` added to this process's, and
    /// `input` as its whole standard input (then end of file) when given, else an empty one. Throws when the binary
    /// is missing or cannot be started.
    init(
        _ arguments: [String],
        input: String? = nil,
        executable: URL? = nil,
        environment: [String: String] = [:]
    ) throws {
        let binary = executable ?? Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw DemoProcessError.missingBinary(binary.path)
        }
        self.process.executableURL = binary
        self.process.arguments = arguments
        if !environment.isEmpty {
            self.process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        self.process.standardOutput = out
        self.process.standardError = err
        let stdin = input.map { _ in Pipe() }
        self.process.standardInput = stdin ?? FileHandle.nullDevice
        self.process.terminationHandler = { [weak self] process in
            guard let self else { return }
            self.collected.withLock { collected in
                collected.status = process.terminationStatus
                self.collected.broadcast()
            }
        }
        try self.process.run()
        if let stdin, let input {
            // A pipe buffer holds 64 KiB: scripts are far smaller, so this write never blocks on the reader. A demo
            // that exits without reading gives EPIPE, not SIGPIPE (ignored here), and the test sees its exit.
            signal(SIGPIPE, SIG_IGN)
            let bytes = Array(input.utf8)
            let descriptor = stdin.fileHandleForWriting.fileDescriptor
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                written += count
            }
            try stdin.fileHandleForWriting.close()
        }
        self.collect(out.fileHandleForReading, isStdout: true)
        self.collect(err.fileHandleForReading, isStdout: false)
    }

    /// Reads `handle` to its end on a thread of its own: blocking reads see end-of-file reliably, where
    /// `readabilityHandler` on Linux can miss it.
    private func collect(_ handle: FileHandle, isStdout: Bool) {
        let thread = Thread { [self] in
            while true {
                let data = handle.nextChunk()
                self.collected.withLock { collected in
                    if data.isEmpty {
                        collected.openStreams -= 1
                    } else if isStdout {
                        collected.stdout.append(data)
                    } else {
                        collected.stderr.append(data)
                    }
                    self.collected.broadcast()
                }
                if data.isEmpty { return }
            }
        }
        thread.name = "DemoProcess.\(isStdout ? "stdout" : "stderr")"
        thread.start()
    }

    /// The process's id, for what only the system can say about it (its memory in /proc).
    var processIdentifier: Int32 { self.process.processIdentifier }

    /// Everything written to stdout so far.
    var output: String {
        self.collected.withLock { String(decoding: $0.stdout, as: UTF8.self) }
    }

    /// Everything written to stderr so far.
    var errors: String {
        self.collected.withLock { String(decoding: $0.stderr, as: UTF8.self) }
    }

    /// Waits until a stdout line contains `text` and returns that line, or nil at the deadline or exit.
    func waitForLine(containing text: String, timeout: Double = 20) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return self.collected.wait { collected, wake -> MonitorStep<String?> in
            if wake == .timedOut { return .done(nil) }
            let lines = String(decoding: collected.stdout, as: UTF8.self).split(separator: "\n")
            if let line = lines.first(where: { $0.contains(text) }) { return .done(String(line)) }
            return collected.openStreams == 0 ? .done(nil) : .waitUntil(deadline)
        }
    }

    /// Waits for the process to exit and its output to be read to the end; returns the exit status, or nil at the
    /// deadline (the process is then still running: call `stop()`).
    func waitForExit(timeout: Double = 30) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return self.collected.wait { collected, wake -> MonitorStep<Int32?> in
            if wake == .timedOut { return .done(nil) }
            let finished = collected.status != nil && collected.openStreams == 0
            return finished ? .done(collected.status) : .waitUntil(deadline)
        }
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() { self.process.interrupt() }

    /// Terminates the process if it still runs and waits for it; kills it when SIGTERM is not enough in 15 s.
    func stop() {
        if self.process.isRunning { self.process.terminate() }
        if self.waitForExit(timeout: 15) == nil {
            kill(self.process.processIdentifier, SIGKILL)
            _ = self.waitForExit(timeout: 5)
        }
    }

    /// The `RESULT` line's counters by name, when the last stdout line is a `RESULT` line.
    var result: [String: Double]? {
        guard let last = self.output.split(separator: "\n").last, last.hasPrefix("RESULT ") else { return nil }
        var fields: [String: Double] = [:]
        for pair in last.dropFirst("RESULT ".count).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1]) else { return nil }
            fields[String(parts[0])] = value
        }
        return fields
    }
}

/// Why a `DemoProcess` could not start.
enum DemoProcessError: Error, CustomStringConvertible {
    case missingBinary(String)

    var description: String {
        switch self {
        case .missingBinary(let path): "LegacyDemo is not built at \(path); run `swift build` first"
        }
    }
}
