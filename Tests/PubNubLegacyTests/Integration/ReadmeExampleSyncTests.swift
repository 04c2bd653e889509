import Foundation
import Testing

/// The README's "Start coding" example must be exactly the code `SharedClientTests` runs (ReadmeExample.swift),
/// so the documented example can never drift from a tested one.
@Suite struct ReadmeExampleSyncTests {
    @Test func readmeShowsTheTestedExampleVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath)
        let packageRoot = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("ReadmeExample.swift"),
            encoding: .utf8
        )
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)

        let begin = try #require(source.range(of: "// README-EXAMPLE-BEGIN\n"))
        let end = try #require(source.range(of: "// README-EXAMPLE-END"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(example.contains("PubNub.connect()"))
        #expect(readme.contains(example), "README.md must contain ReadmeExample.swift's marked region verbatim")
    }
}
