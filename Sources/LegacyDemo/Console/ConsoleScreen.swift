/// The bytes the console writes to a terminal: event lines scroll up, and below them a block of one status line
/// and, while the console waits for a command, the prompt line with what is typed so far. Each write first erases
/// the block, then writes the new lines, then draws the block again — so there is only ever one status line, always
/// the current one, and the typed text is never lost under an event. Pure: text in, escape sequences out.
///
/// Sequences used (ECMA-48, what every terminal emulator understands): CR (column 0), `ESC[2K` (erase the line),
/// `ESC[1A` (up one line), `ESC[7m`/`ESC[0m` (reverse video on/off).
enum ConsoleScreen {
    /// The block at the bottom of the screen.
    struct Block: Equatable {
        /// The status text, or nil for none.
        var status: String?
        /// The prompt (`"> "`) while the console waits for a command, else nil.
        var prompt: String?
        /// What is typed after the prompt.
        var input = ""

        /// How many screen rows the block takes when drawn (each line is cut to the width, so one row each).
        var rows: Int { (self.status == nil ? 0 : 1) + (self.prompt == nil ? 0 : 1) }
    }

    /// Erases the `rows` rows of a block drawn before (the cursor is on its last row) and leaves the cursor at column
    /// 0 of its first row.
    static func erase(rows: Int) -> String {
        guard rows > 0 else { return "" }
        return "\r\u{1B}[2K" + String(repeating: "\u{1B}[1A\u{1B}[2K", count: rows - 1)
    }

    /// Draws `block` from the cursor's position (column 0 of an empty row); the cursor ends after the typed text.
    static func draw(_ block: Block, width: Int) -> String {
        var rows: [String] = []
        if let status = block.status {
            rows.append("\u{1B}[7m" + Self.fit(status, width: width) + "\u{1B}[0m")
        }
        if let prompt = block.prompt {
            rows.append(Self.promptLine(prompt, block.input, width: width))
        }
        return rows.joined(separator: "\n")
    }

    /// `text` cut to fit in `width` columns without wrapping (one column kept free, so the terminal never wraps
    /// the cursor to a new row), its end replaced by `…` when cut. One character counts one column.
    static func fit(_ text: String, width: Int) -> String {
        let room = max(width - 1, 1)
        guard text.count > room else { return text }
        return String(text.prefix(room - 1)) + "…"
    }

    /// The prompt and the end of the typed text, scrolled so that the cursor stays on one row: `> …xyz`.
    static func promptLine(_ prompt: String, _ input: String, width: Int) -> String {
        let room = max(width - 1 - prompt.count, 2)
        guard input.count > room else { return prompt + input }
        return prompt + "…" + String(input.suffix(room - 1))
    }
}
