import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

/// One run of `Tests/Interop/peer.py` (the official PubNub Python SDK) with the interpreter of the package's
/// `.venv-interop`, which `Scripts/test.sh` creates before the Swift tests. Collects its stdout lines; `stop()` ends
/// the process (SIGTERM, then SIGKILL) and must be called by the test that started it.
final class PythonPeer: @unchecked Sendable {
    // @unchecked: `process` is configured in `init` and only queried after; the output state is in `Locked` boxes.

    /// The package root, three folders above this file (Tests/PubNubLegacyTests/Support).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let interpreter = packageRoot.appendingPathComponent(".venv-interop/bin/python")
    static let script = packageRoot.appendingPathComponent("Tests/Interop/peer.py")

    /// The peer's scheme for a cipher key (peer.py's `--mode`).
    enum Mode: String, Sendable, CustomStringConvertible {
        /// Cipher key with `use_random_initialization_vector = False`: the 3.4 standard.
        case fixed
        /// Cipher key with the SDK's default legacy random IV.
        case random
        /// `AesCbcCryptoModule`: PNED header with the ACRH cryptor.
        case module

        var description: String { self.rawValue }
    }

    private let process = SpawnedProcess()
    private let lines = Locked<[String]>([])
    private let errorText = Locked(Data())
    private let cursor = Locked(0)
    private let outputClosed = Locked(false)

    /// Starts `peer.py command --origin … --channel … --key … --mode … extra…` with `input` on its stdin.
    /// Throws `PythonPeerError.missingInterpreter` when the venv is missing.
    init(
        _ command: String,
        origin: String,
        channel: String,
        key: String,
        mode: Mode,
        extra: [String] = [],
        input: Data = Data()
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.interpreter.path) else {
            throw PythonPeerError.missingInterpreter(Self.interpreter.path)
        }
        self.process.executableURL = Self.interpreter
        self.process.arguments =
            ["-u", Self.script.path, command, "--origin", origin, "--channel", channel, "--key", key]
            + ["--mode", mode.rawValue] + extra
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        self.process.standardInput = stdin
        self.process.standardOutput = stdout
        self.process.standardError = stderr
        try self.process.run()
        // Readers on their own threads, so a full pipe never blocks the peer; each ends at EOF.
        let lines = self.lines
        let errorText = self.errorText
        let outputClosed = self.outputClosed
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = stdout.fileHandleForReading.nextChunk()
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
            outputClosed.set(true)
        }
        Thread.detachNewThread {
            while true {
                let chunk = stderr.fileHandleForReading.nextChunk()
                if chunk.isEmpty { break }
                errorText.withLock { $0.append(chunk) }
            }
        }
        // A peer that dies before reading its input must fail the test, not end the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        Thread.detachNewThread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
    }

    /// Waits for the next line (after the previous match) whose first word is `word`, and returns the rest of it.
    /// A `FAILED` line, the process ending first, or the deadline throws with everything the peer printed.
    @discardableResult
    func next(_ word: String, within seconds: Double = 30) async throws -> String {
        var match: (Int, String)?
        do {
            try await eventually("\(word) from the Python peer", within: seconds) {
                // Read before the search: once closed, every line is in the buffer.
                let closed = self.outputClosed.current
                match = self.lines.withLock { lines -> (Int, String)? in
                    let start = self.cursor.current
                    guard start < lines.count else { return nil }
                    for index in start..<lines.count {
                        let line = lines[index]
                        if line == word || line.hasPrefix(word + " ") || line.hasPrefix("FAILED ") {
                            return (index, line)
                        }
                    }
                    return nil
                }
                // The peer closed its stdout (it exited) without printing the line asked for.
                if match == nil && closed { throw PythonPeerError.exited(-1, "") }
                return match != nil
            }
        } catch is EventuallyTimeout {
            throw PythonPeerError.timeout(word, self.transcript)
        } catch PythonPeerError.exited {
            _ = try? await self.exitStatus(within: 5)
            throw PythonPeerError.exited(self.process.isRunning ? -1 : self.process.terminationStatus, self.transcript)
        }
        guard let (index, line) = match else { preconditionFailure("eventually returned without a match") }
        self.cursor.set(index + 1)
        if line.hasPrefix("FAILED ") && word != "FAILED" {
            throw PythonPeerError.failed(self.transcript)
        }
        return String(line.dropFirst(min(line.count, word.count + 1)))
    }

    /// Waits (up to `seconds`) for the peer to exit by itself and returns its exit status.
    func exitStatus(within seconds: Double = 30) async throws -> Int32 {
        do {
            try await eventually("the Python peer to exit", within: seconds) { !self.process.isRunning }
        } catch is EventuallyTimeout {
            throw PythonPeerError.timeout("exit", self.transcript)
        }
        return self.process.terminationStatus
    }

    /// Ends the process if it still runs: SIGTERM, then SIGKILL after 5 s; returns once it has exited.
    func stop() {
        guard self.process.isRunning else { return }
        self.process.terminate()
        if (try? eventuallyBlocking("the Python peer to exit after SIGTERM", within: 5, { !self.process.isRunning }))
            == nil
        {
            kill(self.process.processIdentifier, SIGKILL)
        }
        self.process.waitUntilExit()
    }

    /// Everything the peer printed so far, stdout then stderr.
    var transcript: String {
        self.lines.current.joined(separator: "\n") + "\n--- stderr ---\n"
            + String(decoding: self.errorText.current, as: UTF8.self)
    }
}

/// Why a peer run failed.
enum PythonPeerError: Error, CustomStringConvertible {
    case missingInterpreter(String)
    case failed(String)
    case exited(Int32, String)
    case timeout(String, String)

    var description: String {
        switch self {
        case .missingInterpreter(let path):
            return "\(path) is missing: run Scripts/test.sh, which creates the interop venv with the pinned Python SDK"
        case .failed(let transcript):
            return "the Python peer failed:\n\(transcript)"
        case .exited(let status, let transcript):
            return "the Python peer exited with \(status) before answering:\n\(transcript)"
        case .timeout(let word, let transcript):
            return "no \(word) from the Python peer in time:\n\(transcript)"
        }
    }
}
