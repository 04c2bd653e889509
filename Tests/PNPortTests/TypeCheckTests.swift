import Foundation
import Testing

@testable import PNPort

/// Every Swift spelling the assistant prints for the ChatApp fixture, compiled: `swiftc -typecheck` over the file
/// `--emit-check` writes, with the stubs of the app's own names, against the PubNubLegacy and PNObservation modules
/// this package just built. A spelling that names a missing method, the wrong labels, a wrong type, a delegate
/// method no requirement matches or a UIKit class adopting `PNDelegate` without `@preconcurrency` fails it; the second
/// test shows that it does.
@Suite(.serialized) struct TypeCheckTests {
    /// Writes the check file and runs the compiler on it with the stubs; the compiler's run.
    private func typeCheck(_ text: String) async throws -> ToolRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pnport-typecheck-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let checkFile = folder.appendingPathComponent("Check.swift")
        try text.write(to: checkFile, atomically: true, encoding: .utf8)
        let modules = BuildProducts.modules
        try #require(
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("PubNubLegacy.swiftmodule").path),
            "no PubNubLegacy.swiftmodule in \(modules.path)"
        )
        return try await ToolRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-typecheck", "-swift-version", "6", "-module-name", "ChatAppPort", "-I", modules.path,
                checkFile.path, ChatAppFixture.stubs.path,
            ],
            timeout: 300
        )
    }

    @Test func everySpellingOfTheFixtureTypeChecksAgainstTheLayer() async throws {
        let report = try ChatAppFixture.report()
        let (text, count) = CheckFile.render(report)
        let spelled = report.entries.filter { $0.swift != nil }.count
        #expect(count == spelled, "the check file holds every spelling")
        #expect(count == ChatAppFixtureTests.expectedEntries.count - 6, "all but the six the assistant could not spell")
        // Each spelling is in the file, verbatim (an extension names its class inside the check's namespace).
        for entry in report.entries {
            guard let swift = entry.swift, !swift.isEmpty, entry.form != .importLine else { continue }
            let placed = swift.hasPrefix("extension ") ? String(swift.dropFirst("extension ".count)) : swift
            #expect(text.contains(placed), "\(entry.file):\(entry.line) is not in the check file")
        }
        let run = try await self.typeCheck(text)
        let errors = run.errors.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            run.status == 0 && errors.isEmpty,
            "swiftc found:\n\(errors.joined(separator: "\n"))\n\(run.errors.suffix(3000))"
        )
    }

    @Test func aWrongSpellingFailsTheTypeCheck() async throws {
        let report = try ChatAppFixture.report()
        let mutations = [
            ("label", "toChannel: channel,", "onChannel: channel,"),
            ("delegate method", "didReceivePresenceEvent event:", "didReceivePresenceEvents event:"),
            ("case", "case .PNSubscriptionProcessRestoredState:", "case .PNSubscriptionProcessRestored:"),
            // A UIKit class's line without MIGRATION.md §3's one edit: Swift 6 refuses the crossing conformance.
            ("main-actor adoption", ", @preconcurrency PNDelegate", ", PNDelegate"),
        ]
        for (name, right, wrong) in mutations {
            var mutated = report
            let index = try #require(
                mutated.entries.firstIndex { $0.swift?.contains(right) == true },
                "no \(name) to change"
            )
            mutated.entries[index].swift = mutated.entries[index].swift?.replacingOccurrences(of: right, with: wrong)
            let run = try await self.typeCheck(CheckFile.render(mutated).text)
            #expect(run.status != 0 && run.errors.contains(": error: "), "a wrong \(name) type-checked")
        }
    }
}
