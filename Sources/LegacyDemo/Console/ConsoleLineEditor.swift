import Foundation

/// One line of console input, as the session reads it: the text, or the size of a line too long to run.
enum ConsoleInputLine: Equatable {
    case text(String)
    /// A line of `bytes` bytes, more than `ConsoleLineEditor.maximumBytes`: not kept, not run.
    case tooLong(bytes: Int)
}

/// The line being typed at the console's prompt on a terminal. The terminal's own echo and line editing are off
/// while the console runs (`ConsoleTerminal`), so the console keeps the line and draws it itself, which lets it
/// redraw the line below the events that arrive while one types. Pure: bytes in, outcome out.
///
/// Keys: printable text (UTF-8) is appended; Backspace deletes the last character, Ctrl-U the line, Ctrl-W the last
/// word; Enter submits; Ctrl-D on an empty line ends the input. Escape sequences (arrows, function keys) and other
/// control characters are ignored. A line keeps at most `maximumBytes`: bytes past that are counted, not stored,
/// and Enter then reports the line as too long.
struct ConsoleLineEditor {
    /// The longest line the console reads (either way, typed or piped): 64 KiB. A `publish` line carries at most
    /// one 32 KiB message, so no valid command is longer; a longer line is refused whole instead of growing
    /// memory without bound.
    static let maximumBytes = 65_536

    enum Outcome: Equatable {
        /// Still typing; the visible line may have changed.
        case editing
        /// Enter: the line is complete.
        case submitted(ConsoleInputLine)
        /// Ctrl-D on an empty line.
        case endOfInput
    }

    private enum Escape {
        case none
        /// ESC seen.
        case started
        /// ESC [ or ESC O seen: the sequence ends with a byte in 0x40...0x7E.
        case sequence
    }

    private(set) var bytes: [UInt8] = []
    /// Bytes typed past `maximumBytes` on this line.
    private(set) var dropped = 0
    private var escape = Escape.none

    /// The line as typed so far (invalid UTF-8 shown as replacement characters).
    var text: String { String(decoding: self.bytes, as: UTF8.self) }

    mutating func feed(_ byte: UInt8) -> Outcome {
        switch self.escape {
        case .started:
            self.escape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .none
            return .editing
        case .sequence:
            if (0x40...0x7E).contains(byte) { self.escape = .none }
            return .editing
        case .none:
            break
        }
        switch byte {
        case 0x0A, 0x0D:
            let line: ConsoleInputLine =
                self.dropped > 0 ? .tooLong(bytes: self.bytes.count + self.dropped) : .text(self.text)
            self.clear()
            return .submitted(line)
        case 0x04:
            return self.bytes.isEmpty && self.dropped == 0 ? .endOfInput : .editing
        case 0x7F, 0x08:
            // The last character: its continuation bytes (10xxxxxx), then its first byte.
            while let last = self.bytes.last, last & 0xC0 == 0x80 { self.bytes.removeLast() }
            if !self.bytes.isEmpty { self.bytes.removeLast() }
        case 0x15:
            self.clear()
        case 0x17:
            while self.bytes.last == UInt8(ascii: " ") { self.bytes.removeLast() }
            while let last = self.bytes.last, last != UInt8(ascii: " ") { self.bytes.removeLast() }
        case 0x1B:
            self.escape = .started
        case 0x09:
            self.append(UInt8(ascii: " "))
        case 0x00..<0x20:
            break
        default:
            self.append(byte)
        }
        return .editing
    }

    private mutating func append(_ byte: UInt8) {
        if self.bytes.count < Self.maximumBytes {
            self.bytes.append(byte)
        } else {
            self.dropped += 1
        }
    }

    private mutating func clear() {
        self.bytes.removeAll(keepingCapacity: false)
        self.dropped = 0
    }
}

/// Splits piped console input into lines, as `readLine` does (`\n` or `\r\n` ends a line; text after the last
/// newline is a line at the end of input), but never holds more than `ConsoleLineEditor.maximumBytes` of one line:
/// the rest of a longer line is counted and dropped, and the line is reported as too long. Pure: chunks in, lines out.
struct ConsoleLineSplitter {
    private var pending: [UInt8] = []
    private var dropped = 0

    /// The lines `chunk` completes, in order.
    mutating func feed(_ chunk: some Collection<UInt8>) -> [ConsoleInputLine] {
        // memchr finds the newlines: a pasted megabyte line costs a scan, not a loop per byte.
        let lines = chunk.withContiguousStorageIfAvailable { self.feed(UnsafeRawBufferPointer($0)) }
        return lines ?? Array(chunk).withUnsafeBytes { self.feed($0) }
    }

    private mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ConsoleInputLine] {
        var lines: [ConsoleInputLine] = []
        var rest = bytes
        while let base = rest.baseAddress, !rest.isEmpty {
            guard let found = memchr(base, Int32(UInt8(ascii: "\n")), rest.count) else {
                self.keep(rest)
                break
            }
            let length = base.distance(to: UnsafeRawPointer(found))
            self.keep(UnsafeRawBufferPointer(rebasing: rest[..<length]))
            lines.append(self.take())
            rest = UnsafeRawBufferPointer(rebasing: rest[(length + 1)...])
        }
        return lines
    }

    /// Keeps what fits under the limit of `bytes`, counts the rest.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        let room = max(0, ConsoleLineEditor.maximumBytes - self.pending.count)
        self.pending.append(contentsOf: bytes.prefix(room))
        self.dropped += bytes.count - min(room, bytes.count)
    }

    /// The unterminated last line at the end of input, if there is one.
    mutating func finish() -> ConsoleInputLine? {
        self.pending.isEmpty && self.dropped == 0 ? nil : self.take()
    }

    private mutating func take() -> ConsoleInputLine {
        defer {
            self.pending.removeAll(keepingCapacity: false)
            self.dropped = 0
        }
        if self.dropped > 0 { return .tooLong(bytes: self.pending.count + self.dropped) }
        if self.pending.last == UInt8(ascii: "\r") { self.pending.removeLast() }
        return .text(String(decoding: self.pending, as: UTF8.self))
    }
}
