import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `LegacyDemo console` on a real terminal (tmux), typed into as a person types, its screen read back: a prompt,
/// one status line redrawn in place (never a stale copy, in the scrollback either), typed text kept under events
/// that arrive meanwhile, event lines at column 0, `wait` reporting what already arrived, Ctrl-D ending the session
/// with a status line that is true, and the terminal's modes given back.
@Suite(.serialized, .holdsAThread) struct ConsoleTerminalTests {
    /// Rows that are a status line: the live one at the bottom, or the last one left by the end of the session.
    static func statusRows(_ rows: [String]) -> [String] {
        rows.filter { $0.hasPrefix("status connection=") }
    }

    /// Publishes `message` (a JSON string) on `channel` of the origin at 127.0.0.1:`port` with a raw HTTP request,
    /// as another client would; returns the origin's answer.
    static func publish(_ message: String, on channel: String, port: UInt16) throws -> String {
        let fd = LoopbackSocket.tcp()
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        guard LoopbackSocket.connect(fd, port: port) == 0 else { throw POSIXError(.ECONNREFUSED) }
        let escaped = message.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? message
        let request =
            "GET /publish/demo/demo/0/\(channel)/0/\(escaped) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: close\r\n\r\n"
        _ = request.utf8CString.withUnsafeBytes { send(fd, $0.baseAddress, $0.count - 1, 0) }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// The console in tmux, followed by its exit status and the terminal's modes once it ended.
    static func start(_ arguments: String = "") throws -> (tmux: TmuxSession, modes: URL) {
        let modes = FileManager.default.temporaryDirectory.appendingPathComponent("console-modes-\(UUID())")
        let tmux = try TmuxSession(
            "'\(DemoProcess.binary.path)' console \(arguments); echo \"console exited $?\"; "
                + "stty -a > '\(modes.path)'; sleep 600",
            width: 120,
            height: 60
        )
        return (tmux, modes)
    }

    @Test func aTypedSessionKeepsOneStatusLineAndTheTypedTextUnderArrivingEvents() async throws {
        let (tmux, modes) = try Self.start()
        defer {
            tmux.stop()
            try? FileManager.default.removeItem(at: modes)
        }
        var screen = try await tmux.waitForScreen("the prompt") { $0.last == ">" }
        #expect(Self.statusRows(screen).count == 1)
        #expect(screen.dropLast().last?.hasPrefix("status connection=not-connected subscribed=0") == true)
        let origin = try #require(screen.first { $0.hasPrefix("embedded origin listening on 127.0.0.1:") })
        let port = try #require(UInt16(origin.split(separator: ":").last.map(String.init) ?? ""))

        try tmux.type("connect")
        try tmux.press("Enter")
        try await tmux.waitForScreen("connected, and the prompt back") {
            $0.contains { $0.hasPrefix("[block] connect success") } && $0.last == ">"
        }
        // Presence observed first, so the join of the subscribe that follows is seen (and counted).
        for (command, block) in [
            ("presence on chat", "[block] presence on"), ("subscribe chat --presence", "[block] subscribe"),
        ] {
            try tmux.type(command)
            try tmux.press("Enter")
            try await tmux.waitForScreen("\(command) done") { rows in
                rows.contains("> \(command)") && rows.last == ">" && rows.contains { $0.hasPrefix(block) }
            }
        }
        screen = try await tmux.waitForScreen("the occupancy") { rows in
            Self.statusRows(rows).last?.contains("channels=chat occupancy=chat:1") == true
        }

        // Half a command typed; a message from another client arrives meanwhile.
        try tmux.type("publish chat hel")
        try await tmux.waitForScreen("the typed text") { $0.last == "> publish chat hel" }
        #expect(try Self.publish("\"from-peer\"", on: "chat", port: port).contains("\"Sent\""))
        screen = try await tmux.waitForScreen("the message") { rows in
            rows.contains { $0.hasPrefix("[notification] PNClientDidReceiveMessageNotification") }
        }
        #expect(screen.last == "> publish chat hel", "typed text kept under the event: \(screen)")
        #expect(screen.dropLast().last?.hasPrefix("status connection=connected") == true)
        #expect(screen.contains("[delegate] didReceiveMessage channel=chat message=\"from-peer\""), "at column 0")
        try tmux.type("lo")
        try tmux.press("Enter")
        try await tmux.waitForScreen("the publish") { rows in
            rows.contains("[block] publish state=sent channel=chat message=\"hello\"") && rows.last == ">"
        }

        // `wait message` reports the message that arrived before it, by name.
        try tmux.type("wait message")
        try tmux.press("Enter")
        screen = try await tmux.waitForScreen("the wait") { rows in
            rows.contains { $0.hasPrefix("wait message: channel=chat message=\"from-peer\" (arrived before") }
        }
        try tmux.type("help subscribe")
        try tmux.press("Enter")
        screen = try await tmux.waitForScreen("the help") { $0.contains { $0.contains("presence on CH") } }

        // Nothing left behind in the scrollback: every redraw replaced the one status line.
        #expect(Self.statusRows(try tmux.screen(history: true)).count == 1)
        #expect(try tmux.screen(escapes: true).contains { $0.contains("\u{1B}[7mstatus connection=connected") })

        // Ctrl-D: disconnected, and the status line left on the screen is true (no channel, no occupancy).
        try tmux.press("C-d")
        screen = try await tmux.waitForScreen("the end") { $0.contains { $0.hasPrefix("console exited ") } }
        #expect(screen.contains("console exited 0"))
        #expect(screen.contains("bye"))
        let history = try tmux.screen(history: true)
        let last = Self.statusRows(history)
        #expect(last.count == 1, "\(last)")
        #expect(last.first?.hasPrefix("status connection=disconnected subscribed=0 channels=- occupancy=- ") == true)
        // The terminal is as the shell had it: line editing and echo on.
        try await eventually("stty output", within: 20) {
            (try? String(contentsOf: modes, encoding: .utf8))?.isEmpty == false
        }
        let words = try String(contentsOf: modes, encoding: .utf8).split { $0 == " " || $0 == "\n" || $0 == ";" }
        #expect(words.contains("icanon") && words.contains("echo"), "\(words)")
    }

    /// Ctrl-Z in an interactive shell: the shell gets its terminal back as it was (line mode and echo on); `fg`
    /// gives the console the terminal again, redrawn, with the half-typed command still there. Then Ctrl-C.
    @Test func ctrlZAndCtrlCGiveTheTerminalBackAndFgResumesTheLine() async throws {
        let tmux = try TmuxSession("PS1='$ ' exec bash --norc --noprofile -i", width: 120, height: 40)
        defer { tmux.stop() }
        try await tmux.waitForScreen("the shell") { $0.last == "$" }
        try tmux.type("'\(DemoProcess.binary.path)' console")
        try tmux.press("Enter")
        try await tmux.waitForScreen("the prompt") { $0.last == ">" }
        try tmux.type("conn")
        try await tmux.waitForScreen("the typed text") { $0.last == "> conn" }
        try tmux.press("C-z")
        try await tmux.waitForScreen("the shell again") { $0.last == "$" && $0.contains { $0.contains("Stopped") } }
        try tmux.type("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo")
        try tmux.press("Enter")
        var screen = try await tmux.waitForScreen("the modes") { $0.last == "$" && $0.contains("icanon") }
        #expect(screen.contains("echo") && !screen.contains("-icanon") && !screen.contains("-echo"), "\(screen)")
        try tmux.type("fg")
        try tmux.press("Enter")
        screen = try await tmux.waitForScreen("the console again") { $0.last == "> conn" }
        #expect(screen.dropLast().last?.hasPrefix("status connection=not-connected") == true, "\(screen)")
        try tmux.type("ect")
        try tmux.press("Enter")
        try await tmux.waitForScreen("the connect") { rows in
            rows.contains { $0.hasPrefix("[block] connect success") } && rows.last == ">"
        }
        // Ctrl-C ends the console at once, as the signal would, with the terminal given back.
        try tmux.press("C-c")
        try await tmux.waitForScreen("the shell at the end") { $0.last == "$" }
        try tmux.type("echo \"status $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e -echo | wc -l")
        try tmux.press("Enter")
        screen = try await tmux.waitForScreen("the status") { $0.last == "$" && $0.contains("status 130") }
        #expect(screen.dropLast().last == "0", "line mode and echo back on: \(screen)")
    }

    @Test func aPastedLineLongerThanTheLimitIsRefusedAndTheSessionGoesOn() async throws {
        let (tmux, modes) = try Self.start()
        defer {
            tmux.stop()
            try? FileManager.default.removeItem(at: modes)
        }
        try await tmux.waitForScreen("the prompt") { $0.last == ">" }
        try tmux.paste("publish chat " + String(repeating: "x", count: 70_000))
        try tmux.press("Enter")
        let screen = try await tmux.waitForScreen("the refusal", within: 30) { rows in
            rows.contains { $0.hasPrefix("error: a line of 70013 bytes is longer than the 65536") } && rows.last == ">"
        }
        #expect(!screen.contains { $0.contains("[block] publish") })
        try tmux.type("help time")
        try tmux.press("Enter")
        try await tmux.waitForScreen("the help") { $0.contains { $0.hasPrefix("time") && $0.contains("→") } }
        try tmux.press("C-d")
        try await tmux.waitForScreen("the end") { $0.contains("console exited 0") }
    }
}
