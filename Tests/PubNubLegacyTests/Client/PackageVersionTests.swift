import Foundation
import PubNubLegacy
import Testing

/// `kPNPackageVersion` against CHANGELOG.md: the constant is the newest release the changelog lists, and it is a
/// Semantic Versioning number (what SwiftPM's `from:` compares).
@Suite struct PackageVersionTests {
    /// CHANGELOG.md at the package root, three folders above this file (Tests/PubNubLegacyTests/Client).
    static let changelog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")

    @Test func versionIsASemanticVersionWithoutPrefix() {
        let parts = kPNPackageVersion.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3, "MAJOR.MINOR.PATCH, got \(kPNPackageVersion)")
        for part in parts {
            #expect(!part.isEmpty && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber))
            #expect(part == "0" || !part.hasPrefix("0"), "no leading zeros (SemVer 2.0.0 §2)")
        }
    }

    @Test func versionIsTheNewestReleaseOfTheChangelog() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        // Release headings read `## [1.0.0] - 2026-11-27`; the first one is the newest. `## [Unreleased]` above them
        // collects what the next release will hold (Keep a Changelog) and is not a release.
        let newest = text.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let heading = try #require(newest, "CHANGELOG.md lists no release (`## [X.Y.Z] - DATE`)")
        let number = heading.dropFirst(4).prefix { $0 != "]" }
        #expect(String(number) == kPNPackageVersion, "newest release \(heading) vs kPNPackageVersion")
    }
}
