import Foundation
import Testing

@testable import PNPort

/// `pnport` as a team runs it: the built binary, its report, progress, errors and exit status.
@Suite struct CommandLineTests {
    /// A folder of its own for the test's input files, removed afterwards.
    private func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pnport-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    private func pnport(_ arguments: [String]) async throws -> ToolRun {
        try #require(
            FileManager.default.isExecutableFile(atPath: BuildProducts.pnport.path),
            "no \(BuildProducts.pnport.path)"
        )
        return try await ToolRun.run(BuildProducts.pnport, arguments, timeout: 60)
    }

    @Test func aFolderIsReportedEntryByEntryThenSummarised() async throws {
        let run = try await self.pnport(["--no-progress", ChatAppFixture.folder.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.isEmpty)
        let first = try #require(run.output.split(separator: "\n").first)
        #expect(first.hasSuffix("ChatApp/ChatAppDelegate.h:7: #import"))
        #expect(run.output.contains("    3.4:   [PubNub setDelegate:self]\n    Swift: PubNub.setDelegate(self)\n"))
        #expect(run.output.contains("\nSummary\n  files: 7 (4 .h, 3 .m)"))
        #expect(run.output.hasSuffix("\n") && run.output.contains("  not recognised: 5 names\n"))
    }

    @Test func progressGoesToStandardErrorForEveryFile() async throws {
        let run = try await self.pnport(["--progress", "--summary", ChatAppFixture.folder.path])
        #expect(run.status == 0)
        let lines = run.errors.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("pnport: reading ") }.count == 7)
        #expect(lines.contains { $0.hasPrefix("pnport: scanning 7/7 files (") })
        #expect(!run.output.contains("pnport:"), "progress stays off the report")
        #expect(run.output.hasPrefix("Summary\n"), "--summary prints only the summary")
    }

    @Test func badInputIsNamedAndTheRestIsStillReported() async throws {
        try await self.withFolder { folder in
            let good = folder.appendingPathComponent("Good.m")
            try "@implementation A\n- (void)go { [PubNub connect]; }\n@end\n".write(
                to: good,
                atomically: true,
                encoding: .utf8
            )
            let binary = folder.appendingPathComponent("Binary.m")
            try Data([0x23, 0x69, 0x00, 0x01, 0x0A]).write(to: binary)
            let latin1 = folder.appendingPathComponent("Latin1.h")
            try Data("// caf\u{E9}\n".utf8.dropLast(3) + [0xE9, 0x0A]).write(to: latin1)
            let unterminated = folder.appendingPathComponent("Open.m")
            try "[PubNub connect];\n/* never closed\n".write(to: unterminated, atomically: true, encoding: .utf8)
            let swift = folder.appendingPathComponent("Port.swift")
            try "PubNub.connect()\n".write(to: swift, atomically: true, encoding: .utf8)
            let missing = folder.appendingPathComponent("Missing.m").path

            let run = try await self.pnport(["--no-progress", folder.path, swift.path, missing])
            #expect(run.status == 1, "some inputs could not be read")
            #expect(run.output.contains("Good.m:2: call\n    3.4:   [PubNub connect]\n    Swift: PubNub.connect()\n"))
            #expect(run.errors.contains("Binary.m: not Objective-C: line 1 has a NUL byte"))
            #expect(run.errors.contains("Latin1.h: not Objective-C: the file is not UTF-8 text"))
            #expect(run.errors.contains("Open.m: not Objective-C: line 2 has a /* comment that is never closed"))
            #expect(run.errors.contains("Port.swift: not an Objective-C source (.h, .m or .mm)"))
            #expect(run.errors.contains("Missing.m: no such file or folder"))
            #expect(run.output.contains("  could not be read: 5\n"))
            #expect(!run.output.contains("Port.swift:1:"), "a folder's other files are not inputs")
        }
    }

    @Test func usageErrorsExitWithTwo() async throws {
        for arguments in [[], ["--bogus", "x.m"], ["--emit-check"]] {
            let run = try await self.pnport(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errors.contains("usage: pnport"), "\(arguments)")
        }
        let help = try await self.pnport(["--help"])
        #expect(help.status == 0 && help.output.contains("--emit-check FILE"))
    }

    @Test func theCheckFileIsWritten() async throws {
        try await self.withFolder { folder in
            let check = folder.appendingPathComponent("Check.swift")
            let run = try await self.pnport([
                "--no-progress", "--summary", "--emit-check", check.path, ChatAppFixture.folder.path,
            ])
            #expect(run.status == 0)
            let text = try String(contentsOf: check, encoding: .utf8)
            #expect(text.contains("import PNObservation\n"))
            #expect(text.contains("        _ = PubNub.setDelegate(self)\n"))
            #expect(run.errors.contains("pnport: wrote 114 spellings to \(check.path)"))
        }
    }
}
