import Foundation
import PlatformSupport

/// The console's stdout. Every line goes out whole in one write (lines from the input thread and the delivery queue
/// never interleave). On a terminal the status line stays at the bottom, redrawn in place after every line; when
/// stdout is not a terminal nothing but the lines themselves is written — no control characters.
final class ConsoleOutput: Sendable {
    private struct Screen {
        var statusShown = false
        var status: (@Sendable () -> String)?
    }

    /// The screen's state; its lock also orders the writes.
    private let screen = Locked(Screen())
    let isTerminal: Bool

    init(isTerminal: Bool = isatty(STDOUT_FILENO) != 0) {
        self.isTerminal = isTerminal
    }

    /// Sets what the live status line shows (used on a terminal only).
    func showStatus(_ text: @escaping @Sendable () -> String) {
        self.screen.withLock { $0.status = text }
    }

    /// Writes `text` as one line; on a terminal the status line is redrawn below it.
    func line(_ text: String) {
        // The status text is built before taking the lock: it reads the client and the console state.
        let status = self.isTerminal ? self.screen.withLock { $0.status }?() : nil
        self.screen.withLock { screen in
            // ESC[1A ESC[2K: up one line and clear it, so the status line is replaced rather than repeated.
            let erase = screen.statusShown ? "\u{1B}[1A\u{1B}[2K" : ""
            if let status {
                // ESC[7m … ESC[0m: the status line in reverse video, set apart from the event lines.
                say(erase + text + "\n\u{1B}[7m" + status + "\u{1B}[0m")
                screen.statusShown = true
            } else {
                say(erase + text)
            }
        }
    }

    /// Writes every line of `lines`.
    func lines(_ lines: [String]) {
        lines.forEach(self.line)
    }

    /// The user typed a line on the terminal: the cursor moved below the status line, which therefore must not be
    /// erased by the next write.
    func inputRead() {
        self.screen.withLock { $0.statusShown = false }
    }
}
