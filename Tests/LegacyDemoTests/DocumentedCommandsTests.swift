import Foundation
import Testing

@testable import LegacyDemo

/// Every `LegacyDemo` command line the documents give a newcomer to copy — in their shell blocks, and after a `$ `
/// prompt in their transcripts — is accepted by the mode it names: each flag exists, takes the value it is given,
/// and the combination is allowed (the modes' own flag parsers read it, so nothing runs). A flag renamed in the code
/// but not in the README fails here, not on a newcomer's machine.
@Suite struct DocumentedCommandsTests {
    /// The package root, three folders above this file (Tests/LegacyDemoTests/).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let documents = ["README.md", "MIGRATION.md", "BENCHMARKS.md", "docs/DESIGN.md", "docs/TEST-APP.md"]

    /// A command line found in a document: where, and the words after `LegacyDemo` (or after `"$bin"`, the binary
    /// the README builds), up to a comment, a pipe, `&&`, `;` or `&`.
    struct Found: CustomStringConvertible {
        let place: String
        let words: [String]
        var description: String { "\(self.place): LegacyDemo \(self.words.joined(separator: " "))" }
    }

    /// The command lines of `text`: lines of ```sh blocks (a trailing `\` joins the next line) and `$ ` lines of
    /// other blocks.
    static func commands(in text: String, document: String) -> [Found] {
        var found: [Found] = []
        var block: String?
        var pending = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                block = block == nil ? String(trimmed.dropFirst(3)) : nil
                continue
            }
            guard let kind = block else { continue }
            var command: String
            if kind == "sh" || kind == "bash" {
                command = pending + trimmed
            } else if trimmed.hasPrefix("$ ") {
                command = String(trimmed.dropFirst(2))
            } else {
                continue
            }
            if command.hasSuffix("\\") {
                pending = String(command.dropLast()) + " "
                continue
            }
            pending = ""
            // Comments first (a comment may mention LegacyDemo), then the invocation.
            if let hash = command.range(of: " #") { command = String(command[..<hash.lowerBound]) }
            for marker in ["swift run -c release LegacyDemo", "swift run LegacyDemo", "\"$bin\""] {
                guard let start = command.range(of: marker) else { continue }
                let rest = command[start.upperBound...]
                let end = rest.firstIndex { "|;&".contains($0) } ?? rest.endIndex
                let words = rest[..<end].split(separator: " ").map(String.init)
                found.append(Found(place: "\(document):\(index + 1)", words: words))
                break
            }
        }
        return found
    }

    static var everyCommand: [Found] {
        Self.documents.flatMap { document in
            let text = (try? String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)) ?? ""
            return Self.commands(in: text, document: document)
        }
    }

    /// Parses `words` as `LegacyDemo` would: the first word is the mode (none: soak); `--ca-file` names a file
    /// this test makes, since the README's is made by the command before it.
    static func parse(_ words: [String], caFile: String) throws {
        let mode = words.first ?? "soak"
        var flags = Array(words.dropFirst(words.isEmpty ? 0 : 1))
        for index in flags.indices.dropLast() where flags[index] == "--ca-file" { flags[index + 1] = caFile }
        switch mode {
        case "soak": _ = try SoakSettings(flags[...])
        case "origin": _ = try OriginSettings(flags[...])
        case "console": _ = try ConsoleSettings(flags[...])
        case "bench": _ = try BenchSettings(flags[...])
        case "help": #expect(flags.isEmpty)
        default: throw UsageError(message: "unknown mode \(mode)")
        }
    }

    @Test func everyDocumentedCommandLineIsAccepted() throws {
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("documented-ca-\(UUID()).pem")
        try Data("not read: the flag parsers only check that it is readable\n".utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let commands = Self.everyCommand
        // The README alone gives eight (the soak, the origin twice, the TLS soak's origin and client, the console
        // transcript, bench); fewer means the search broke, and the test would check nothing.
        #expect(commands.count >= 8, "\(commands)")
        var templates = 0
        for command in commands {
            // `bench [--quick] [--origin HOST:PORT …]`: a synopsis, not a command to copy.
            if command.words.contains(where: { $0.hasPrefix("[") }) {
                templates += 1
                continue
            }
            #expect(throws: Never.self, "\(command)") { try Self.parse(command.words, caFile: caFile.path) }
        }
        #expect(templates <= 1, "synopses are the exception: \(commands)")
    }

    @Test func theSearchFindsCommandsAndTheParsersRefuseAWrongFlag() throws {
        let text = """
            ```sh
            swift run LegacyDemo soak --idle 0.05 \\
                --duration 10   # a comment that says LegacyDemo origin
            "$bin" origin --port 0 & echo started
            ```
            ```text
            $ printf 'time\\n' | swift run LegacyDemo console
            ```
            """
        let found = Self.commands(in: text, document: "X")
        #expect(
            found.map(\.words) == [
                ["soak", "--idle", "0.05", "--duration", "10"], ["origin", "--port", "0"], ["console"],
            ]
        )
        #expect(found.map(\.place) == ["X:3", "X:4", "X:7"])
        #expect(throws: UsageError.self) { try Self.parse(["soak", "--show-every-log"], caFile: "/") }
        #expect(throws: UsageError.self) { try Self.parse(["origin", "--secret-key", "s"], caFile: "/") }
        #expect(throws: UsageError.self) { try Self.parse(["consol"], caFile: "/") }
    }
}
