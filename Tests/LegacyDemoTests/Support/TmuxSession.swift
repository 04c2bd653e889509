import Dispatch
import Foundation
import PlatformSupport
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run in a real terminal: a tmux session (its own server and socket, no user configuration) whose
/// screen a test reads back (`capture-pane`) and types into (`send-keys`) as a person would. tmux is the terminal
/// emulator here — it interprets every escape sequence the program writes — so what `screen()` returns is what a
/// user would see. `stop()` ends the server and everything running in it.
///
/// The server runs in the foreground (`tmux -D`) as a child of the test: a server that daemonizes itself would leave
/// the child the test waits for at once, and outlive the test.
final class TmuxSession: @unchecked Sendable {
    // @unchecked: `server` is started in `init` and only waited for or signalled afterwards; every other stored
    // property is an immutable value.

    /// Where tmux is looked for; `Scripts/test.sh` installs the Debian package when it is missing.
    static let candidates = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]

    static var executable: String? {
        Self.candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let socket = FileManager.default.temporaryDirectory
        .appendingPathComponent("legacydemo-tmux-\(UUID().uuidString.prefix(8))").path
    let width: Int
    let height: Int
    private let server = SpawnedProcess()
    private let serverEnded = DispatchSemaphore(value: 0)

    /// Starts `command` (a shell command line) in a new session of `width` × `height` cells.
    init(_ command: String, width: Int = 120, height: Int = 40) throws {
        self.width = width
        self.height = height
        guard let executable = Self.executable else { throw TmuxError.missing }
        // Through Python, which gives the server (and so the terminal's programs) the signal state a login gives:
        // the test process blocks and ignores signals its children would otherwise inherit, so Ctrl-C or Ctrl-Z
        // would do nothing in the terminal.
        self.server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        self.server.arguments = [
            "python3", "-c", Self.cleanSignals, executable, "-D", "-S", self.socket, "-f", "/dev/null",
        ]
        self.server.environment = Self.environment
        self.server.standardInput = FileHandle.nullDevice
        self.server.standardOutput = FileHandle.nullDevice
        self.server.standardError = FileHandle.nullDevice
        self.server.terminationHandler = { [serverEnded] _ in serverEnded.signal() }
        try self.server.run()
        // A client started before the server listens would start a (daemon) server of its own.
        let deadline = Date(timeIntervalSinceNow: 20)
        while !FileManager.default.fileExists(atPath: self.socket) {
            guard Date() < deadline, self.server.isRunning else {
                self.stop()
                throw TmuxError.failed("-D", -1, "the server did not start")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        try self.tmux(["new-session", "-d", "-s", "test", "-x", "\(width)", "-y", "\(height)", command])
    }

    /// Types `text` literally (no key names), as keystrokes.
    func type(_ text: String) throws {
        try self.tmux(["send-keys", "-t", "test", "-l", text])
    }

    /// Presses keys by tmux name: `Enter`, `C-d`, `BSpace`, `C-u`.
    func press(_ keys: String...) throws {
        try self.tmux(["send-keys", "-t", "test"] + keys)
    }

    /// Pastes `text` in one go, as a terminal pastes a clipboard (a bracketed paste is not asked for).
    func paste(_ text: String) throws {
        let file = URL(fileURLWithPath: self.socket + "-paste")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try self.tmux(["load-buffer", "-b", "paste", file.path])
        try self.tmux(["paste-buffer", "-d", "-b", "paste", "-t", "test"])
    }

    /// The visible screen (with `history`, every row scrolled off above it too), one string per line — a line the
    /// terminal wrapped over several rows is joined back — without trailing blanks, trailing empty lines removed;
    /// `escapes` keeps the attributes (reverse video as `ESC[7m`).
    func screen(history: Bool = false, escapes: Bool = false) throws -> [String] {
        let text = try self.tmux(
            ["capture-pane", "-p", "-J", "-t", "test"] + (history ? ["-S", "-"] : []) + (escapes ? ["-e"] : [])
        )
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map { row in
            String(row.reversed().drop { $0 == " " }.reversed())
        }
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// Waits until `predicate` holds for the screen (checked every 50 ms) and returns that screen; throws with the
    /// last screen at the deadline.
    @discardableResult
    func waitForScreen(
        _ what: String,
        within seconds: Double = 20,
        _ predicate: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            let rows = try self.screen()
            if predicate(rows) { return rows }
            guard Date() < deadline else { throw TmuxError.timedOut(what, rows) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Ends the tmux server of this session and the programs in it (SIGKILL if it does not end in 10 s).
    func stop() {
        if self.server.isRunning { _ = try? self.tmux(["kill-server"]) }
        if self.serverEnded.wait(timeout: .now() + 10) == .timedOut {
            kill(self.server.processIdentifier, SIGKILL)
            _ = self.serverEnded.wait(timeout: .now() + 5)
        }
        try? FileManager.default.removeItem(atPath: self.socket)
    }

    /// Unblocks every signal, sets each one's default action, then runs argv[1:].
    private static let cleanSignals = """
        import os, signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        for number in signal.valid_signals():
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        os.execv(sys.argv[1], sys.argv[1:])
        """

    private static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        return environment
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TmuxError.missing }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-S", self.socket, "-f", "/dev/null"] + arguments
        process.environment = Self.environment
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readToEndRetrying()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw TmuxError.failed(arguments.first ?? "", process.terminationStatus, text)
        }
        return text
    }
}

enum TmuxError: Error, CustomStringConvertible {
    case missing
    case failed(String, Int32, String)
    case timedOut(String, [String])

    var description: String {
        switch self {
        case .missing:
            "tmux is not installed (Scripts/test.sh installs the Debian package; apt-get install tmux)"
        case .failed(let command, let status, let output): "tmux \(command) exited \(status): \(output)"
        case .timedOut(let what, let rows): "no \(what) on the screen; it shows:\n\(rows.joined(separator: "\n"))"
        }
    }
}
