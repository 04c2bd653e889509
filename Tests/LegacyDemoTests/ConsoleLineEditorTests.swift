import Testing

@testable import LegacyDemo

/// The console's own line editing on a terminal and its line splitting of piped input (`ConsoleLineEditor.swift`),
/// and the bytes it draws the bottom block with (`ConsoleScreen.swift`).
@Suite struct ConsoleLineEditorTests {
    /// Feeds `keys` and returns the outcomes that are not `.editing`, and the line left being edited.
    private func type(_ keys: [UInt8], into editor: inout ConsoleLineEditor) -> [ConsoleLineEditor.Outcome] {
        keys.map { editor.feed($0) }.filter { $0 != .editing }
    }

    @Test func enterSubmitsTheLineAndStartsAnEmptyOne() {
        var editor = ConsoleLineEditor()
        #expect(self.type(Array("publish a hi\r".utf8), into: &editor) == [.submitted(.text("publish a hi"))])
        #expect(editor.text.isEmpty)
        #expect(self.type(Array("time\n".utf8), into: &editor) == [.submitted(.text("time"))])
    }

    @Test func backspaceRemovesWholeCharactersAndCtrlUAndCtrlWClear() {
        var editor = ConsoleLineEditor()
        _ = self.type(Array("publish a ✓é".utf8) + [0x7F], into: &editor)
        #expect(editor.text == "publish a ✓")
        _ = self.type([0x08, 0x08], into: &editor)
        #expect(editor.text == "publish a")
        _ = self.type([0x17], into: &editor)
        #expect(editor.text == "publish ")
        _ = self.type([0x17], into: &editor)
        #expect(editor.text.isEmpty)
        _ = self.type(Array("abc".utf8) + [0x15], into: &editor)
        #expect(editor.text.isEmpty)
        _ = self.type([0x7F], into: &editor)
        #expect(editor.text.isEmpty)
    }

    @Test func escapeSequencesAndControlKeysAreIgnored() {
        var editor = ConsoleLineEditor()
        // Up arrow (CSI A), F1 (SS3 P), Home (CSI 1 ~), a bell, then a tab that counts as a space.
        let keys: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x50, 0x1B, 0x5B, 0x31, 0x7E, 0x07] + Array("a\tb".utf8)
        #expect(self.type(keys, into: &editor).isEmpty)
        #expect(editor.text == "a b")
    }

    @Test func ctrlDEndsTheInputOnlyOnAnEmptyLine() {
        var editor = ConsoleLineEditor()
        #expect(self.type(Array("ab".utf8) + [0x04], into: &editor).isEmpty)
        #expect(editor.text == "ab")
        #expect(self.type([0x15, 0x04], into: &editor) == [.endOfInput])
    }

    @Test func aLineLongerThanTheLimitKeepsOnlyTheLimitAndIsReportedWhole() {
        var editor = ConsoleLineEditor()
        let keys = [UInt8](repeating: UInt8(ascii: "x"), count: ConsoleLineEditor.maximumBytes + 10)
        #expect(self.type(keys, into: &editor).isEmpty)
        #expect(editor.bytes.count == ConsoleLineEditor.maximumBytes)
        #expect(editor.dropped == 10)
        #expect(editor.feed(0x0D) == .submitted(.tooLong(bytes: ConsoleLineEditor.maximumBytes + 10)))
        #expect(editor.bytes.isEmpty && editor.dropped == 0)
        #expect(self.type(Array("time\r".utf8), into: &editor) == [.submitted(.text("time"))])
    }

    // MARK: - Piped input

    @Test func splitterCutsLinesLikeReadLine() {
        var splitter = ConsoleLineSplitter()
        #expect(splitter.feed(Array("connect\r\nsub".utf8)) == [.text("connect")])
        #expect(splitter.feed(Array("scribe a\n\n".utf8)) == [.text("subscribe a"), .text("")])
        #expect(splitter.feed(Array("quit".utf8)).isEmpty)
        #expect(splitter.finish() == .text("quit"))
        #expect(splitter.finish() == nil)
    }

    @Test func splitterNeverHoldsMoreThanTheLimitOfOneLine() {
        var splitter = ConsoleLineSplitter()
        let chunk = [UInt8](repeating: UInt8(ascii: "y"), count: 1 << 20)
        for _ in 0..<64 {
            #expect(splitter.feed(chunk).isEmpty)
        }
        #expect(splitter.feed(Array("\nstatus\n".utf8)) == [.tooLong(bytes: 64 << 20), .text("status")])
        #expect(splitter.feed(chunk).isEmpty)
        #expect(splitter.finish() == .tooLong(bytes: 1 << 20))
    }

    // MARK: - Screen

    @Test func theBlockIsErasedFromColumnZeroRowByRow() {
        #expect(ConsoleScreen.erase(rows: 0).isEmpty)
        #expect(ConsoleScreen.erase(rows: 1) == "\r\u{1B}[2K")
        #expect(ConsoleScreen.erase(rows: 2) == "\r\u{1B}[2K\u{1B}[1A\u{1B}[2K")
    }

    @Test func theBlockIsTheStatusInReverseVideoThenThePromptWithTheTypedText() {
        let block = ConsoleScreen.Block(status: "status connection=connected", prompt: "> ", input: "publish a h")
        #expect(block.rows == 2)
        #expect(
            ConsoleScreen.draw(block, width: 80) == "\u{1B}[7mstatus connection=connected\u{1B}[0m\n> publish a h"
        )
        #expect(ConsoleScreen.Block(status: "s", prompt: nil).rows == 1)
    }

    @Test func linesAreCutToTheWidthSoNothingWraps() {
        #expect(ConsoleScreen.fit("0123456789", width: 11) == "0123456789")
        #expect(ConsoleScreen.fit("0123456789", width: 8) == "012345…")
        #expect(ConsoleScreen.promptLine("> ", "publish chat hello", width: 12) == "> …at hello")
        #expect(ConsoleScreen.promptLine("> ", "time", width: 12) == "> time")
    }
}
