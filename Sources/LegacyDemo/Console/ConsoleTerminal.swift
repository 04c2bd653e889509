import Dispatch
import Foundation
import PlatformSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal of an interactive console session: while the session runs, the terminal's echo and line editing
/// are off (non-canonical mode; signals such as Ctrl-C still work) so that `ConsoleLineEditor` keeps the typed line
/// and `ConsoleOutput` draws it. Whatever ends the process — the end of the session, Ctrl-C, SIGTERM, a hang-up —
/// puts the terminal back as it found it; Ctrl-Z does too, and the console takes the terminal again when resumed.
final class ConsoleTerminal: @unchecked Sendable {
    // @unchecked: `saved` is set in `init` and only read after; the signal sources are started in `init` and
    // cancelled by `restore()`, which runs once (`restored`); `suspended` is a lock box.
    private let saved: termios
    private let output: ConsoleOutput
    private let restored = Locked(false)
    private var sources: [any DispatchSourceSignal] = []
    /// True while stopped by Ctrl-Z: SIGTSTP has its default action, and the signal source's (ignore) is put back
    /// when continued.
    private let suspended = Locked(false)

    /// Takes the terminal when stdin and stdout both are one; nil otherwise (piped input or output).
    init?(output: ConsoleOutput) {
        guard isatty(STDIN_FILENO) != 0, output.isTerminal else { return nil }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return nil }
        self.saved = attributes
        self.output = output
        guard Self.apply(Self.raw(attributes)) else { return nil }
        self.handleSignals()
    }

    /// Puts the terminal back as it was; idempotent.
    func restore() {
        let first = self.restored.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        self.sources.forEach { $0.cancel() }
        _ = Self.apply(self.saved)
    }

    /// The columns of the terminal on stdout, 80 when it cannot say.
    static func columns() -> Int {
        var size = winsize()
        // TIOCGWINSZ is an Int32 in Glibc's module and a UInt in Darwin's; ioctl takes a UInt in both.
        let result = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size)
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    // MARK: - Modes

    /// `attributes` without echo and line editing, reading byte by byte; signal keys (Ctrl-C, Ctrl-Z) and the
    /// output's newline translation are left as they are.
    private static func raw(_ attributes: termios) -> termios {
        var raw = attributes
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        return raw
    }

    private static func apply(_ attributes: termios) -> Bool {
        var attributes = attributes
        return tcsetattr(STDIN_FILENO, TCSADRAIN, &attributes) == 0
    }

    // MARK: - Signals

    /// Ctrl-C, SIGTERM, SIGHUP: the terminal is restored and the process ends as the signal would have ended it
    /// (status 128 + signal). Ctrl-Z: restored, stopped, and on resumption taken again and redrawn. A resize:
    /// redrawn at the new width.
    private func handleSignals() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            self.listen(number) { [self] in
                self.restore()
                self.output.close()
                exit(128 + number)
            }
        }
        self.listen(SIGTSTP) { [self] in
            guard !self.restored.current else { return }
            _ = Self.apply(self.saved)
            // The default action stops the process, once the signal sent again is delivered (kill returns before);
            // SIGCONT (the shell's `fg`) puts the signal source's handler back, takes the terminal and redraws.
            signal(SIGTSTP, SIG_DFL)
            self.suspended.set(true)
            kill(getpid(), SIGTSTP)
        }
        self.listen(SIGCONT) { [self] in
            guard
                self.suspended.withLock({ value in
                    defer { value = false }; return value
                })
            else { return }
            signal(SIGTSTP, SIG_IGN)
            if !self.restored.current { _ = Self.apply(Self.raw(self.saved)) }
            self.output.redraw(fresh: true)
        }
        self.listen(SIGWINCH) { [self] in self.output.redraw(fresh: false) }
    }

    private func listen(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        self.sources.append(source)
    }
}
