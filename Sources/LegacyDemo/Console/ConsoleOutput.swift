import Foundation
import PlatformSupport

/// The console's stdout. Every line goes out whole in one write (lines from the input thread and the delivery queue
/// never interleave). On a terminal the bottom of the screen holds one status line and, while a command is awaited,
/// the prompt with the text typed so far (`ConsoleScreen`): every write erases that block, writes its lines and
/// draws the block again. When stdout is not a terminal nothing but the lines themselves is written — no control
/// characters, no prompt.
final class ConsoleOutput: Sendable {
    private struct Screen {
        var block = ConsoleScreen.Block()
        /// Rows of the block on the screen now (0: not drawn).
        var drawnRows = 0
        var statusText: (@Sendable () -> String)?
        /// Set by `close()`: nothing is drawn afterwards.
        var closed = false
    }

    /// The screen's state; its lock also orders the writes.
    private let screen = Locked(Screen())
    /// Held for a whole terminal write, status text included (taken before `screen`'s lock, never inside it).
    private let writing = Locked(())
    let isTerminal: Bool
    /// The terminal's width in columns, asked at every draw (the window may be resized).
    private let width: @Sendable () -> Int

    init(
        isTerminal: Bool = isatty(STDOUT_FILENO) != 0,
        width: @escaping @Sendable () -> Int = { ConsoleTerminal.columns() }
    ) {
        self.isTerminal = isTerminal
        self.width = width
    }

    /// Sets what the live status line shows (used on a terminal only).
    func showStatus(_ text: @escaping @Sendable () -> String) {
        self.screen.withLock { $0.statusText = text }
    }

    /// Writes `text` as one line; on a terminal the status line (and the prompt) are drawn again below it.
    func line(_ text: String) {
        self.write([text]) { _ in }
    }

    /// Writes every line of `lines`, in one write.
    func lines(_ lines: [String]) {
        self.write(lines) { _ in }
    }

    /// Shows `prompt` with nothing typed yet (on a terminal): the console waits for a command.
    func showPrompt(_ prompt: String) {
        self.write([]) { block in
            block.prompt = prompt
            block.input = ""
        }
    }

    /// The typed text changed: the prompt line is drawn again.
    func showInput(_ input: String) {
        self.write([]) { $0.input = input }
    }

    /// The typed command is complete: `echo` (the prompt and the command, keys redacted) becomes an ordinary line
    /// and the prompt goes away until the next `showPrompt`.
    func commitInput(_ echo: String) {
        self.write([echo]) { block in
            block.prompt = nil
            block.input = ""
        }
    }

    /// Draws the block again as it is: in place after a resize, or `fresh` below the cursor (back from a
    /// suspension, where the shell wrote below the old block).
    func redraw(fresh: Bool) {
        if fresh { self.screen.withLock { $0.drawnRows = 0 } }
        self.write([]) { _ in }
    }

    /// The end of the session: the block is drawn one last time without the prompt and left on the screen (the last
    /// status stays readable above the shell's prompt); later writes are plain lines.
    func close() {
        guard self.isTerminal else { return }
        self.write([]) { $0.prompt = nil }
        self.screen.withLock { screen in
            if screen.drawnRows > 0 { say("") }
            screen.drawnRows = 0
            screen.closed = true
        }
    }

    /// Erases the block, writes `lines`, applies `change` to the block and draws it again, in one write.
    private func write(_ lines: [String], change: (inout ConsoleScreen.Block) -> Void) {
        guard self.isTerminal else {
            if !lines.isEmpty { say(lines.joined(separator: "\n")) }
            return
        }
        // One terminal write at a time, from building the status text to drawing it: a writer that built its text
        // before an event changed the console state can never draw it over the newer one drawn meanwhile (under
        // load, a prompt drawn after a presence event showed the occupancy from before the event).
        self.writing.withLock { _ in
            // The status text is built before taking the screen's lock: it reads the client and the console state.
            let status = self.screen.withLock { $0.closed ? nil : $0.statusText }?()
            let width = self.width()
            self.screen.withLock { screen in
                guard !screen.closed else {
                    if !lines.isEmpty { say(lines.joined(separator: "\n")) }
                    return
                }
                change(&screen.block)
                screen.block.status = status
                var text = ConsoleScreen.erase(rows: screen.drawnRows)
                text += lines.map { $0 + "\n" }.joined()
                text += ConsoleScreen.draw(screen.block, width: width)
                screen.drawnRows = screen.block.rows
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}
