import Dispatch
import Foundation
import LocalOrigin
import PNObservation
import PlatformSupport
import PubNubLegacy

/// `LegacyDemo console`: every facade API as a command, read one per line from stdin (a terminal or a pipe), run
/// against the shared client (`PubNub.sharedInstance()`) exactly as a 3.x app calls it, with every event printed
/// once per channel it comes through (`ConsoleEventPrinter`).
///
/// Each command waits (at most `--timeout` seconds) for its outcome — its completion block, or for calls without
/// one the event that ends them — before the next line is read, so a piped session prints in a stable order. End
/// of input, `quit` and `exit` disconnect (when connected) and end the session with status 0.
final class ConsoleSession {
    static let usage = """
          LegacyDemo console [--origin HOST[:PORT] --publish-key K --subscribe-key K [--secure|--insecure]]
                             [--cipher-key K] [--timeout SECONDS]
            Runs every PubNub API as a command read from stdin, one per line (type `help`; piped input works:
            the session ends at end of input with status 0). Without --origin it starts an embedded local origin
            and prints `embedded origin listening on HOST:PORT`. Events are printed once per channel:
            [delegate], [observer], [notification], [block]. On a terminal a `> ` prompt keeps what is typed
            while events arrive, under one live status line (connection, subscribed channels, their occupancy);
            Ctrl-D ends the session. Piped, `status` prints it. Lines longer than 64 KiB are refused.
            --timeout   seconds each command waits for its outcome (default 15)
            --secure|--insecure TLS to --origin or not (default --secure)
        """

    /// Seconds the end of the session waits for the disconnect.
    private static let disconnectTimeout = 5.0

    let output: ConsoleOutput
    let state = ConsoleState()
    let printer: ConsoleEventPrinter
    /// The delivery queue of every client event (3.4 used the main thread, which here reads stdin).
    let queue = DispatchQueue(label: "LegacyDemo.console.delivery")
    let input: ConsoleInput
    /// Whether each command read is printed (`> command`): piped input, so a transcript shows what ran.
    let echo: Bool
    var settings: ConsoleSettings
    var delegateEnabled = true
    /// The last message `publish` sent, for `resend`.
    var lastMessage: PNMessage?

    init(settings: ConsoleSettings, output: ConsoleOutput, input: ConsoleInput, echo: Bool) {
        self.settings = settings
        self.output = output
        self.input = input
        self.echo = echo
        self.printer = ConsoleEventPrinter(output: output, state: self.state)
    }

    /// Runs `LegacyDemo console` with `arguments`; returns the exit status.
    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            say("usage:\n\(Self.usage)\ncommands:")
            ConsoleCommand.helpText().forEach { say("  " + $0) }
            return 0
        }
        var settings = try ConsoleSettings(arguments)
        var embedded: LocalOrigin?
        if settings.embedded {
            do {
                embedded = try LocalOrigin.start()
            } catch {
                complain("LegacyDemo console: cannot start the embedded origin: \(error)")
                return 1
            }
            settings.origin = embedded?.address ?? ""
        }
        let output = ConsoleOutput()
        if settings.embedded { output.line("embedded origin listening on \(settings.origin)") }
        // Typed on a terminal, the console edits the line itself (and echoes it); piped, it echoes each line read.
        let terminal = ConsoleTerminal(output: output)
        let session = ConsoleSession(
            settings: settings,
            output: output,
            input: ConsoleInput(output: output, interactive: terminal != nil),
            echo: isatty(STDIN_FILENO) == 0
        )
        session.start()
        session.readCommands()
        session.finish()
        output.close()
        terminal?.restore()
        embedded?.stop()
        return 0
    }

    // MARK: - Session

    /// Registers the four channels and applies the configuration with the printer as delegate.
    private func start() {
        self.printer.observeObservationCenter()
        self.notificationObservers = self.printer.observeNotifications()
        self.output.showStatus { [state = self.state] in Self.statusLine(state) }
        PubNub.setupWithConfiguration(self.settings.configuration(deliveringOn: self.queue), andDelegate: self.printer)
        self.output.line(
            "console ready: origin \(self.settings.origin)\(self.settings.secure ? " (TLS)" : "");"
                + " type \"help\" for the commands"
        )
    }

    private var notificationObservers: [any NSObjectProtocol] = []

    /// The prompt shown on a terminal while a command is awaited.
    static let prompt = "> "

    /// Reads and runs commands until end of input, `quit` or `exit`.
    private func readCommands() {
        while true {
            if self.input.interactive { self.output.showPrompt(Self.prompt) }
            guard let read = self.input.nextLine() else { return }
            guard case .text(let line) = read else {
                if case .tooLong(let bytes) = read { self.refuseLongLine(bytes) }
                continue
            }
            let command: ConsoleCommand?
            let typed = line.trimmingCharacters(in: .whitespaces)
            do {
                command = try ConsoleCommand.parse(line)
            } catch {
                self.echo(typed)
                self.output.lines(["error: \(error.message)", "usage: \(error.usage)"])
                continue
            }
            self.echo(typed)
            guard let command else { continue }
            if command == .quit { return }
            self.perform(command)
        }
    }

    /// Shows the command read: on a terminal the typed line becomes an ordinary line (blank ones too, as a shell
    /// keeps them); piped, it is printed when echoing and not blank.
    private func echo(_ typed: String) {
        let shown = Self.prompt + ConsoleCommand.redactingKeys(typed)
        if self.input.interactive {
            self.output.commitInput(typed.isEmpty ? Self.prompt.trimmingCharacters(in: .whitespaces) : shown)
        } else if self.echo && !typed.isEmpty && !typed.hasPrefix("#") {
            self.output.line(shown)
        }
    }

    /// A line longer than the console reads: said, not run; the session goes on.
    private func refuseLongLine(_ bytes: Int) {
        let limit = ConsoleLineEditor.maximumBytes
        if self.input.interactive { self.output.commitInput(Self.prompt + "…") }
        self.output.line(
            "error: a line of \(bytes) bytes is longer than the \(limit) a command may have; it was not run"
                + " (a message may be at most 32 KiB)"
        )
    }

    /// Disconnects when the client is (or is getting) connected, waits for it, and says goodbye.
    private func finish() {
        if Self.isOnline(self.state) {
            self.disconnect()
        }
        self.output.line("bye")
        self.notificationObservers.forEach(NotificationCenter.default.removeObserver)
    }

    /// Whether `disconnect()` has something to end: connected, connecting or recovering from a network loss.
    static func isOnline(_ state: ConsoleState) -> Bool {
        let connection = state.snapshot().connection
        return connection == "connected" || connection == "connecting" || connection.hasPrefix("offline")
    }

    /// `status connection=… subscribed=N channels=… occupancy=…`: the OpenTok sample's "Connections: N Streams: M"
    /// for PubNub.
    static func statusLine(_ state: ConsoleState) -> String {
        let snapshot = state.snapshot()
        let channels = PubNub.subscribedChannels()
        // Only the channels still subscribed: an occupancy seen before an unsubscribe (or the end) is stale.
        let names = Set(channels.map(\.name))
        let occupancy = snapshot.occupancy.filter { names.contains($0.0) }.map { "\($0.0):\($0.1)" }
            .joined(separator: ",")
        let connection = PubNub.sharedInstance().isConnected() ? "connected" : snapshot.connection
        return "status connection=\(connection.replacingOccurrences(of: " ", with: "-")) subscribed=\(channels.count)"
            + " channels=\(ConsoleFormat.channels(channels)) occupancy=\(occupancy.isEmpty ? "-" : occupancy)"
            + " uuid=\(PubNub.clientIdentifier() ?? "-")"
    }

    // MARK: - Waiting

    /// Starts a call whose completion block opens the latch it is given, and waits for it at most `--timeout`
    /// seconds; prints a timeout line when the block never ran.
    func awaitBlock(_ what: String, _ call: (Latch) -> Void) {
        let latch = Latch()
        call(latch)
        if !latch.wait(timeout: self.settings.timeout) {
            self.output.line("timeout \(what): no outcome after \(Self.seconds(self.settings.timeout))")
        }
    }

    /// Waits for one of `signals` to arrive after `baseline`; prints a timeout line when none does.
    func awaitSignal(_ what: String, _ signals: [ConsoleState.Signal], after baseline: [ConsoleState.Signal: Int]) {
        if self.state.wait(for: signals, after: baseline, timeout: self.settings.timeout) == nil {
            self.output.line("timeout \(what): no outcome after \(Self.seconds(self.settings.timeout))")
        }
    }

    /// The current count of each of `signals`: the baseline to wait from.
    func baseline(_ signals: [ConsoleState.Signal]) -> [ConsoleState.Signal: Int] {
        Dictionary(uniqueKeysWithValues: signals.map { ($0, self.state.count($0)) })
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// When an event `wait` reports arrived, against the moment `wait` was typed: "already there, since 2.4 s" for
    /// one printed before, "after 0.3 s" for one waited for.
    static func when(_ arrived: Date, asked: Date) -> String {
        let seconds = arrived.timeIntervalSince(asked)
        let text = String(format: "%.1f s", abs(seconds))
        return seconds < 0 ? "arrived before the wait, \(text) earlier" : "arrived after \(text)"
    }

    /// Disconnects and waits until the disconnect ran — after its did-disconnect when there was a connection to end,
    /// at once when there was none (a connect that failed for good leaves nothing) — at most 5 s, shorter than a
    /// command: the end of a session never hangs. True when a did-disconnect was delivered.
    @discardableResult
    func disconnect() -> Bool {
        let baseline = self.baseline([.disconnected])
        let ran = Latch()
        PubNub.sharedInstance().disconnect { ran.open() }
        if !ran.wait(timeout: Self.disconnectTimeout) {
            self.output.line("timeout disconnect: no outcome after \(Self.seconds(Self.disconnectTimeout))")
        }
        return self.state.count(.disconnected) > baseline[.disconnected, default: 0]
    }
}
