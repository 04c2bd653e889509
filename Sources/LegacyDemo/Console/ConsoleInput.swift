import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the console's commands from stdin, one line at a time and never more than
/// `ConsoleLineEditor.maximumBytes` of a line (a longer one comes back as `.tooLong`, with its memory released).
/// On a terminal (`ConsoleTerminal` took it) the line is edited here, key by key, and shown through the output's
/// prompt; otherwise lines are split from whatever stdin gives (a pipe, a file, a terminal in its own line mode).
final class ConsoleInput {
    private let output: ConsoleOutput
    /// Keys arrive one by one from a terminal in the console's own mode and are edited here.
    let interactive: Bool
    private var editor = ConsoleLineEditor()
    private var splitter = ConsoleLineSplitter()
    private var ready: [ConsoleInputLine] = []
    private var ended = false
    private var buffer = [UInt8](repeating: 0, count: 16_384)
    /// Keys read after the end of the last line, not edited yet.
    private var typedAhead: [UInt8] = []

    /// `interactive`: the terminal is in the console's own mode, keys arrive one by one and are edited here.
    init(output: ConsoleOutput, interactive: Bool) {
        self.output = output
        self.interactive = interactive
    }

    /// The next line; nil at the end of input (end of file, or Ctrl-D on an empty line).
    func nextLine() -> ConsoleInputLine? {
        while true {
            if !self.ready.isEmpty { return self.ready.removeFirst() }
            if self.ended { return nil }
            if !self.typedAhead.isEmpty {
                let keys = self.typedAhead
                self.typedAhead = []
                self.edit(keys[...])
                continue
            }
            let count = self.buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                self.end()
            } else if count == 0 {
                self.end()
            } else if self.interactive {
                self.edit(self.buffer[0..<count])
            } else {
                self.ready += self.splitter.feed(self.buffer[0..<count])
            }
        }
    }

    /// Feeds `bytes` to the editor up to the end of a line; the keys after it (pasted lines, keys typed ahead)
    /// wait for the next prompt, so they are shown after it as they would have been typed.
    private func edit(_ bytes: ArraySlice<UInt8>) {
        let before = self.editor.text
        for index in bytes.indices {
            switch self.editor.feed(bytes[index]) {
            case .editing:
                continue
            case .submitted(let line):
                self.ready.append(line)
            case .endOfInput:
                self.ended = true
            }
            self.typedAhead = Array(bytes[(index + 1)...])
            return
        }
        if self.editor.text != before { self.output.showInput(self.editor.text) }
    }

    private func end() {
        self.ended = true
        if let last = self.splitter.finish() { self.ready.append(last) }
    }
}
