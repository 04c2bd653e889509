import Foundation
import Testing

/// Runs `LegacyDemo console` sessions from piped scripts and reads their transcripts.
enum ConsoleTranscript {
    /// Runs a console session with `script` as stdin to its end; returns it with its exit status.
    static func session(_ script: [String], arguments: [String] = []) throws -> (lines: [String], status: Int32?) {
        let demo = try DemoProcess(["console"] + arguments, input: script.joined(separator: "\n") + "\n")
        let status = demo.waitForExit(timeout: 90)
        demo.stop()
        let lines = demo.output.split(separator: "\n").map(String.init)
        #expect(demo.errors.isEmpty, "stderr: \(demo.errors)")
        return (lines, status)
    }

    /// The lines between the echo of `command` (`> command`) and the next echo: what that command printed.
    static func section(_ lines: [String], _ command: String) -> [String] {
        guard let start = lines.firstIndex(of: "> \(command)") else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix("> ") })
    }

    /// Checks that `expected` occur in `lines` in this order (each as the start of a line), other lines between
    /// them allowed; reports the first one missing.
    static func expectInOrder(
        _ lines: [String],
        _ expected: [String],
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var index = lines.startIndex
        for line in expected {
            guard let found = lines[index...].firstIndex(where: { $0.hasPrefix(line) }) else {
                Issue.record(
                    "\(what): missing (in order) \(line)\n--- got:\n\(lines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation
                )
                return
            }
            index = lines.index(after: found)
        }
    }

    /// How many lines start with `prefix`.
    static func count(_ lines: [String], _ prefix: String) -> Int {
        lines.filter { $0.hasPrefix(prefix) }.count
    }
}
